// CityIndex+Verification.swift: verify(), the whole-file check.

extension CityIndex {
    /// Checks the whole file: the checksum over every byte (FORMAT.md §8), the fold table,
    /// every record, the id index, and every trie node: that the trie's keys are exactly the
    /// folded names of the records they cover, in search order (invariants I1–I4 of FORMAT.md
    /// §9). Run it once after downloading or caching an index: searching a file that passes
    /// cannot meet damage, and every search answers exactly as SEARCH.md says.
    ///
    /// - Complexity: O(file size + total name length × log *f*). Allocates one bit per city
    ///   and per byte of the `NODE` section.
    public func verify() throws(IndexFileError) {
        let computed = CRC32.indexChecksum(of: contents.storage.bytes.buffer)
        guard computed == contents.storedChecksum else {
            throw .checksumMismatch(stored: contents.storedChecksum, computed: computed)
        }
        try contents.foldTable.validateEntries()
        try verifyRecords()
        try verifyIDIndex()
        try verifyTrie()
    }

    /// Walks every node once (iteratively): child labels increase, child ranges partition
    /// their parent's after its own cities, no node is reached twice, and the cities a node
    /// ends for have exactly its path as folded name, ordered by country then id.
    private func verifyTrie() throws(IndexFileError) {
        let nodes = contents.nodes
        var visited = [UInt64](repeating: 0, count: nodes.count / 64 + 1)
        var path: [UInt8] = []
        var folded: [UInt8] = []
        // Pending nodes: where to find them, and the path length and byte that lead to them.
        var pending: [(node: TrieNode, pathLength: Int, label: UInt8?)] = [(contents.root, 0, nil)]
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
            // Ranks firstRank ..< rankEnd end at this node: their folded names are the path.
            for rank in node.firstRank ..< rankEnd {
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
                if rank > node.firstRank {
                    let previous = City(contents: contents, rank: rank - 1)
                    let order = (previous.countryCode, previous.id) < (city.countryCode, city.id)
                    guard order else { throw .invariantViolated(.recordsNotInSearchOrder(rank: rank)) }
                }
            }
            let childPathLength = path.count
            for (index, child) in children.enumerated().reversed() {
                pending.append((child, childPathLength, node.childLabel(at: index, in: nodes)))
            }
        }
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
