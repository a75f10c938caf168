// IndexContents+TopListInvariants.swift: NTOP and WTOP (FORMAT.md §7.9, I11).

extension IndexContents {
    /// I11: each list of the `NTOP` (`kind == .nodes`), `WTOP` or (`order == .alphabetical`)
    /// `WALP` section names a node of its trie, in increasing offset order, and holds exactly
    /// what the search returns for that node.
    /// - Parameter listedNodes: the listed nodes the trie walk reached, by offset.
    /// - Complexity: O(listed nodes × the search's work for a list).
    func verifyTopLists(of kind: SectionKind, order: ResultOrder = .population, listedNodes: [Int: TrieNode]) throws(IndexFileError) {
        guard let lists = kind == .nodes ? nodeTopLists : order == .population ? wordTopLists : wordAlphabeticalLists else { return }
        for index in 0 ..< lists.nodeCount {
            let offset = lists.nodeOffset(at: index)
            guard index == 0 || lists.nodeOffset(at: index - 1) < offset, let node = listedNodes[offset] else {
                throw .invariantViolated(.topListWrong(nodeOffset: offset))
            }
            let match = TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount)
            let expected = order == .population ? try topEntries(lists.listLength, of: match, in: kind)
                : Array(WordMatchCollector.entries(of: match, contents: self).prefix(lists.listLength))
            let stored = lists.entries(ofList: index, limit: lists.listLength)
            guard stored.map(\.rank) == expected.map(\.rank), stored.map(\.slot) == expected.map(\.slot),
                  stored.map(\.isDemoted) == expected.map(\.isDemoted) else {
                throw .invariantViolated(.topListWrong(nodeOffset: offset))
            }
        }
    }
}
