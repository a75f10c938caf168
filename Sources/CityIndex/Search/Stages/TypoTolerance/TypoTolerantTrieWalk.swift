// TypoTolerantTrieWalk.swift: the subtrees of a blind trie within an edit budget of a query.

/// Entries a typo-tolerant search matched: a node's subtree (or one entry of a bucket) and
/// the fewest edits between the query and a prefix of their keys.
struct TypoMatch {
    var match: TrieMatch
    var edits: Int
    /// Whether no other match contains this one. Outermost matches are disjoint subtrees and
    /// together cover every matching entry; an inner one only lowers the edits of its entries.
    var isOutermost: Bool

    /// The order in which the matches of walks that shared the trie are merged
    /// (`CityIndex.typoMatches`): two matches of one query equal in all of these are the same
    /// match (its node, or the same entries outside a node), so the merge is one order.
    var mergeOrder: (Int, Int, Int, Int, Int) {
        (match.entries.lowerBound, match.entries.upperBound, edits, isOutermost ? 0 : 1, match.node?.offset ?? Int.min)
    }
}

/// A depth-first walk of a blind trie (FORMAT.md §6) driven by a Levenshtein automaton
/// (`EditDistanceRows`), as Lucene's and fst's fuzzy queries walk theirs: a subtree is entered
/// only while some continuation of its path can still come within the budget, and once its
/// path is within the budget the whole subtree matches (a prefix search), so the walk goes on
/// below it only where fewer edits are possible. No first letter is assumed right.
///
/// The trie stores only the first byte of each edge (a blind trie); the walk reads the rest of
/// an edge from the key of the child's first entry, which every key below the child shares
/// (`readKey(of:atLeast:)`, into a `NameKeyBuffer`). Edges of one byte, most of the upper
/// levels, need no key.
///
/// Several walks of one query can share the work (`claims`): each walks the subtrees of the
/// root's children it claims, and together they find what one walk finds (the matches of one
/// first byte lie in one child's subtree).
///
/// Work: O(*v* · *n*) automaton steps for *v* nodes visited and a query key of *n* scalars,
/// plus one key read per visited node with a longer edge, per visited leaf and per entry of a
/// visited bucket. *v* grows with the budget (about the alphabet's size per edit and query
/// position), not with the number of cities. Never traps on a damaged file: node reads are
/// checked, the depth is bounded by the automaton (it dies `n + budget + 1` scalars down) and
/// a key that does not continue the walked path ends that branch.
struct TypoTolerantTrieWalk {
    private let trie: TrieSection
    private let contents: IndexContents
    private let matching: MatchMode
    /// The query's UTF-8, and where each of its scalars starts in it (and its end).
    private let queryUTF8: [UInt8]
    private let scalarOffsets: [Int]
    private let rows: EditDistanceRows
    /// The bytes walked from the root: the path of the node being visited, then its edge.
    private var path: [UInt8] = []
    /// The key last read: `nameKey.bytes[keyStart ..< nameKey.count]` (in `WNOD`, the suffix
    /// key of a name's word key that starts at one of its words).
    private let nameKey: NameKeyBuffer
    private var keyStart = 0
    /// The entry whose key is loaded (-1: none).
    private var keyEntry = -1
    private(set) var matches: [TypoMatch] = []
    /// The nodes `visit` opened (`SearchMeter`), the root only by the walk that records it.
    private(set) var visitedNodeCount = 0
    /// Exact continuations queued to be walked together (`walkContinuations()`), the walked
    /// paths they continue, back to back, and the path their key reads compare with.
    private var continuations: [PendingContinuation] = []
    private var continuationPaths: [UInt8] = []
    private var continuationPath: [UInt8] = []
    /// The entries whose keys a batch of continuations reads (`walkContinuations()`).
    private var prefetchedEntries: [Int] = []

    private var budget: Int { rows.budget }
    /// Where the root's children are claimed when several walks share the trie (`nil`: this
    /// walk takes them all), and whether this one records a match of the empty path.
    private let claims: RootChildClaims?
    private let recordsRoot: Bool

    /// A walk of `contents`' name trie (`.prefix`) or word trie (`.words`): of all of it, or of
    /// the subtrees of the root's children it claims from `claims`, shared with other walks of
    /// the same query and budget, one of which (`recordsRoot`) records a match of the empty
    /// path (a query no longer than the budget: every entry).
    init(contents: IndexContents, matching: MatchMode, query: [UInt32], budget: Int,
         claims: RootChildClaims? = nil, recordsRoot: Bool = true) {
        self.contents = contents
        self.claims = claims
        self.recordsRoot = recordsRoot
        self.matching = matching
        trie = contents.trie(for: matching)
        nameKey = NameKeyBuffer(contents: contents)
        rows = EditDistanceRows(query: query, budget: budget)
        var utf8: [UInt8] = []
        var offsets: [Int] = []
        for value in query {
            offsets.append(utf8.count)
            if let scalar = Unicode.Scalar(value) { utf8.append(contentsOf: String(scalar).utf8) } else { utf8.append(0xFF) }
        }
        offsets.append(utf8.count)
        queryUTF8 = utf8
        scalarOffsets = offsets
        path.reserveCapacity(64)
        // Most walks stay within these (a batch of continuations, 8 at most per queueing).
        matches.reserveCapacity(256)
        continuations.reserveCapacity(continuationBatchSize + 8)
        continuationPaths.reserveCapacity(32 * (continuationBatchSize + 8))
        continuationPath.reserveCapacity(64)
        prefetchedEntries.reserveCapacity(2 * (continuationBatchSize + 8))
    }

    /// Walks the whole trie; `matches` then holds what it found.
    mutating func run() throws(IndexFileError) {
        let bound = budget + 1
        // An empty path is within the budget when the query is at most `budget` scalars long.
        let best = rows.distance < bound ? rows.distance : nil
        try visit(trie.root, bound: bound, best: best)
        try walkContinuations()
    }

    /// Appends `byte` to the walked text; when it completes a scalar whose distance to the
    /// query is below `bound` and `best` (the fewest edits seen on this edge), records it.
    private mutating func feed(_ byte: UInt8, bound: Int, best: inout Int?) {
        path.append(byte)
        guard rows.append(byte) else { return }
        if rows.distance < (best ?? bound) { best = rows.distance }
    }

    /// Cuts the walked path back to its first `count` bytes (a few at a time: byte by byte is
    /// cheaper than `removeLast(_:)`'s general range replacement).
    @inline(__always)
    private mutating func truncatePath(to count: Int) {
        while path.count > count { path.removeLast() }
    }

    /// Whether nothing below the current text can have fewer edits than `bound` or `best`.
    private func cannotImprove(bound: Int, best: Int?) -> Bool { rows.smallestCell >= (best ?? bound) }

    /// How many bytes the loaded key has.
    private var keyCount: Int { nameKey.count - keyStart }

    /// Whether the loaded key starts with the walked path.
    private func keyContinuesPath() -> Bool {
        path.withUnsafeBufferPointer { nameKey.matches($0, at: keyStart) }
    }

    /// Feeds the loaded key's bytes `path.count ..< end` until the end or until nothing
    /// further can improve.
    private mutating func feedKey(upTo end: Int, bound: Int, best: inout Int?) {
        while path.count < end {
            if rows.isAtScalarBoundary && cannotImprove(bound: bound, best: best) { return }
            feed(nameKey.bytes[keyStart + path.count], bound: bound, best: &best)
        }
    }

    /// Reads the key of `entry` and checks that it continues the walked path to `end` bytes
    /// (a leaf's `end` is its key's length, `nil`).
    private mutating func readKey(of entry: Int, atLeast end: Int?) -> Bool {
        // A node's first entry is often its parent's: its key is still in the buffer.
        if entry == keyEntry, keyCount >= (end ?? path.count), keyContinuesPath() { return true }
        keyEntry = entry
        guard writeKey(of: entry), keyCount >= (end ?? path.count), keyContinuesPath() else {
            keyEntry = -1
            return false
        }
        return true
    }

    /// Where a bucket entry's key sorts against the keys that start with the walked path.
    private enum KeyOrder { case precedes, continues, follows }

    /// The orders of a bucket's entries already read in one search of it, so that each key is
    /// read at most once (a binary search's probes are also where the run it finds ends):
    /// bit `entry − first` of each mask, for the bucket's at most 64 entries
    /// (`FormatConstants.maximumBucketCapacity`).
    private struct BucketOrders {
        let first: Int
        var known: UInt64 = 0
        var continuing: UInt64 = 0
        var preceding: UInt64 = 0
    }

    /// Where the key of bucket entry `entry` (the one that starts with the first
    /// `knownPathLength` bytes of the path: the bucket's path) sorts against the keys that
    /// start with the whole path: before them, among them or after them. A key that cannot be
    /// read counts as before (a damaged file). Read once per entry and `orders`.
    private mutating func keyOrder(of entry: Int, knownPathLength: Int, orders: inout BucketOrders) -> KeyOrder {
        let bit = UInt64(1) &<< UInt64(entry - orders.first)
        if orders.known & bit != 0 {
            return orders.continuing & bit != 0 ? .continues : orders.preceding & bit != 0 ? .precedes : .follows
        }
        orders.known |= bit
        keyEntry = -1
        guard writeKey(of: entry, knownPathLength: knownPathLength) else {
            orders.preceding |= bit
            return .precedes
        }
        for index in 0 ..< path.count {
            let byte = index < keyCount ? nameKey.bytes[keyStart + index] : nil
            guard let byte, byte == path[index] else {
                // A key that ends inside the path sorts before it.
                if byte.map({ $0 < path[index] }) ?? true {
                    orders.preceding |= bit
                    return .precedes
                }
                return .follows
            }
        }
        keyEntry = entry
        orders.continuing |= bit
        return .continues
    }

    /// Loads the key of `entry`: the folded primary name of the city of rank `entry`
    /// (`NODE`), or the suffix key of posting `entry`'s name that starts with the first
    /// `knownPathLength` bytes of the path walked (default: all of it; `WNOD`, FORMAT.md §6:
    /// any such key continues the path the same way). False when there is none.
    private mutating func writeKey(of entry: Int, knownPathLength: Int? = nil) -> Bool {
        switch matching {
        case .prefix:
            nameKey.loadFoldedName(ofRank: entry)
            keyStart = 0
            return true
        case .words:
            guard let (rank, slot, _) = contents.postings.posting(at: entry) else { return false }
            nameKey.loadWordKey(ofRank: rank, slot: slot)
            let known = knownPathLength ?? path.count
            guard let start = path.withUnsafeBufferPointer({ path -> Int? in
                let prefix = UnsafeBufferPointer(rebasing: path[0 ..< known])
                for word in 0 ..< nameKey.wordCount where nameKey.matches(prefix, at: nameKey.wordStarts[word]) {
                    return nameKey.wordStarts[word]
                }
                return nil
            }) else { return false }
            keyStart = start
            return true
        }
    }

    /// Visits `node`, whose edge's first byte has been fed (the root: nothing), looking for
    /// matches of fewer than `bound` edits (`budget + 1` when no match contains the node).
    /// `labelEdits`: the edits of the walked path when it is already below `bound`.
    private mutating func visit(_ node: TrieNode, bound: Int, best labelEdits: Int?) throws(IndexFileError) {
        // Every walk of a parallel search opens the root: it counts once, so that the total
        // is one walk's whatever the threads did.
        if recordsRoot || !path.isEmpty { visitedNodeCount += 1 }
        guard node.entryCount > 0 else { return }
        var bound = bound
        if let labelEdits {
            // Every key below the node starts with the walked path.
            if recordsRoot || !path.isEmpty {
                record(TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount), best: labelEdits, bound: bound)
            }
            bound = labelEdits
        }
        if rows.isAtScalarBoundary {
            let smallest = rows.smallestCell
            if smallest >= bound { return }
            if rows.hasNoEditLeft(below: bound) {
                // No edit left: only exact continuations of the query can match.
                try queueExactContinuations(below: node, edits: smallest, bound: bound)
                return
            }
        }
        if node.isBucket {
            contents.prefetchWordKeys(of: node.entries)
            let mark = rows.mark
            let pathCount = path.count
            for entry in node.entries {
                var entryBest: Int?
                if readKey(of: entry, atLeast: nil) { feedKey(upTo: keyCount, bound: bound, best: &entryBest) }
                if let entryBest {
                    record(TrieMatch(node: nil, entries: entry ..< entry + 1, cityCount: 1), best: entryBest, bound: bound)
                }
                rows.reset(to: mark)
                truncatePath(to: pathCount)
            }
            return
        }
        var best: Int?
        if node.isLeaf {
            guard readKey(of: node.firstEntry, atLeast: nil) else { return }
            feedKey(upTo: keyCount, bound: bound, best: &best)
        } else if node.pathLength > path.count {
            guard readKey(of: node.firstEntry, atLeast: node.pathLength) else { return }
            feedKey(upTo: node.pathLength, bound: bound, best: &best)
        }
        if let best { record(TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount), best: best, bound: bound) }
        let childBound = best ?? bound
        guard !node.isLeaf, path.count == node.pathLength, rows.smallestCell < childBound else { return }
        let mark = rows.mark
        let pathCount = path.count
        // At the root of a shared walk, the children this walk claims; else every child.
        let claims = pathCount == 0 ? self.claims : nil
        var nextIndex = 0
        while true {
            let index = claims?.claim() ?? nextIndex
            guard index < node.childCount else { break }
            nextIndex = index + 1
            let label = node.childLabel(at: index, in: trie.nodes)
            // Most labels, deep down, are letters the query does not have: skip them unread.
            if label < 0x80 && rows.asciiCannotStayBelow(childBound, byte: label) { continue }
            var childBest: Int?
            feed(label, bound: childBound, best: &childBest)
            if rows.smallestCellOfNextScalar < childBound {
                try visit(node.child(at: index, in: trie.nodes), bound: childBound, best: childBest)
            }
            rows.reset(to: mark)
            truncatePath(to: pathCount)
        }
    }

    /// Queues the exact continuations below `node`: the keys that continue the walked path
    /// with the rest of the query from a position whose cell is `edits` (the budget left is
    /// 0), one per such position. A position whose rest starts with another's is left out (its
    /// keys are among the other's). They are walked by `walkContinuations()` when
    /// `continuationBatchSize` are queued, or at the end of the walk.
    private mutating func queueExactContinuations(below node: TrieNode, edits: Int, bound: Int) throws(IndexFileError) {
        let (first, positions) = rows.positions(withCell: edits)
        let pathStart = continuationPaths.count
        continuationPaths.append(contentsOf: path)
        // From the last position back: a rest that starts with a queued one is left out.
        var queued: UInt8 = 0
        var left = positions
        while left != 0 {
            let bit = 7 - left.leadingZeroBitCount
            left &= ~(1 << UInt8(bit))
            let restStart = scalarOffsets[first + bit]
            var covered = false
            var earlier = queued
            while earlier != 0 && !covered {
                let other = earlier.trailingZeroBitCount
                earlier &= earlier - 1
                covered = queryRest(from: restStart, startsWithRestFrom: scalarOffsets[first + other])
            }
            if covered { continue }
            queued |= 1 << UInt8(bit)
            continuations.append(PendingContinuation(node: node, path: pathStart ..< continuationPaths.count,
                                                     restStart: restStart, edits: edits, bound: bound))
        }
        if continuations.count >= continuationBatchSize { try walkContinuations() }
    }

    /// Whether the query's UTF-8 from `start` begins with its UTF-8 from `other` (`other` >
    /// `start`: a later position's rest). O(*n*), nothing retained or allocated.
    private func queryRest(from start: Int, startsWithRestFrom other: Int) -> Bool {
        queryUTF8.withUnsafeBufferPointer { query in
            let length = query.count - other
            guard query.count - start >= length else { return false }
            for offset in 0 ..< length where query[start + offset] != query[other + offset] { return false }
            return true
        }
    }

    /// How many exact continuations are walked together. In `WNOD` most end in key reads, each
    /// a chain of loads from several sections (posting, alternate-name start, text), which
    /// overlap when a batch prefetches them together. In
    /// `NODE` few read a key and the deferral only costs: walked at once.
    private var continuationBatchSize: Int { matching == .words ? 64 : 1 }

    /// Walks the queued exact continuations and records what they match: a blind exact walk of
    /// each rest (FORMAT.md §6.1), branching on query bytes at path ends, all advanced a node
    /// per round with the next round's nodes prefetched; then, for those that skipped bytes,
    /// a key read at the end (for a bucket, a binary search of its sorted keys and the run
    /// that continues so), their keys prefetched first. Most end at a branch without a read.
    private mutating func walkContinuations() throws(IndexFileError) {
        guard !continuations.isEmpty else { return }
        let (nodes, rest) = (trie.nodes, queryUTF8)
        // Advanced in place: a continuation (a `TrieNode` inside) is about 100 bytes.
        try continuations.withUnsafeMutableBufferPointer { (pending) throws(IndexFileError) in
            var walking = true
            while walking {
                walking = false
                for index in pending.indices where pending[index].isWalking {
                    try pending[index].advance(rest: rest, in: nodes)
                    walking = walking || pending[index].isWalking
                }
            }
        }
        if matching == .words {
            // One prefetch of every key the batch reads, so that their chains of misses overlap.
            prefetchedEntries.removeAll(keepingCapacity: true)
            for continuation in continuations where continuation.needsKeyRead {
                let reached = continuation.reached
                if reached.isBucket { prefetchedEntries.append(contentsOf: reached.entries) } else { prefetchedEntries.append(reached.firstEntry) }
            }
            contents.prefetchWordKeys(of: prefetchedEntries)
        }
        // The key reads compare with each continuation's whole path: the walk's own path waits aside.
        swap(&path, &continuationPath)
        defer {
            swap(&path, &continuationPath)
            continuations.removeAll(keepingCapacity: true)
            continuationPaths.removeAll(keepingCapacity: true)
        }
        for continuation in continuations where continuation.hasEntries {
            let reached = continuation.reached
            let (edits, bound) = (continuation.edits, continuation.bound)
            guard continuation.needsKeyRead else {
                record(TrieMatch(node: reached, entries: reached.entries, cityCount: reached.cityCount), best: edits, bound: bound)
                continue
            }
            path.removeAll(keepingCapacity: true)
            continuationPaths.withUnsafeBufferPointer { paths in
                path.append(contentsOf: UnsafeBufferPointer(rebasing: paths[continuation.path]))
            }
            queryUTF8.withUnsafeBufferPointer { query in
                path.append(contentsOf: UnsafeBufferPointer(rebasing: query[continuation.restStart...]))
            }
            if !reached.isBucket {
                if readKey(of: reached.firstEntry, atLeast: path.count) {
                    record(TrieMatch(node: reached, entries: reached.entries, cityCount: reached.cityCount), best: edits, bound: bound)
                }
                continue
            }
            // A bucket's keys are sorted: the entries that continue so are contiguous. The first
            // is found by binary search (a key read per step), then the run is extended, each
            // key read once whichever step needs it first (`BucketOrders`). Each
            // entry's key is found by the bucket's own prefix: its entries are of distinct
            // cities, so exactly one word of each name starts with it, where a shorter prefix
            // (the path the continuation started from) can start an earlier word of the name
            // and give another key, which would misdirect the search.
            var orders = BucketOrders(first: reached.entries.lowerBound)
            let prefixLength = continuation.reachedPrefixLength
            var low = reached.entries.lowerBound, high = reached.entries.upperBound
            while low < high {
                let middle = (low + high) / 2
                if keyOrder(of: middle, knownPathLength: prefixLength, orders: &orders) == .precedes { low = middle + 1 } else { high = middle }
            }
            guard low < reached.entries.upperBound,
                  keyOrder(of: low, knownPathLength: prefixLength, orders: &orders) == .continues else { continue }
            let first = low
            var end = first + 1
            while end < reached.entries.upperBound && keyOrder(of: end, knownPathLength: prefixLength, orders: &orders) == .continues {
                end += 1
            }
            let entries = first ..< end
            record(TrieMatch(node: entries == reached.entries ? reached : nil, entries: entries, cityCount: entries.count),
                   best: edits, bound: bound)
        }
    }

    private mutating func record(_ match: TrieMatch, best: Int, bound: Int) {
        matches.append(TypoMatch(match: match, edits: best, isOutermost: bound > budget))
    }
}
