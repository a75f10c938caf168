// RankedSearch.swift: the top k entries below a trie node in population order.

/// Best-first search over a trie whose nodes know their best entry (FORMAT.md §6.2), as
/// completion suggesters do: a heap holds subtrees (keyed by their best entry) and runs of
/// a key's own entries (sorted in population order, keyed by their next entry). Popping a
/// subtree opens it; popping a run emits its entry unless its city was emitted already: the
/// first entry of a city to pop is its best (WORDS.md §3: the primary name when it matches,
/// else its lowest matching alternate slot whose match is not demoted, else its lowest).
///
/// Order: `PopulationOrderKey`. Work grows with `k`, the trie's depth and fan-out below the node
/// and the entries per city, not with the number of entries below the node.
enum RankedSearch {
    /// Where a search starts: a match, the edits its entries are away from the query, and
    /// which of the query's keys it matched (reported with its entries).
    struct Start {
        var match: TrieMatch
        var edits: Int
        var variant: Int
    }

    /// A heap element, kept small (the heap moves them): subtrees live in a side array.
    private struct Item {
        /// The place in population order of the item's next entry.
        var key: PopulationOrderKey
        /// A subtree (an index into the search's nodes), or -1 for a run of entries
        /// `position ..< runEnd`.
        var node: Int32
        /// The start the item comes from (an index into `starts`), whose edits it has.
        var start: Int32
        var position: Int
        var runEnd: Int

        /// Whether this item pops before `other`: by key, then the earlier start (the
        /// query's keys in order: the key as typed before its abbreviation variants).
        func precedes(_ other: Item) -> Bool {
            key < other.key || (key == other.key && start < other.start)
        }
    }

    /// The first `k` cities among a search's matches, one entry each.
    /// - Parameters:
    ///   - match: a node's entries, or part of a bucket's.
    ///   - trie: the trie `match` is in; its buckets (several keys' entries, FORMAT.md §6) are
    ///     not in population order, so their entries enter the heap one by one.
    ///   - contents: the index, for the populations that order the entries.
    ///   - entry: the city rank, name slot and demotion of an entry (`nil`: damaged, skipped).
    static func top(_ k: Int, of match: TrieMatch, in trie: TrieSection, contents: IndexContents,
                    entry: (Int) -> (rank: Int, slot: Int, isDemoted: Bool)?) throws(IndexFileError) -> [CityMatches.Entry] {
        try top(k, of: [Start(match: match, edits: 0, variant: 0)], in: trie, contents: contents, entry: entry)
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
                    entry: (Int) -> (rank: Int, slot: Int, isDemoted: Bool)?) throws(IndexFileError) -> [CityMatches.Entry] {
        var results: [CityMatches.Entry] = []
        guard k > 0 else { return results }
        let section = trie.nodes
        // Reserved once: the starts, then a few children per result.
        let expected = starts.count + 4 * min(k, 256) + 16
        var heap: [Item] = []
        heap.reserveCapacity(expected)
        var nodes: [TrieNode] = []
        nodes.reserveCapacity(expected)
        var children: [TrieNode] = []
        children.reserveCapacity(64)
        var start = 0
        func push(node: TrieNode?, position: Int, runEnd: Int) {
            guard let (rank, slot, isDemoted) = entry(position) else { return }
            let key = contents.populationOrderKey(rank: rank, slot: slot, isDemoted: isDemoted, edits: starts[start].edits)
            var nodeIndex: Int32 = -1
            if let node {
                nodeIndex = Int32(truncatingIfNeeded: nodes.count)
                nodes.append(node)
            }
            insert(Item(key: key, node: nodeIndex, start: Int32(truncatingIfNeeded: start), position: position, runEnd: runEnd))
        }
        func insert(_ item: Item) {
            heap.append(item)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
        func pop() -> Item? {
            guard let last = heap.popLast() else { return nil }
            guard !heap.isEmpty else { return last }
            let top = heap[0]
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var first = parent
                if left < heap.count && heap[left].precedes(heap[first]) { first = left }
                if right < heap.count && heap[right].precedes(heap[first]) { first = right }
                if first == parent { break }
                heap.swapAt(parent, first)
                parent = first
            }
            return top
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
                    insert(Item(key: key, node: -1, start: Int32(truncatingIfNeeded: start), position: -1, runEnd: -1))
                }
            } else if let node = match.node {
                push(subtree: node)
            } else {
                for position in match.entries { push(node: nil, position: position, runEnd: position + 1) }
            }
        }
        // The cities emitted: `results` itself while it is short (a scan of at most
        // `linearSearchLimit` ranks costs less than hashing), else a set beside it.
        let linearSearchLimit = 32
        var emitted = Set<Int>()
        func emit(_ rank: Int) -> Bool {
            if k <= linearSearchLimit { return !results.contains { Int($0.rank) == rank } }
            return emitted.insert(rank).inserted
        }
        results.reserveCapacity(min(k, 256))
        while results.count < k, let item = pop() {
            start = Int(item.start)
            let node = item.node >= 0 ? nodes[Int(item.node)] : nil
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
                if emit(item.key.rank) {
                    results.append(CityMatches.Entry(rank: UInt32(item.key.rank), slot: UInt16(clamping: item.key.slot),
                                                     edits: UInt8(clamping: item.key.edits),
                                                     variant: UInt8(clamping: starts[Int(item.start)].variant),
                                                     isDemoted: item.key.isDemoted))
                }
                if item.position >= 0 && item.position + 1 < item.runEnd { push(node: nil, position: item.position + 1, runEnd: item.runEnd) }
            }
        }
        return results
    }
}
