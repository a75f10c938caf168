// NodeEntryRanks.swift: the PORD section, which city each NODE entry stands for in
// population order (FORMAT.md §7.8).

/// The `PORD` section: in population order, `NODE` entry *i* stands for city `ranks[j]` when
/// `positions[j] = i`, and for city *i* otherwise. Only entries that move are listed.
///
/// Invariant (checked by `init(validating:cityCount:)`): the header's `movedCount` is at most
/// `cityCount` and the section holds exactly `movedCount` positions and ranks, so every read
/// of `j` in `0 ..< movedCount` is in bounds. That positions increase is checked by
/// `verify()`; unsorted positions only make the binary search miss.
struct NodeEntryRanks {
    private let lists: ByteView
    let movedEntryCount: Int
    private let cityCount: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let moved = Int(section.uint32(at: 0) ?? 0)
        let expected = UInt64(FormatConstants.populationOrderHeaderByteCount) + UInt64(moved) * 8
        guard moved <= cityCount else {
            throw .sectionSizeMismatch(section: .populationOrder, byteCount: UInt64(section.count), expectedByteCount: expected)
        }
        try section.requireByteCount(expected, of: .populationOrder)
        lists = section.slice(uncheckedOffset: FormatConstants.populationOrderHeaderByteCount, length: moved * 8)
        movedEntryCount = moved
        self.cityCount = cityCount
    }

    /// The `j`-th listed position (a `NODE` entry), `j` in `0 ..< movedEntryCount`.
    @inline(__always)
    func movedPosition(_ j: Int) -> Int { Int(lists.uint32(uncheckedAt: j * 4)) }

    /// The rank of `NODE` entry `entry` in population order: the rank listed for it, else
    /// `entry` itself; `nil` when the listed rank names no city (a damaged file).
    /// - Complexity: O(log *movedEntryCount*).
    @inline(__always)
    func rank(ofEntry entry: Int) -> Int? {
        var low = 0, high = movedEntryCount
        while low < high {
            let middle = (low + high) / 2
            let moved = movedPosition(middle)
            if moved < entry { low = middle + 1 } else if moved > entry { high = middle } else {
                let rank = Int(lists.uint32(uncheckedAt: (movedEntryCount + middle) * 4))
                return rank < cityCount ? rank : nil
            }
        }
        return entry
    }
}
