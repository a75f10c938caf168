// IDIndex.swift: the IDIX section, bit-packed ranks ordered by city id (FORMAT.md §7.3).

/// The `IDIX` section: `cityCount` ranks of ⌈log₂ cityCount⌉ bits (`PackedArray`), ordered by
/// the id of the city at each rank, so that `city(id:)` is a binary search.
///
/// Invariant (checked by `init(validating:cityCount:)`): exactly `cityCount` entries, so every
/// position in `0 ..< cityCount` reads in bounds. The values are not trusted: `rank(at:)`
/// returns `nil` for one outside the city range; `verify()` checks the order.
struct IDIndex {
    private let ranks: PackedArray
    private let cityCount: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        ranks = try PackedArray(validating: section, count: cityCount, of: .idIndex)
        self.cityCount = cityCount
    }

    /// The rank stored at `position` (in `0 ..< cityCount`), or `nil` when it names no city.
    @inline(__always)
    func rank(at position: Int) -> Int? {
        let rank = Int(ranks[position])
        return rank < cityCount ? rank : nil
    }

    /// The rank of the city with `id`, by binary search over `records`' ids. O(log *n*);
    /// on a damaged file it may miss, never trap.
    func rank(ofID id: UInt32, in records: CityRecords) -> Int? {
        var low = 0
        var high = cityCount
        while low < high {
            let middle = (low + high) / 2
            guard let rank = rank(at: middle) else { return nil }
            let candidate = records.id(ofRank: rank)
            if candidate < id { low = middle + 1 } else if candidate > id { high = middle } else { return rank }
        }
        return nil
    }
}
