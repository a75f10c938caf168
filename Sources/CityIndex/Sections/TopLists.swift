// TopLists.swift: the optional NTOP and WTOP sections, precomputed top cities of the widest
// trie nodes (FORMAT.md §7.9).

/// `NTOP` or `WTOP`: for each listed node of `NODE` or `WNOD` (the widest, where a best-first
/// search opens the most nodes), its first `listLength` cities in population order, one
/// (rank, slot) each, as the search would return them.
///
/// `TopSection --> listLength:u32, nodeCount:u32, nodeOffsets:u32^nodeCount (increasing),
/// lists: (rank:u32, slotField:u32)^(nodeCount × listLength)`, `slotField = slot << 1 |
/// demoted` (as in `WPST`); a list shorter than `listLength` (a node with fewer cities) ends
/// with `rank = 0xFFFFFFFF`.
///
/// Invariant (checked by `init(validating:kind:cityCount:)`): the section holds exactly the
/// header, the offsets and the lists, so every read is in bounds. The values are not trusted:
/// a rank outside the city range ends the list; `verify()` recomputes every list.
struct TopLists {
    private let offsets: ByteView
    private let lists: ByteView
    let listLength: Int
    let nodeCount: Int
    private let cityCount: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, kind: SectionKind, cityCount: Int) throws(IndexFileError) {
        let listLength = Int(section.uint32(at: 0) ?? 0)
        let nodeCount = Int(section.uint32(at: 4) ?? 0)
        let header = FormatConstants.topListsHeaderByteCount
        // (Bounded first, so that the size below cannot overflow: 2³² nodes × 2¹⁶ × 8 < 2⁶⁴.)
        let expected = UInt64(header) + UInt64(nodeCount) * 4 + UInt64(nodeCount) * UInt64(min(listLength, 1 << 16)) * 8
        guard section.count >= header, listLength <= 1 << 16 else {
            throw .sectionSizeMismatch(section: kind, byteCount: UInt64(section.count), expectedByteCount: expected)
        }
        try section.requireByteCount(expected, of: kind)
        offsets = section.slice(uncheckedOffset: header, length: nodeCount * 4)
        lists = section.slice(uncheckedOffset: header + nodeCount * 4, length: nodeCount * listLength * 8)
        self.listLength = listLength
        self.nodeCount = nodeCount
        self.cityCount = cityCount
    }

    /// The offsets of the listed nodes. O(*nodeCount*).
    var listedOffsets: Set<Int> { Set((0 ..< nodeCount).map(nodeOffset(at:))) }

    /// The section offset of listed node `index` (in `0 ..< nodeCount`).
    func nodeOffset(at index: Int) -> Int { Int(offsets.uint32(uncheckedAt: index * 4)) }

    /// The first `limit` (at most `listLength`) entries of the list of the node at `nodeOffset`,
    /// or `nil` when the node is not listed or `limit` exceeds the lists.
    /// - Complexity: O(log *nodeCount* + *limit*).
    func top(_ limit: Int, ofNodeAt nodeOffset: Int) -> [SearchCandidates.Entry]? {
        guard limit <= listLength else { return nil }
        var low = 0, high = nodeCount
        while low < high {
            let middle = (low + high) / 2
            let offset = self.nodeOffset(at: middle)
            if offset < nodeOffset { low = middle + 1 } else if offset > nodeOffset { high = middle } else {
                return entries(ofList: middle, limit: limit)
            }
        }
        return nil
    }

    /// The entries of list `index`, at most `limit`. O(*limit*).
    func entries(ofList index: Int, limit: Int) -> [SearchCandidates.Entry] {
        var entries: [SearchCandidates.Entry] = []
        entries.reserveCapacity(limit)
        for position in 0 ..< min(limit, listLength) {
            let base = (index * listLength + position) * 8
            let rank = lists.uint32(uncheckedAt: base)
            guard Int(rank) < cityCount else { break }
            let field = lists.uint32(uncheckedAt: base + 4)
            entries.append(SearchCandidates.Entry(rank: rank, slot: UInt16(clamping: field >> 1), isDemoted: field & 1 == 1))
        }
        return entries
    }
}

extension CityIndex {
    /// For `build-index`: the first `length` cities in `order` of every node of the `NODE`
    /// (`kind == .nodes`) or `WNOD` trie with at least `minimumEntryCount` entries (buckets
    /// aside), by increasing node offset, computed by the best-first search (population order)
    /// or by collecting the node's postings (alphabetical order, `WNOD` only).
    /// - Complexity: O(listed nodes × the search's work for `length`).
    package func topLists(of kind: SectionKind, order: ResultOrder = .population, length: Int, minimumEntryCount: Int) throws(IndexFileError)
        -> [(nodeOffset: Int, entries: [(rank: UInt32, slot: UInt16, isDemoted: Bool)])] {
        let trie = kind == .nodes ? contents.trie : contents.wordTrie
        var lists: [(nodeOffset: Int, entries: [(rank: UInt32, slot: UInt16, isDemoted: Bool)])] = []
        var pending = [trie.root]
        while let node = pending.popLast() {
            guard node.entryCount >= max(minimumEntryCount, 1), !node.isBucket else { continue }
            let match = TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount)
            let entries = order == .population ? try contents.topEntries(length, of: match, in: kind)
                : WordMatchCollector.firstEntries(length, of: match, contents: contents)
            lists.append((node.offset, entries.map { ($0.rank, $0.slot, $0.isDemoted) }))
            for index in 0 ..< node.childCount { pending.append(try node.child(at: index, in: trie.nodes)) }
        }
        return lists.sorted { $0.nodeOffset < $1.nodeOffset }
    }
}

extension IndexContents {
    /// The first `k` cities of `match` in population order, one entry each: from the trie's
    /// top lists when the match is a listed node, else by the best-first search (FORMAT.md §6.3).
    func topEntries(_ k: Int, of match: TrieMatch, in kind: SectionKind, useLists: Bool = false) throws(IndexFileError) -> [SearchCandidates.Entry] {
        let lists = kind == .nodes ? nodeTopLists : wordTopLists
        if useLists, let node = match.node, let listed = lists?.top(k, ofNodeAt: node.offset) { return listed }
        if kind == .nodes {
            return try PopulationOrderSearch.top(k, of: match, in: trie, contents: self) { self.rank(ofNodeEntry: $0).map { ($0, 0, false) } }
        }
        return try PopulationOrderSearch.top(k, of: match, in: wordTrie, contents: self) { self.postings.posting(at: $0) }
    }
}
