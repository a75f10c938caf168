// SpatialIndex.swift: the optional GEOK section, the cities as an implicit k-d tree (FORMAT.md §7.12).

/// `GEOK --> nodeSize:u32, splitCount:u32, splits:i32^splitCount, padding, ranks:PackedArray
/// (cityCount values)`: the cities' ranks in the order of an implicit k-d tree over their
/// coordinates (`CITY`). A range of positions `lo ... hi` is a node; one of more than
/// `nodeSize` positions has its median city at `m = (lo + hi) / 2` on the node's axis
/// (longitude at even depths, latitude at odd ones), the cities of `lo ..< m` not after it and
/// those of `m + 1 ... hi` not before it on that axis; those two ranges are its children. The
/// tree's shape follows from the city count and `nodeSize`, so a search visits each node at
/// most once whatever the file holds. `splits` holds each such node's median coordinate
/// (microdegrees) by the node's number in breadth-first order (the root 0, the children of
/// node *i* 2*i* + 1 and 2*i* + 2), so that a search descends without reading the median
/// cities' records.
///
/// Invariant (checked by `init(validating:cityCount:)`): `nodeSize` is 1 … 65,535,
/// `splitCount` is `splitCount(cityCount:nodeSize:)` and the section holds the splits and
/// `cityCount` ranks. Each rank is checked where it is read; the order (every city once, the
/// median property) and the splits are checked by `verify()` (I14).
package struct SpatialIndex {
    let nodeSize: Int
    private let ranks: PackedArray
    private let splits: ByteView
    let count: Int

    /// The slots of `splits` for `cityCount` cities in nodes of at most `nodeSize`: 2^*d* − 1
    /// for the *d* depths that have nodes larger than `nodeSize` (at depth *d*, a node holds at
    /// most ⌊`cityCount` / 2^*d*⌋ positions). Below 2³² for every valid header. O(log *n*).
    package static func splitCount(cityCount: Int, nodeSize: Int) -> Int {
        var (depths, length) = (0, cityCount)
        while length > max(1, nodeSize) {
            depths += 1
            length >>= 1
        }
        return (1 << depths) - 1
    }

    /// The bytes `splitCount` splits take, padded to 8 so that the ranks stay aligned.
    package static func splitByteCount(splitCount: Int) -> Int { (4 * splitCount + 7) & ~7 }

    /// - Complexity: O(log *n*).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let nodeSize = Int(section.uint32(at: 0) ?? 0)
        let splitCount = (1 ... 65_535).contains(nodeSize) ? Self.splitCount(cityCount: cityCount, nodeSize: nodeSize) : 0
        let splitBytes = Self.splitByteCount(splitCount: splitCount)
        guard section.count >= 16 + splitBytes, (1 ... 65_535).contains(nodeSize), section.uint32(at: 4) == UInt32(splitCount),
              let splits = section.slice(offset: 8, length: 4 * splitCount),
              let array = section.slice(offset: 8 + splitBytes, length: section.count - 8 - splitBytes) else {
            throw .sectionSizeMismatch(section: .spatialIndex, byteCount: UInt64(section.count), expectedByteCount: UInt64(16 + splitBytes))
        }
        ranks = try PackedArray(validating: array, count: cityCount, of: .spatialIndex)
        self.splits = splits
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

    /// The median coordinate of node `node` (its breadth-first number), in microdegrees; 0
    /// for a number that is no node of more than `nodeSize` positions. O(1).
    @inline(__always)
    func split(ofNode node: Int) -> Int32 {
        guard node >= 0, node < splits.count / 4 else { return 0 }
        return Int32(bitPattern: splits.uint32(uncheckedAt: 4 * node))
    }
}
