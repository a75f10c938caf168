// EntryBudget.swift: how many index entries one search may read (`CityIndex.searchEntryLimit`).

/// The index entries one search may still read: each stage that reads the entries of its
/// matches one by one (every match of a restricted search, alphabetical order over a typo walk,
/// the count of a typo walk's cities, another window of overshadowed matches) spends their
/// number before it reads them, and a search that would pass the limit throws
/// `IndexFileError.searchTooCostly` instead. The stages whose work does not grow with the
/// number of matches (a walk, the top *k* in population order) spend nothing. One per search,
/// shared by the searches it runs itself (the qualifier's); not shared across threads.
final class EntryBudget {
    let limit: Int
    private(set) var spent = 0

    init(limit: Int) { self.limit = limit }

    /// Counts `count` entries about to be read; throws when that passes the limit. O(1).
    func spend(_ count: Int) throws(IndexFileError) {
        let (sum, overflow) = spent.addingReportingOverflow(count)
        spent = overflow ? .max : sum
        guard spent <= limit else { throw .searchTooCostly(entryCount: spent, limit: limit) }
    }
}
