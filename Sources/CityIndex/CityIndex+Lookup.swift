// CityIndex+Lookup.swift: city(id:) and access by rank.

extension CityIndex {
    /// The city with `id`, or `nil` when the index has none.
    ///
    /// - Complexity: O(log *n*) reads of the `IDIX` section (binary search over ranks sorted
    ///   by id); no scanning, no allocation. On a damaged file it may miss, never trap.
    public func city(id: Int) -> City? {
        guard let target = UInt32(exactly: id),
              let rank = contents.idIndex.rank(ofID: target, in: contents.records) else { return nil }
        return City(contents: contents, rank: rank)
    }

    /// The city at `rank` in search order, for `rank` in `0 ..< cityCount`.
    package func city(atRank rank: Int) -> City {
        precondition(rank >= 0 && rank < contents.cityCount, "rank out of range")
        return City(contents: contents, rank: rank)
    }
}
