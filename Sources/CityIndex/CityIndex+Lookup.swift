// CityIndex+Lookup.swift: city(id:) and access by rank.

extension CityIndex {
    /// The city with `id`, or `nil` when the index has none.
    ///
    /// - Complexity: O(log *n*) reads of the `IDIX` section (binary search over ranks sorted
    ///   by id); no scanning, no allocation. On a damaged file it may miss, never trap.
    public func city(id: Int) -> City? {
        guard let target = UInt32(exactly: id) else { return nil }
        var low = 0
        var high = contents.cityCount
        while low < high {
            let middle = (low + high) / 2
            let rank = Int(contents.idIndex.uint32(at: middle * 4)!)
            guard rank < contents.cityCount else { return nil }
            let candidate = contents.records.uint32(at: rank * IndexLayout.cityRecordByteCount)!
            if candidate < target { low = middle + 1 } else if candidate > target { high = middle } else {
                return City(contents: contents, rank: rank)
            }
        }
        return nil
    }

    /// The city at `rank` in search order, for `rank` in `0 ..< cityCount`.
    public func city(atRank rank: Int) -> City {
        precondition(rank >= 0 && rank < contents.cityCount, "rank out of range")
        return City(contents: contents, rank: rank)
    }
}
