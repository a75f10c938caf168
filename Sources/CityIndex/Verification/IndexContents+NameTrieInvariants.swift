// IndexContents+NameTrieInvariants.swift: NODE and PORD (FORMAT.md §6, §7.8, I3, I7).

extension IndexContents {
    /// The `NODE` trie: the cities a node ends for have exactly its path as folded name,
    /// ordered by country then id, listed by `PORD` in population order (I3, I7).
    /// - Complexity: O(nodes + name bytes × log *f*).
    func verifyNameTrie() throws(IndexFileError) {
        if let nodeEntryRanks {
            // PORD's positions strictly increase (so its binary search finds every one).
            for index in 1 ..< max(1, nodeEntryRanks.movedEntryCount)
            where nodeEntryRanks.movedPosition(index) <= nodeEntryRanks.movedPosition(index - 1) {
                throw .invariantViolated(.populationOrderWrong(position: nodeEntryRanks.movedPosition(index)))
            }
        }
        func key(ofEntry entry: Int) -> PopulationOrderKey { populationOrderKey(rank: rank(ofNodeEntry: entry) ?? entry, slot: 0) }
        var folded: [UInt8] = []
        try trie.walkCheckingStructure(precedes: { key(ofEntry: $0) < key(ofEntry: $1) }) { node, path, own throws(IndexFileError) in
            guard node.cityCount == node.entryCount else { throw .invariantViolated(.nodeSummaryWrong(nodeOffset: node.offset)) }
            for rank in own {
                folded.removeAll(keepingCapacity: true)
                for scalar in primaryName(ofRank: rank).scalars {
                    foldTable.withFoldedUTF8(of: scalar) { folded.append(contentsOf: $0) }
                }
                guard folded == path else { throw .invariantViolated(.trieDisagreesWithRecords(rank: rank)) }
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
    }
}
