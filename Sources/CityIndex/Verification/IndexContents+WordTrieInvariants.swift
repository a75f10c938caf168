// IndexContents+WordTrieInvariants.swift: WNOD and WPST (FORMAT.md §7.6–7.7, I8–I10).

extension IndexContents {
    /// The `WNOD` trie and `WPST` postings: each posting's path is a suffix key of the name
    /// it points to, and it is marked demoted exactly as WORDS.md §5 says; a key's postings are
    /// in population order with one per city; each node
    /// counts its distinct cities right; and there are exactly as many postings as distinct
    /// (city, suffix key) pairs, so none is missing (I8–I10).
    /// - Complexity: O((postings + nodes) log postings + name bytes × log *f*).
    /// - Returns: the nodes `WTOP` and `WALP` list, by offset (for `verifyTopLists`).
    func verifyWordTrie() throws(IndexFileError) -> [Int: TrieNode] {
        let listed = (wordTopLists?.listedOffsets ?? []).union(wordAlphabeticalLists?.listedOffsets ?? [])
        var listedNodes: [Int: TrieNode] = [:]
        for position in 0 ..< postings.postingCount {
            guard let (rank, slot, isDemoted) = postings.posting(at: position), slot <= alternates.count(ofRank: rank),
                  !isDemoted || slot > 0 else {
                throw .invariantViolated(.postingOutOfBounds(position: position))
            }
        }
        // Every posting names an existing city and slot from here on.
        func posting(_ position: Int) -> (rank: Int, slot: Int, isDemoted: Bool) { postings.posting(at: position) ?? (0, 0, false) }
        func key(ofPosting position: Int) -> PopulationOrderKey {
            let (rank, slot, isDemoted) = posting(position)
            return populationOrderKey(rank: rank, slot: slot, isDemoted: isDemoted)
        }
        // City counts are checked after the walk, offline: O((postings + nodes) log postings)
        // whatever the trie's shape (counting each node's range would be quadratic on a comb).
        var summaries: [(entries: Range<Int>, cityCount: Int, offset: Int)] = []
        func suffixKeys(ofPosting position: Int) -> [[UInt8]] {
            let (rank, slot, _) = posting(position)
            let (wordKey, wordStarts) = withName(ofRank: rank, slot: slot) { WordKey.encode(UTF8Decoding.scalars(of: $0), with: foldTable) }
            return wordStarts.map { Array(wordKey[$0...]) }
        }
        /// Whether posting `position`, whose key is `key`, one of its name's `suffixKeys`, is
        /// marked demoted as WORDS.md §5 says.
        func demotionIsRight(ofPosting position: Int, key: [UInt8], suffixKeys: [[UInt8]]) -> Bool {
            let (rank, slot, isDemoted) = posting(position)
            guard slot > 0 else { return !isDemoted }
            guard let wordIndex = suffixKeys.firstIndex(of: key) else { return false }
            return isDemoted == withName(ofRank: rank, slot: slot) {
                AlternateDemotion.isDemoted(alternateName: $0, wordIndex: wordIndex, foldTable: foldTable)
            }
        }
        var citiesOfKey = Set<Int>()
        try wordTrie.walkCheckingStructure(precedes: { key(ofPosting: $0) < key(ofPosting: $1) },
                                           keysOfEntry: suffixKeys(ofPosting:),
                                           disagreement: { .invariantViolated(.wordTrieDisagreesWithNames(posting: $0)) }) { node, path, own throws(IndexFileError) in
            summaries.append((node.entries, node.cityCount, node.byteOffset))
            if listed.contains(node.offset) { listedNodes[node.offset] = node }
            if wordTrie.isBucket(node) {
                // Each posting's key is the one suffix key of its name below the bucket's edge
                // (its cities are distinct, so a name cannot have two there); the keys are
                // sorted, and a key's postings in population order.
                var previous: (key: [UInt8], position: Int)?
                for position in own {
                    let nameKeys = suffixKeys(ofPosting: position)
                    let keys = nameKeys.filter { $0.starts(with: path) }
                    guard keys.count == 1, demotionIsRight(ofPosting: position, key: keys[0], suffixKeys: nameKeys) else {
                        throw .invariantViolated(.wordTrieDisagreesWithNames(posting: position))
                    }
                    if let previous, !(previous.key.lexicographicallyPrecedes(keys[0])
                                       || (previous.key == keys[0] && key(ofPosting: previous.position) < key(ofPosting: position))) {
                        throw .invariantViolated(.wordTrieDisagreesWithNames(posting: position))
                    }
                    previous = (keys[0], position)
                }
                return
            }
            var previous: Int?
            citiesOfKey.removeAll(keepingCapacity: true)
            for position in own {
                // One posting per city, in population order.
                guard citiesOfKey.insert(posting(position).rank).inserted else {
                    throw .invariantViolated(.wordTrieDisagreesWithNames(posting: position))
                }
                if let previous, !(key(ofPosting: previous) < key(ofPosting: position)) {
                    throw .invariantViolated(.wordTrieDisagreesWithNames(posting: position))
                }
                previous = position
                let nameKeys = suffixKeys(ofPosting: position)
                guard nameKeys.contains(path), demotionIsRight(ofPosting: position, key: path, suffixKeys: nameKeys) else {
                    throw .invariantViolated(.wordTrieDisagreesWithNames(posting: position))
                }
            }
        }
        summaries.sort { $0.entries.upperBound < $1.entries.upperBound }
        var counter = DistinctCityCounter(entryCount: postings.postingCount, cityCount: cityCount)
        var added = 0
        for summary in summaries {
            while added < summary.entries.upperBound {
                counter.add(entry: added, city: posting(added).rank)
                added += 1
            }
            guard counter.cityCount(in: summary.entries) == summary.cityCount else {
                throw .invariantViolated(.nodeSummaryWrong(nodeOffset: summary.offset))
            }
        }
        var expectedPostingCount = 0
        for rank in 0 ..< cityCount {
            var keys = Set<ArraySlice<UInt8>>()
            for slot in 0 ... alternates.count(ofRank: rank) {
                let (wordKey, wordStarts) = withName(ofRank: rank, slot: slot) { WordKey.encode(UTF8Decoding.scalars(of: $0), with: foldTable) }
                for start in wordStarts { keys.insert(wordKey[start...]) }
            }
            expectedPostingCount += keys.count
        }
        guard expectedPostingCount == postings.postingCount else {
            throw .invariantViolated(.postingCountWrong(found: postings.postingCount, expected: expectedPostingCount))
        }
        return listedNodes
    }
}
