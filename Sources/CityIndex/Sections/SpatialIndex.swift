// SpatialIndex.swift: the optional GEOK section, the cities as an implicit k-d tree (FORMAT.md §7.12).

/// `GEOK --> nodeSize:u32, reserved:u32 (0), ranks:PackedArray (cityCount values)`: the
/// cities' ranks in the order of an implicit k-d tree over their coordinates (`CITY`). A range
/// of positions `lo ... hi` is a node; one of more than `nodeSize` positions has its median
/// city at `m = (lo + hi) / 2` on the node's axis (longitude at even depths, latitude at odd
/// ones), the cities of `lo ..< m` not after it and those of `m + 1 ... hi` not before it on
/// that axis; those two ranges are its children. Nothing else is stored: the tree's shape
/// follows from the city count and `nodeSize`, so a search visits each node at most once
/// whatever the file holds.
///
/// Invariant (checked by `init(validating:cityCount:)`): `nodeSize` is 1 … 65,535 and the
/// array holds `cityCount` ranks. Each rank is checked where it is read; the order (every
/// city once, the median property) is checked by `verify()` (I14).
struct SpatialIndex {
    let nodeSize: Int
    private let ranks: PackedArray
    let count: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let nodeSize = Int(section.uint32(at: 0) ?? 0)
        guard section.count >= 16, (1 ... 65_535).contains(nodeSize), section.uint32(at: 4) == 0,
              let array = section.slice(offset: 8, length: section.count - 8) else {
            throw .sectionSizeMismatch(section: .spatialIndex, byteCount: UInt64(section.count), expectedByteCount: 16)
        }
        ranks = try PackedArray(validating: array, count: cityCount, of: .spatialIndex)
        self.nodeSize = nodeSize
        count = cityCount
    }

    /// The rank at tree position `position` (in `0 ..< count`); `nil` when the file names no
    /// city there (a damaged file). O(1).
    @inline(__always)
    func rank(at position: Int) -> Int? {
        let rank = Int(ranks[position])
        return rank < count ? rank : nil
    }
}
