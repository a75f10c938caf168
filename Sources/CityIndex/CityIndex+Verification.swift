// CityIndex+Verification.swift: verify(), the whole-file check.

extension CityIndex {
    /// Checks the whole file: the checksum over every byte (FORMAT.md §8), the fold table,
    /// every record, the id index, the alternate names, and every node of both tries: that
    /// the `NODE` keys are exactly the folded names of the records they cover, in search
    /// order, and the `WNOD` postings exactly the word suffix keys of every name, with right
    /// counts and population order (invariants I1–I10 of FORMAT.md §9). Run it once after downloading or caching an index: searching a file that passes
    /// cannot meet damage, and every search answers exactly as SEARCH.md says.
    ///
    /// - Complexity: O(file size + total name length × log *f* + postings × trie depth).
    ///   Allocates a few bytes per city and one bit per byte of the trie sections.
    public func verify() throws(IndexFileError) {
        let computed = CRC32.indexChecksum(of: contents.storage.bytes.buffer)
        guard computed == contents.storedChecksum else {
            throw .checksumMismatch(stored: contents.storedChecksum, computed: computed)
        }
        try contents.foldTable.validateEntries()
        try verifyRecords()
        try verifyIDIndex()
        try verifyAlternateNames()
        try verifyTrie()
        try verifyWordTrie()
    }

    /// Walks every node of a trie section once (iteratively), checking its structure: child
    /// labels increase, child entry ranges partition their parent's after its own entries, no
    /// node is reached twice, and the node's best entry is the best of its own first entry and
    /// its children's (FORMAT.md I1–I3, I6). Calls `visit` with each node, its path (the key
    /// it spells) and its own entries.
    private func walkTrie(_ nodes: ByteView, root: TrieNode,
                          ranksBefore: (Int, Int) -> Bool,
                          visit: (TrieNode, [UInt8], Range<Int>) throws(IndexFileError) -> Void) throws(IndexFileError) {
        var visited = [UInt64](repeating: 0, count: nodes.count / 64 + 1)
        var path: [UInt8] = []
        // Pending nodes: where to find them, and the path length and byte that lead to them.
        var pending: [(node: TrieNode, pathLength: Int, label: UInt8?)] = [(root, 0, nil)]
        while let (node, pathLength, label) = pending.popLast() {
            let bit = node.offset
            guard visited[bit / 64] & (1 << UInt64(bit % 64)) == 0 else {
                throw .corruptNode(nodeOffset: node.offset, reason: .childNotBeforeParent(childOffset: node.offset))
            }
            visited[bit / 64] |= 1 << UInt64(bit % 64)
            path.removeSubrange(pathLength...)
            if let label { path.append(label) }
            path.append(contentsOf: node.labelTail.buffer)

            var children: [TrieNode] = []
            children.reserveCapacity(node.childCount)
            for index in 0..<node.childCount {
                if index > 0 && node.childLabel(at: index, in: nodes) <= node.childLabel(at: index - 1, in: nodes) {
                    throw .corruptNode(nodeOffset: node.offset, reason: .childLabelsNotIncreasing)
                }
                children.append(try node.child(at: index, in: nodes))
            }
            var rankEnd = node.ranks.upperBound
            for child in children.reversed() {
                guard child.ranks.upperBound == rankEnd, child.rankCount > 0 else {
                    throw .corruptNode(nodeOffset: child.offset,
                                       reason: .rankRangeOutsideParent(firstRank: child.firstRank, rankCount: child.rankCount))
                }
                rankEnd = child.firstRank
            }
            let own = node.firstRank ..< rankEnd
            // On ties the earliest entry is the best: own entries come before the children's.
            let candidates = (own.isEmpty ? [] : [own.lowerBound]) + children.map(\.bestRank)
            if let best = candidates.min(by: ranksBefore), best != node.bestRank {
                throw .invariantViolated(.nodeSummaryWrong(nodeOffset: node.offset))
            }
            try visit(node, path, own)
            let childPathLength = path.count
            for (index, child) in children.enumerated().reversed() {
                pending.append((child, childPathLength, node.childLabel(at: index, in: nodes)))
            }
        }
    }

    /// The `NODE` trie: the cities a node ends for have exactly its path as folded name,
    /// ordered by country then id, listed by `PORD` in population order (I4, I7).
    private func verifyTrie() throws(IndexFileError) {
        if let order = contents.populationOrder {
            // PORD's positions strictly increase (so its binary search finds every one).
            for index in 1 ..< max(1, contents.movedEntryCount) where order.uint32(at: index * 4)! <= order.uint32(at: (index - 1) * 4)! {
                throw .invariantViolated(.populationOrderWrong(position: Int(order.uint32(at: index * 4)!)))
            }
        }
        var folded: [UInt8] = []
        let contents = contents
        func ranksBefore(_ a: Int, _ b: Int) -> Bool {
            let rankA = contents.rankOfNodeEntry(a) ?? a, rankB = contents.rankOfNodeEntry(b) ?? b
            return Self.ranksBefore(rankA, 0, rankB, 0, contents: contents)
        }
        try walkTrie(contents.nodes, root: contents.root, ranksBefore: ranksBefore) { node, path, own throws(IndexFileError) in
            guard node.cityCount == node.rankCount else { throw .invariantViolated(.nodeSummaryWrong(nodeOffset: node.offset)) }
            for rank in own {
                let city = City(contents: contents, rank: rank)
                folded.removeAll(keepingCapacity: true)
                var position = 0
                let name = city.nameBytes.buffer
                while position < name.count {
                    let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
                    contents.foldTable.withFoldedUTF8(of: scalar) { folded.append(contentsOf: $0) }
                    position += length
                }
                guard folded == path else { throw .invariantViolated(.trieDisagreesWithRecords(rank: rank)) }
                if rank > own.lowerBound {
                    let previous = City(contents: contents, rank: rank - 1)
                    let order = (previous.countryCode, previous.id) < (city.countryCode, city.id)
                    guard order else { throw .invariantViolated(.recordsNotInSearchOrder(rank: rank)) }
                }
            }
            // PORD lists exactly these ranks, in population order.
            var previous: Int?
            for position in own {
                guard let rank = contents.rankOfNodeEntry(position), own.contains(rank) else {
                    throw .invariantViolated(.populationOrderWrong(position: position))
                }
                if let previous, !Self.ranksBefore(previous, 0, rank, 0, contents: contents) {
                    throw .invariantViolated(.populationOrderWrong(position: position))
                }
                previous = rank
            }
        }
    }

    /// The `WNOD` trie and `WPST` postings: each posting's path is a suffix key of the name
    /// it points to; a key's postings are in population order with one per city; each node
    /// counts its distinct cities right; and there are exactly as many postings as distinct
    /// (city, suffix key) pairs, so none is missing (I8–I10).
    private func verifyWordTrie() throws(IndexFileError) {
        let contents = contents
        func ranksBefore(_ a: Int, _ b: Int) -> Bool {
            guard let first = contents.posting(at: a), let second = contents.posting(at: b) else { return a < b }
            return Self.ranksBefore(first.rank, first.slot, second.rank, second.slot, contents: contents)
        }
        for position in 0 ..< contents.postingCount where contents.posting(at: position) == nil {
            throw .invariantViolated(.postingOutOfBounds(position: position))
        }
        // City counts are checked after the walk, offline: O((postings + nodes) log postings)
        // whatever the trie's shape (counting each node's range would be quadratic on a comb).
        var summaries: [(entries: Range<Int>, cityCount: Int, offset: Int)] = []
        try walkTrie(contents.wordNodes, root: contents.wordRoot, ranksBefore: ranksBefore) { node, path, own throws(IndexFileError) in
            summaries.append((node.ranks, node.cityCount, node.offset))
            var previous: (rank: Int, slot: Int)?
            for position in own {
                let (rank, slot) = contents.posting(at: position)!
                guard slot <= contents.alternateCount(ofRank: rank) else {
                    throw .invariantViolated(.postingOutOfBounds(position: position))
                }
                if let previous {
                    guard previous.rank != rank, Self.ranksBefore(previous.rank, previous.slot, rank, slot, contents: contents) else {
                        throw .invariantViolated(.wordTrieDisagreesWithNames(posting: position))
                    }
                }
                previous = (rank, slot)
                let (key, wordStarts) = WordKey.encode(contents.nameBytes(ofRank: rank, slot: slot).scalars, with: contents.foldTable)
                guard wordStarts.contains(where: { key[$0...].elementsEqual(path) }) else {
                    throw .invariantViolated(.wordTrieDisagreesWithNames(posting: position))
                }
            }
        }
        summaries.sort { $0.entries.upperBound < $1.entries.upperBound }
        var counter = DistinctCityCounter(entryCount: contents.postingCount, cityCount: contents.cityCount)
        var added = 0
        for summary in summaries {
            while added < summary.entries.upperBound {
                counter.add(entry: added, city: contents.posting(at: added)!.rank)
                added += 1
            }
            guard counter.cityCount(in: summary.entries) == summary.cityCount else {
                throw .invariantViolated(.nodeSummaryWrong(nodeOffset: summary.offset))
            }
        }
        var expectedPostingCount = 0
        for rank in 0 ..< contents.cityCount {
            var keys = Set<ArraySlice<UInt8>>()
            for slot in 0 ... contents.alternateCount(ofRank: rank) {
                let (key, wordStarts) = WordKey.encode(contents.nameBytes(ofRank: rank, slot: slot).scalars, with: contents.foldTable)
                for start in wordStarts { keys.insert(key[start...]) }
            }
            expectedPostingCount += keys.count
        }
        guard expectedPostingCount == contents.postingCount else {
            throw .invariantViolated(.postingOutOfBounds(position: contents.postingCount))
        }
    }

    /// `ALTN`: offsets start at 0, never decrease and end at the text's size; each city's
    /// run is whole (length, name) entries of non-empty UTF-8.
    private func verifyAlternateNames() throws(IndexFileError) {
        let base = IndexLayout.alternateHeaderByteCount
        guard contents.alternates.uint32(at: base) == 0,
              contents.alternates.uint32(at: base + contents.cityCount * 4) == UInt32(contents.alternateText.count) else {
            throw .invariantViolated(.alternateNameOutOfBounds(rank: 0))
        }
        for rank in 0 ..< contents.cityCount {
            let first = contents.alternates.uint32(at: base + rank * 4)!, end = contents.alternates.uint32(at: base + rank * 4 + 4)!
            guard first <= end else { throw .invariantViolated(.alternateNameOutOfBounds(rank: rank)) }
            let block = contents.alternateBlock(ofRank: rank)
            var offset = 0
            while offset < block.count {
                guard let (length, next) = block.varint(at: offset), length > 0,
                      let name = block.slice(offset: next, length: Int(length)), UTF8Validation.isValid(name.buffer) else {
                    throw .invariantViolated(.alternateNameOutOfBounds(rank: rank))
                }
                offset = next + Int(length)
            }
        }
    }

    /// Population order of two (rank, slot) entries (`PopulationOrder`).
    static func ranksBefore(_ rankA: Int, _ slotA: Int, _ rankB: Int, _ slotB: Int, contents: IndexContents) -> Bool {
        PopulationOrder.precedes((rankA, slotA, contents.population(ofRank: rankA)), (rankB, slotB, contents.population(ofRank: rankB)))
    }

    private func verifyRecords() throws(IndexFileError) {
        for rank in 0..<contents.cityCount {
            let city = City(contents: contents, rank: rank)
            let base = rank * IndexLayout.cityRecordByteCount
            let nameOffset = Int(contents.records.uint32(at: base + IndexLayout.recordNameOffsetOffset)!)
            let nameByteCount = Int(contents.records.uint16(at: base + IndexLayout.recordNameByteCountOffset)!)
            guard nameByteCount > 0, let name = contents.names.slice(offset: nameOffset, length: nameByteCount) else {
                throw .invariantViolated(.nameOutOfBounds(rank: rank))
            }
            guard UTF8Validation.isValid(name.buffer) else { throw .invariantViolated(.nameNotUTF8(rank: rank)) }
            let country = contents.records.uint16(at: base + IndexLayout.recordCountryOffset)!
            let isCapital: (UInt16) -> Bool = { (0x41...0x5A).contains($0) }
            guard isCapital(country & 0xFF), isCapital(country >> 8) else {
                throw .invariantViolated(.invalidCountryCode(rank: rank))
            }
            guard (-90_000_000...90_000_000).contains(city.latitudeMicrodegrees),
                  (-180_000_000...180_000_000).contains(city.longitudeMicrodegrees) else {
                throw .invariantViolated(.coordinateOutOfRange(rank: rank))
            }
        }
    }

    private func verifyIDIndex() throws(IndexFileError) {
        var seen = [UInt64](repeating: 0, count: (contents.cityCount + 63) / 64)
        var previousID: UInt32?
        for position in 0..<contents.cityCount {
            let rank = Int(contents.idIndex.uint32(at: position * 4)!)
            guard rank < contents.cityCount, seen[rank / 64] & (1 << UInt64(rank % 64)) == 0 else {
                throw .invariantViolated(.idIndexRankOutOfBounds(position: position))
            }
            seen[rank / 64] |= 1 << UInt64(rank % 64)
            let id = contents.records.uint32(at: rank * IndexLayout.cityRecordByteCount)!
            if let previousID, id <= previousID { throw .invariantViolated(.idIndexNotSorted(position: position)) }
            previousID = id
        }
    }
}
