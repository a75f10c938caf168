// SearchMeter.swift: what one search may still read, and what it did (walks, nodes).

/// One search's meter, shared by the searches it runs itself (the qualifier's); not shared
/// across threads.
///
/// - **Entries** (`CityIndex.searchEntryLimit`): each stage that reads the entries of its
///   matches one by one (every match of a restricted search, alphabetical order over a typo
///   walk, the count of a typo walk's cities, another window of overshadowed matches) spends
///   their number before it reads them, and a search that would pass the limit throws
///   `IndexFileError.searchTooCostly` instead. The stages whose work does not grow with the
///   number of matches (a walk, the top *k* in population order) spend nothing.
/// - **Walks and nodes**, for a traced search (`CityIndex.explain(_:options:)`): each trie walk
///   counts itself and the nodes it visited.
final class SearchMeter {
    let entryLimit: Int
    private(set) var spent = 0
    /// Trie walks made: exact walks of one key, and typo-tolerant walks (each thread's share
    /// counts one).
    private(set) var walks = 0
    /// Trie nodes the walks visited (an exact walk: the nodes it stepped to; a typo-tolerant
    /// walk: the nodes it opened).
    private(set) var nodesVisited = 0

    init(entryLimit: Int = .max) { self.entryLimit = entryLimit }

    /// Counts `count` entries about to be read; throws when that passes the limit. O(1).
    func spend(_ count: Int) throws(IndexFileError) {
        let (sum, overflow) = spent.addingReportingOverflow(count)
        spent = overflow ? .max : sum
        guard spent <= entryLimit else { throw .searchTooCostly(entryCount: spent, limit: entryLimit) }
    }

    /// Counts one walk that visited `nodes` nodes.
    func countWalk(visiting nodes: Int) {
        walks += 1
        nodesVisited += nodes
    }
}
