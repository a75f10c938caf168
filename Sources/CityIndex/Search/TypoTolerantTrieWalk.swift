// TypoTolerantTrieWalk.swift: the subtrees of a blind trie within an edit budget of a query.

/// Entries a typo-tolerant search matched: a node's subtree (or one entry of a bucket), the
/// fewest edits between the query and the start of their keys, and the key prefix that
/// achieved them (for highlights).
struct TypoMatch {
    var match: TrieMatch
    var edits: Int
    /// The key bytes, from the start, that come within `edits` of the query: the longest such
    /// prefix the walk saw.
    var matchedKey: [UInt8]
    /// Whether no other match contains this one. Outermost matches are disjoint subtrees and
    /// together cover every matching entry; an inner one only lowers the edits of its entries.
    var isOutermost: Bool
}

/// A depth-first walk of a blind trie (FORMAT.md §6) driven by a Levenshtein automaton
/// (`EditDistanceRows`), as Lucene's and fst's fuzzy queries walk theirs: a subtree is entered
/// only while some continuation of its path can still come within the budget, and once its
/// path is within the budget the whole subtree matches (a prefix search), so the walk goes on
/// below it only where fewer edits are possible. No first letter is assumed right.
///
/// The trie stores only the first byte of each edge (a blind trie); the walk reads the rest of
/// an edge from the key of the child's first entry, which every key below the child shares
/// (`key(of:after:into:)`). Edges of one byte, most of the upper levels, need no key.
///
/// Work: O(*v* · *n*) automaton steps for *v* nodes visited and a query key of *n* scalars,
/// plus one key read per visited node with a longer edge, per visited leaf and per entry of a
/// visited bucket. *v* grows with the budget (about the alphabet's size per edit and query
/// position), not with the number of cities. Never traps on a damaged file: node reads are
/// checked, the depth is bounded by the automaton (it dies `n + budget + 1` scalars down) and
/// a key that does not continue the walked path ends that branch.
struct TypoTolerantTrieWalk {
    private let trie: TrieSection
    private var rows: EditDistanceRows
    /// The bytes walked from the root: the path of the node being visited, then its edge.
    private var path: [UInt8] = []
    private var key: [UInt8] = []
    /// Writes the key of entry `entry` into its buffer (emptied first): the folded name for
    /// `NODE`; for `WNOD` the suffix key of the posting's name that starts with the path walked.
    /// Returns false when the entry has no such key (a damaged file).
    private let keyOf: (_ entry: Int, _ path: [UInt8], _ key: inout [UInt8]) -> Bool
    private(set) var matches: [TypoMatch] = []

    private var budget: Int { rows.budget }

    init(trie: TrieSection, query: [UInt32], budget: Int,
         keyOf: @escaping (_ entry: Int, _ path: [UInt8], _ key: inout [UInt8]) -> Bool) {
        self.trie = trie
        rows = EditDistanceRows(query: query, budget: budget)
        self.keyOf = keyOf
        path.reserveCapacity(64)
        key.reserveCapacity(64)
    }

    /// The fewest edits seen on the current edge (below `bound`) and the path length where.
    private struct Best {
        var edits: Int
        var length: Int
    }

    /// Walks the whole trie; `matches` then holds what it found.
    mutating func run() throws(IndexFileError) {
        let bound = budget + 1
        // An empty path is within the budget when the query is at most `budget` scalars long.
        let best = rows.distance < bound ? Best(edits: rows.distance, length: 0) : nil
        try visit(trie.root, bound: bound, best: best)
    }

    /// Appends `byte` to the walked text; when it completes a scalar whose row is within
    /// `bound` (or the current best), records it.
    private mutating func feed(_ byte: UInt8, bound: Int, best: inout Best?) {
        path.append(byte)
        guard rows.append(byte) else { return }
        let distance = rows.distance
        if distance < (best?.edits ?? bound) {
            best = Best(edits: distance, length: path.count)
        } else if let current = best, distance == current.edits {
            best?.length = path.count
        }
    }

    /// Whether nothing below the current text can have fewer edits than `bound` or `best`.
    private func cannotImprove(bound: Int, best: Best?) -> Bool { rows.smallestCell >= (best?.edits ?? bound) }

    /// Feeds `key[path.count ..< end]` until the end or until nothing further can improve.
    private mutating func feedKey(upTo end: Int, bound: Int, best: inout Best?) {
        while path.count < end {
            if rows.isAtScalarBoundary && cannotImprove(bound: bound, best: best) { return }
            feed(key[path.count], bound: bound, best: &best)
        }
    }

    /// Reads the key of `entry` and checks that it continues the walked path to `end` bytes
    /// (a leaf's `end` is its key's length, `nil`).
    private mutating func readKey(of entry: Int, atLeast end: Int?) -> Bool {
        guard keyOf(entry, path, &key), key.count >= (end ?? path.count), key.starts(with: path) else { return false }
        return true
    }

    /// Visits `node`, whose edge's first byte has been fed (the root: nothing), below a match
    /// of `bound` edits (`budget + 1`: none).
    private mutating func visit(_ node: TrieNode, bound: Int, best: Best?) throws(IndexFileError) {
        var best = best
        guard node.entryCount > 0 else { return }
        if node.isBucket {
            let mark = rows.mark
            let pathCount = path.count
            for entry in node.entries {
                var entryBest = best
                if readKey(of: entry, atLeast: nil) { feedKey(upTo: key.count, bound: bound, best: &entryBest) }
                if let entryBest {
                    record(TrieMatch(node: nil, entries: entry ..< entry + 1, cityCount: 1), best: entryBest, bound: bound)
                }
                rows.reset(to: mark)
                path.removeLast(path.count - pathCount)
            }
            return
        }
        if node.isLeaf {
            guard readKey(of: node.firstEntry, atLeast: nil) else { return }
            feedKey(upTo: key.count, bound: bound, best: &best)
        } else if node.pathLength > path.count {
            guard readKey(of: node.firstEntry, atLeast: node.pathLength) else { return }
            feedKey(upTo: node.pathLength, bound: bound, best: &best)
        }
        if let best { record(TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount), best: best, bound: bound) }
        let childBound = best?.edits ?? bound
        guard !node.isLeaf, path.count == node.pathLength, rows.smallestCell < childBound else { return }
        let mark = rows.mark
        let pathCount = path.count
        for index in 0 ..< node.childCount {
            var childBest: Best?
            feed(node.childLabel(at: index, in: trie.nodes), bound: childBound, best: &childBest)
            if !rows.isAtScalarBoundary || rows.smallestCell < childBound {
                try visit(node.child(at: index, in: trie.nodes), bound: childBound, best: childBest)
            }
            rows.reset(to: mark)
            path.removeLast(path.count - pathCount)
        }
    }

    private mutating func record(_ match: TrieMatch, best: Best, bound: Int) {
        matches.append(TypoMatch(match: match, edits: best.edits, matchedKey: Array(path[0 ..< best.length]),
                                 isOutermost: bound > budget))
    }
}
