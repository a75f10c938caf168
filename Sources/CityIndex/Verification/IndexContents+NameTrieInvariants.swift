// IndexContents+NameTrieInvariants.swift: NODE and PORD (FORMAT.md §6, §7.8, I3, I7).

extension IndexContents {
    /// The `NODE` trie: the cities a node ends for have exactly its path as folded name,
    /// ordered by country then id, listed by `PORD` in population order (I3, I7).
    /// - Returns: the nodes `NTOP` lists, by offset (for `verifyTopLists`).
    /// - Complexity: O(nodes + name bytes × log *f*).
    func verifyNameTrie() throws(IndexFileError) -> [Int: TrieNode] {
        let listed = nodeTopLists?.listedOffsets ?? []
        var listedNodes: [Int: TrieNode] = [:]
        if let nodeEntryRanks {
            // PORD's positions strictly increase (so its binary search finds every one).
            for index in 1 ..< max(1, nodeEntryRanks.movedEntryCount)
            where nodeEntryRanks.movedPosition(index) <= nodeEntryRanks.movedPosition(index - 1) {
                throw .invariantViolated(.populationOrderWrong(position: nodeEntryRanks.movedPosition(index)))
            }
        }
        func key(ofEntry entry: Int) -> PopulationOrderKey { populationOrderKey(rank: rank(ofNodeEntry: entry) ?? entry, slot: 0) }
        func foldedName(ofRank rank: Int) -> [UInt8] {
            withName(ofRank: rank, slot: 0) { Array(IteratorSequence(FoldedBytes(of: $0, table: foldTable))) }
        }
        try trie.walkCheckingStructure(precedes: { key(ofEntry: $0) < key(ofEntry: $1) },
                                       keysOfEntry: { [foldedName(ofRank: $0)] },
                                       disagreement: { .invariantViolated(.trieDisagreesWithRecords(rank: $0)) }) { node, path, own throws(IndexFileError) in
            if listed.contains(node.offset) { listedNodes[node.offset] = node }
            guard node.cityCount == node.entryCount else { throw .invariantViolated(.nodeSummaryWrong(nodeOffset: node.byteOffset)) }
            for rank in own {
                guard foldedName(ofRank: rank) == path else { throw .invariantViolated(.trieDisagreesWithRecords(rank: rank)) }
                if rank > own.lowerBound {
                    let inOrder = (records.countryCode(ofRank: rank - 1).byteSwapped, records.id(ofRank: rank - 1))
                        < (records.countryCode(ofRank: rank).byteSwapped, records.id(ofRank: rank))
                    guard inOrder else { throw .invariantViolated(.recordsNotInSearchOrder(rank: rank)) }
                }
            }
            // PORD lists exactly these ranks, in population order.
            var previous: Int?
            for entry in own {
                guard let rank = rank(ofNodeEntry: entry), own.contains(rank) else {
                    throw .invariantViolated(.populationOrderWrong(position: entry))
                }
                if let previous, !(populationOrderKey(rank: previous, slot: 0) < populationOrderKey(rank: rank, slot: 0)) {
                    throw .invariantViolated(.populationOrderWrong(position: entry))
                }
                previous = rank
            }
        }
        return listedNodes
    }
}
