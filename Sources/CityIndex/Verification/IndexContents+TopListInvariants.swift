// IndexContents+TopListInvariants.swift: NTOP and WTOP (FORMAT.md §7.9, I11).

extension IndexContents {
    /// I11: each list of the `NTOP` (`kind == .nodes`) or `WTOP` section names a node of its
    /// trie, in increasing offset order, and holds exactly what the best-first search returns
    /// for that node.
    /// - Parameter listedNodes: the listed nodes the trie walk reached, by offset.
    /// - Complexity: O(listed nodes × the search's work for a list).
    func verifyTopLists(of kind: SectionKind, listedNodes: [Int: TrieNode]) throws(IndexFileError) {
        guard let lists = kind == .nodes ? nodeTopLists : wordTopLists else { return }
        for index in 0 ..< lists.nodeCount {
            let offset = lists.nodeOffset(at: index)
            guard index == 0 || lists.nodeOffset(at: index - 1) < offset, let node = listedNodes[offset] else {
                throw .invariantViolated(.topListWrong(nodeOffset: offset))
            }
            let expected = try topEntries(lists.listLength, of: TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount),
                                          in: kind)
            let stored = lists.entries(ofList: index, limit: lists.listLength)
            guard stored.map(\.rank) == expected.map(\.rank), stored.map(\.slot) == expected.map(\.slot) else {
                throw .invariantViolated(.topListWrong(nodeOffset: offset))
            }
        }
    }
}
