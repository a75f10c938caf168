// PopulationOrderSearch.swift: the top k entries below a trie node in population order.

/// Best-first search over a trie whose nodes know their best entry (FORMAT.md §6.2), as
/// completion suggesters do: a heap holds subtrees (keyed by their best entry) and runs of
/// a key's own entries (sorted in population order, keyed by their next entry). Popping a
/// subtree opens it; popping a run emits its entry unless its city was emitted already: the
/// first entry of a city to pop is its best (WORDS.md §3: the primary name when it matches,
/// else its lowest matching alternate slot whose match is not demoted, else its lowest).
///
/// Order: `PopulationOrderKey`. Work grows with `k`, the trie's depth and fan-out below the node
/// and the entries per city, not with the number of entries below the node. Starts that hold
/// few entries in all (`sortedEntryLimit`) are not searched but read and sorted whole, which
/// gives the same answer with fewer waits on memory.
enum PopulationOrderSearch {
    /// Where a search starts: a match, the edits its entries are away from the query, and
    /// which of the query's keys it matched (reported with its entries).
    struct Start {
        var match: TrieMatch
        var edits: Int
        var variant: Int
    }

    /// The first `k` cities among a search's matches, one entry each.
    /// - Parameters:
    ///   - match: a node's entries, or part of a bucket's.
    ///   - trie: the trie `match` is in; its buckets (several keys' entries, FORMAT.md §6) are
    ///     not in population order, so their entries enter the heap one by one.
    ///   - contents: the index, for the populations that order the entries.
    ///   - entry: the city rank, name slot and demotion of an entry (`nil`: damaged, skipped).
    static func top(_ k: Int, of match: TrieMatch, in trie: TrieSection, contents: IndexContents,
                    entry: (Int) -> (rank: Int, slot: Int, isDemoted: Bool)?) throws(IndexFileError) -> [SearchCandidates.Entry] {
        try top(k, of: [Start(match: match, edits: 0, variant: 0)], in: trie, contents: contents, entry: entry)
    }

    /// Entry totals up to which `top` reads and sorts every entry of its starts instead of
    /// searching best first: the same answer (population order, then the earlier start, the
    /// first entry of each city), from reads that are prefetched together, without opening a
    /// node. A one-edit query's matches hold about 120 entries at the median on `Data/`; the
    /// best-first search parses children and reads entries one after another, each read
    /// waiting on the one before.
    static let sortedEntryLimit = 256

    /// `top` by reading every entry of `starts` (`entryCount` in all, at most
    /// `sortedEntryLimit`), sorting them in population order and keeping each city's first.
    /// - Complexity: O(*e* log *e*) for *e* entries.
    private static func topBySorting(_ k: Int, of starts: [Start], entryCount: Int, in trie: TrieSection,
                                     contents: IndexContents,
                                     entry: (Int) -> (rank: Int, slot: Int, isDemoted: Bool)?) -> [SearchCandidates.Entry] {
        for item in starts {
            for position in item.match.entries { contents.prefetchEntry(position, in: trie) }
        }
        var read: [(rank: Int, slot: Int, isDemoted: Bool, start: Int)] = []
        read.reserveCapacity(entryCount)
        for (start, item) in starts.enumerated() {
            for position in item.match.entries {
                guard let (rank, slot, isDemoted) = entry(position) else { continue }
                contents.populations?.prefetch(rank: rank)
                read.append((rank, slot, isDemoted, start))
            }
        }
        var items = read.map { read in
            Frontier.Item(key: contents.populationOrderKey(rank: read.rank, slot: read.slot, isDemoted: read.isDemoted,
                                                           edits: starts[read.start].edits),
                          start: read.start, node: -1, position: -1, runEnd: -1)
        }
        items.sort { $0.precedes($1) }
        var reported = ReportedCities(k)
        for item in items where !reported.isFull { reported.report(item, variant: starts[item.start].variant) }
        return reported.entries
    }

    /// The first `k` cities among the entries of several matches, each `edits` away from the
    /// query (a typo-tolerant search's, WORDS.md §6): every match starts the search, and
    /// population order weighs its entries with its edits. A city in several matches is
    /// reported once, from the first to pop (its best).
    ///
    /// A start that is a node with a precomputed list (`lists`, FORMAT.md §7.9) enters as its
    /// list when `k` is at most the list's length: its cities beyond the list cannot make the
    /// first `k` (each listed city comes before them, from this start or a better one).
    static func top(_ k: Int, of starts: [Start], in trie: TrieSection, contents: IndexContents,
                    lists: TopLists? = nil,
                    entry: (Int) -> (rank: Int, slot: Int, isDemoted: Bool)?) throws(IndexFileError) -> [SearchCandidates.Entry] {
        guard k > 0 else { return [] }
        let entryCount = starts.reduce(0) { $0 + $1.match.entries.count }
        if entryCount <= sortedEntryLimit {
            return topBySorting(k, of: starts, entryCount: entryCount, in: trie, contents: contents, entry: entry)
        }
        let section = trie.nodes
        // Reserved once: the starts, then a few children per result.
        var frontier = Frontier(capacity: starts.count + 4 * min(k, 256) + 16)
        var children: [TrieNode] = []
        children.reserveCapacity(64)
        var start = 0
        func push(node: TrieNode?, position: Int, runEnd: Int) {
            guard let (rank, slot, isDemoted) = entry(position) else { return }
            let key = contents.populationOrderKey(rank: rank, slot: slot, isDemoted: isDemoted, edits: starts[start].edits)
            frontier.insert(key: key, node: node, start: start, position: position, runEnd: runEnd)
        }

        /// Pushes a subtree (a bucket too: keyed by its stored best entry, opened when popped).
        func push(subtree node: TrieNode) { push(node: node, position: node.bestEntry, runEnd: 0) }

        if starts.count > 1 {
            // Each push below reads an entry and its city's population, one cache miss after
            // another: load those of every start first (a subtree's best entry, a bucket part's
            // first 8), so that the misses overlap.
            func pushedEntries(_ item: Start) -> Range<Int> {
                guard let node = item.match.node, !item.match.entries.isEmpty else { return item.match.entries.prefix(8) }
                return node.bestEntry ..< node.bestEntry + 1
            }
            for item in starts {
                for position in pushedEntries(item) { contents.prefetchEntry(position, in: trie) }
            }
            for item in starts {
                for position in pushedEntries(item) {
                    if let (rank, _, _) = entry(position) { contents.populations?.prefetch(rank: rank) }
                }
            }
        }
        for (index, item) in starts.enumerated() where !item.match.entries.isEmpty {
            let (match, edits) = (item.match, item.edits)
            start = index
            if let node = match.node, let listed = lists?.top(k, ofNodeAt: node.offset) {
                // Resolved entries: position -1, the city and slot in the key.
                for city in listed {
                    let key = contents.populationOrderKey(rank: Int(city.rank), slot: Int(city.slot), isDemoted: city.isDemoted,
                                                          edits: edits)
                    frontier.insert(key: key, node: nil, start: start, position: -1, runEnd: -1)
                }
            } else if let node = match.node {
                push(subtree: node)
            } else {
                for position in match.entries { push(node: nil, position: position, runEnd: position + 1) }
            }
        }
        var reported = ReportedCities(k)
        while !reported.isFull, let item = frontier.pop() {
            start = item.start
            let node = frontier.node(of: item)
            if let node, node.isBucket {
                // Open a bucket: its entries are not in population order, so each is a run of one.
                for position in node.entries { push(node: nil, position: position, runEnd: position + 1) }
            } else if let node {
                // Open the subtree: its own entries come first, then the children's, in order.
                var ownEnd = node.entries.upperBound
                var previousEnd = ownEnd
                children.removeAll(keepingCapacity: true)
                for index in 0 ..< node.childCount { children.append(try node.child(at: index, in: section)) }
                for child in children.reversed() {
                    guard child.entries.upperBound <= previousEnd else {
                        throw .corruptNode(nodeOffset: child.byteOffset, reason: .entriesOutOfOrder)
                    }
                    previousEnd = child.firstEntry
                    ownEnd = child.firstEntry
                    if child.entryCount > 0 { push(subtree: child) }
                }
                if node.firstEntry < ownEnd { push(node: nil, position: node.firstEntry, runEnd: ownEnd) }
            } else {
                reported.report(item, variant: starts[item.start].variant)
                if item.position >= 0 && item.position + 1 < item.runEnd { push(node: nil, position: item.position + 1, runEnd: item.runEnd) }
            }
        }
        return reported.entries
    }
}

/// The first `k` cities a ranked search reports, one entry each, in the order they are given
/// (population order): an entry of a city reported already is skipped (the first entry of a
/// city to come is its best, WORDS.md §3). The cities reported are found by a scan of the
/// entries while `k` is small (cheaper than hashing), else in a set beside them.
private struct ReportedCities {
    /// Result counts up to which a scan of the entries finds the cities reported.
    private static let linearSearchLimit = 32

    private let k: Int
    private(set) var entries: [SearchCandidates.Entry] = []
    private var ranks = Set<Int>()

    init(_ k: Int) {
        self.k = k
        entries.reserveCapacity(min(k, 256))
    }

    /// Whether `k` cities are reported.
    var isFull: Bool { entries.count >= k }

    /// Reports `item`'s entry, found by the key `variant` of the query, unless its city was
    /// reported already. O(1) amortized (O(*k*) for a `k` up to `linearSearchLimit`).
    mutating func report(_ item: Frontier.Item, variant: Int) {
        let rank = item.rank
        let isNew = k <= Self.linearSearchLimit ? !entries.contains { Int($0.rank) == rank } : ranks.insert(rank).inserted
        guard isNew else { return }
        entries.append(SearchCandidates.Entry(rank: UInt32(rank), slot: UInt16(clamping: item.slot), edits: UInt8(clamping: item.edits),
                                         variant: UInt8(clamping: variant), isDemoted: item.isDemoted))
    }
}

/// The frontier of one best-first search of `PopulationOrderSearch`: a binary min-heap of items in
/// population order (then the earlier start) and the subtrees they stand for, in two arrays
/// it owns, so that the search's pushes and pops mutate stored properties.
///
/// Invariant: `heap` is a binary heap under `Item.precedes`; an item's `node` is -1 or an index
/// into `nodes`. O(log *n*) per push and pop for *n* items.
private struct Frontier {
    /// A heap element, kept small (the heap moves them; 40 bytes): subtrees live in a side
    /// array. Its place in population order is packed into three words compared in turn,
    /// which order items exactly as `PopulationOrderKey` and then the earlier start do:
    /// `order` = (weight descending, edits), `tieOrder` = (undivided weight descending, rank),
    /// `lastOrder` = (demoted, slot, start). Exact because weights are 32-bit, ranks and
    /// starts below 2³² and slots below 2¹⁶ (FORMAT.md §10).
    struct Item {
        private let order: UInt64
        private let tieOrder: UInt64
        private let lastOrder: UInt64
        /// A subtree (an index into the search's nodes), or -1 for a run of entries
        /// `position ..< runEnd`.
        let node: Int32
        let position: Int
        let runEnd: Int

        /// The item of the entry whose place in population order is `key`, from start `start`.
        init(key: PopulationOrderKey, start: Int, node: Int32, position: Int, runEnd: Int) {
            order = UInt64(~key.weight) << 32 | UInt64(UInt32(clamping: key.edits))
            tieOrder = UInt64(~key.undividedWeight) << 32 | UInt64(UInt32(truncatingIfNeeded: key.rank))
            lastOrder = (key.isDemoted ? 1 << 48 : 0) | UInt64(UInt16(clamping: key.slot)) << 32
                | UInt64(UInt32(truncatingIfNeeded: start))
            self.node = node
            self.position = position
            self.runEnd = runEnd
        }

        /// The start the item comes from (an index into `starts`), whose edits it has.
        var start: Int { Int(lastOrder & 0xFFFF_FFFF) }
        /// The next entry's city, name slot, edits and demotion.
        var rank: Int { Int(tieOrder & 0xFFFF_FFFF) }
        var slot: Int { Int(lastOrder >> 32 & 0xFFFF) }
        var edits: Int { Int(order & 0xFFFF_FFFF) }
        var isDemoted: Bool { lastOrder >> 48 != 0 }

        /// Whether this item pops before `other`: by population order, then the earlier start
        /// (the query's keys in order: the key as typed before its abbreviation variants).
        @inline(__always)
        func precedes(_ other: Item) -> Bool {
            if order != other.order { return order < other.order }
            if tieOrder != other.tieOrder { return tieOrder < other.tieOrder }
            return lastOrder < other.lastOrder
        }
    }

    private var heap: [Item] = []
    private var nodes: [TrieNode] = []

    init(capacity: Int) {
        heap.reserveCapacity(capacity)
        nodes.reserveCapacity(capacity)
    }

    /// The subtree `item` stands for, if any.
    func node(of item: Item) -> TrieNode? { item.node >= 0 ? nodes[Int(item.node)] : nil }

    /// Adds an item: the subtree `node` keyed by its best entry (`key`), or the run of entries
    /// `position ..< runEnd` keyed by its first (position -1: an entry already resolved).
    mutating func insert(key: PopulationOrderKey, node: TrieNode?, start: Int, position: Int, runEnd: Int) {
        var nodeIndex: Int32 = -1
        if let node {
            nodeIndex = Int32(truncatingIfNeeded: nodes.count)
            nodes.append(node)
        }
        heap.append(Item(key: key, start: start, node: nodeIndex, position: position, runEnd: runEnd))
        heap.withUnsafeMutableBufferPointer { heap in
            var child = heap.count - 1
            let item = heap[child]
            while child > 0 {
                let parent = (child - 1) / 2
                guard item.precedes(heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = item
        }
    }

    /// Removes and returns the first item, or `nil` when there is none.
    mutating func pop() -> Item? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        return heap.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            var parent = 0
            let count = heap.count
            while true {
                let left = 2 * parent + 1, right = left + 1
                guard left < count else { break }
                let first = right < count && heap[right].precedes(heap[left]) ? right : left
                guard heap[first].precedes(last) else { break }
                heap[parent] = heap[first]
                parent = first
            }
            heap[parent] = last
            return top
        }
    }
}
