// IndexContents+SpatialInvariants.swift: GEOK is a k-d tree of every city (FORMAT.md §9, I14).

extension IndexContents {
    /// I14: `GEOK` lists every rank exactly once, and in each node of more than `nodeSize`
    /// positions, the cities before the middle position are not after its city on the node's
    /// axis and those after it not before it, and the node's split is that city's coordinate;
    /// the split slots of no such node hold 0 (`SpatialIndex`).
    /// - Complexity: O(*n* log *n*) reads of coordinates; a bit per city.
    func verifySpatialIndex() throws(IndexFileError) {
        guard let spatial = spatialIndex else { return }
        var seen = [UInt64](repeating: 0, count: (cityCount + 63) / 64)
        for position in 0 ..< cityCount {
            guard let rank = spatial.rank(at: position), seen[rank >> 6] & (1 << UInt64(rank & 63)) == 0 else {
                throw .invariantViolated(.spatialIndexWrong(position: position))
            }
            seen[rank >> 6] |= 1 << UInt64(rank & 63)
        }
        func coordinate(at position: Int, axis: Int) -> Int32 {
            let rank = spatial.rank(at: position) ?? 0
            return axis == 0 ? records.longitudeMicrodegrees(ofRank: rank) : records.latitudeMicrodegrees(ofRank: rank)
        }
        var isNode = [Bool](repeating: false, count: SpatialIndex.splitCount(cityCount: cityCount, nodeSize: spatial.nodeSize))
        var pending: [(lo: Int, hi: Int, axis: Int, node: Int)] = cityCount > 0 ? [(0, cityCount - 1, 0, 0)] : []
        while let (lo, hi, axis, node) = pending.popLast() {
            guard hi - lo + 1 > spatial.nodeSize else { continue }
            let middle = (lo + hi) >> 1
            let median = coordinate(at: middle, axis: axis)
            guard node < isNode.count, spatial.split(ofNode: node) == median else {
                throw .invariantViolated(.spatialIndexWrong(position: middle))
            }
            isNode[node] = true
            for position in lo ..< middle where coordinate(at: position, axis: axis) > median {
                throw .invariantViolated(.spatialIndexWrong(position: position))
            }
            for position in middle + 1 ... hi where coordinate(at: position, axis: axis) < median {
                throw .invariantViolated(.spatialIndexWrong(position: position))
            }
            pending.append((lo, middle - 1, 1 - axis, 2 * node + 1))
            pending.append((middle + 1, hi, 1 - axis, 2 * node + 2))
        }
        for (node, isNode) in isNode.enumerated() where !isNode && spatial.split(ofNode: node) != 0 {
            throw .invariantViolated(.spatialSplitWrong(node: node))
        }
    }
}
