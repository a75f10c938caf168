// SpatialIndexWriter.swift: the `GEOK` section (FORMAT.md §7.12), the writing twin of `SpatialIndex`.
import CityIndex

/// Orders the cities into an implicit k-d tree over their coordinates and writes the order.
///
/// The tree has no node records: a range of positions `lo ... hi` is a node; when it holds more
/// than `nodeSize` cities, its middle position `m = (lo + hi) / 2` holds the city whose
/// coordinate on the node's axis is the median of the range (longitude at even depths,
/// latitude at odd ones; ties broken by rank), the cities before it have smaller ones and the
/// cities after it larger ones, and the two sides are the node's children. Each range is
/// ordered by selection (expected linear time; a range that selection cannot narrow quickly
/// is sorted instead), so building takes O(*n* log *n*).
///
/// Memory: 12 bytes per city (its coordinates and its place in the order), and 4 per split.
struct SpatialIndexWriter {
    /// The most cities a leaf holds.
    static let nodeSize = 16

    private var latitudes: [Int32] = []
    private var longitudes: [Int32] = []

    /// Adds the coordinates of the next rank.
    mutating func add(_ city: CityBlob) {
        latitudes.append(city.latitudeMicrodegrees)
        longitudes.append(city.longitudeMicrodegrees)
    }

    /// The section: `nodeSize:u32, splitCount:u32`, the splits padded to 8 bytes, then the
    /// ranks in tree order as a packed array. `nil` for an empty list.
    func finish(directory: String) throws(IndexBuildError) -> [SectionPart]? {
        let count = latitudes.count
        guard count > 0 else { return nil }
        let order = treeOrder()
        let width = bitWidth(holding: UInt64(count - 1))
        var bits = try PackedBitsFileWriter(directory: directory)
        for rank in order { try bits.append(UInt64(rank), width: width) }
        let splits = splits(of: order)
        var header = ByteBuffer()
        header.appendUInt32(UInt32(Self.nodeSize))
        header.appendUInt32(UInt32(splits.count))
        for split in splits { header.appendUInt32(UInt32(bitPattern: split)) }
        while header.bytes.count < 8 + SpatialIndex.splitByteCount(splitCount: splits.count) { header.appendUInt8(0) }
        return [.bytes(header.bytes + PackedBitsFileWriter.arrayHeader(width: width, secondWidth: 0, count: count)),
                .file(try bits.finish())]
    }

    /// The median coordinate of each node larger than `nodeSize`, by its breadth-first number
    /// (the root 0, the children of node i 2i + 1 and 2i + 2); 0 in the slots of no such node.
    func splits(of order: [UInt32]) -> [Int32] {
        var splits = [Int32](repeating: 0, count: SpatialIndex.splitCount(cityCount: order.count, nodeSize: Self.nodeSize))
        var pending: [(lo: Int, hi: Int, axis: Int, node: Int)] = [(0, order.count - 1, 0, 0)]
        while let (lo, hi, axis, node) = pending.popLast() {
            guard hi - lo + 1 > Self.nodeSize else { continue }
            let middle = (lo + hi) >> 1
            let rank = Int(order[middle])
            splits[node] = axis == 0 ? longitudes[rank] : latitudes[rank]
            pending.append((lo, middle - 1, 1 - axis, 2 * node + 1))
            pending.append((middle + 1, hi, 1 - axis, 2 * node + 2))
        }
        return splits
    }

    /// The ranks in tree order.
    func treeOrder() -> [UInt32] {
        var ranks = (0 ..< UInt32(latitudes.count)).map { $0 }
        var pending: [(lo: Int, hi: Int, axis: Int)] = [(0, ranks.count - 1, 0)]
        while let (lo, hi, axis) = pending.popLast() {
            guard hi - lo + 1 > Self.nodeSize else { continue }
            let middle = (lo + hi) >> 1
            select(&ranks, middle, in: lo ... hi, axis: axis)
            pending.append((lo, middle - 1, 1 - axis))
            pending.append((middle + 1, hi, 1 - axis))
        }
        return ranks
    }

    /// Whether city `a` comes before city `b` on `axis` (0: longitude, 1: latitude), ties by rank.
    @inline(__always)
    private func precedes(_ a: UInt32, _ b: UInt32, axis: Int) -> Bool {
        let coordinates = axis == 0 ? longitudes : latitudes
        let (x, y) = (coordinates[Int(a)], coordinates[Int(b)])
        return x != y ? x < y : a < b
    }

    /// Rearranges `ranks[range]` so that position `k` holds the city it would hold sorted, the
    /// ones before it precede it and the ones after it follow it (on `axis`).
    private func select(_ ranks: inout [UInt32], _ k: Int, in range: ClosedRange<Int>, axis: Int) {
        var (lo, hi) = (range.lowerBound, range.upperBound)
        // Partitions expected: about 2 log2 of the range; past 4 log2 the range is sorted instead.
        var budget = 4 * (Int.bitWidth - range.count.leadingZeroBitCount) + 8
        var state = UInt64(truncatingIfNeeded: lo) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: hi)
        while hi > lo {
            budget -= 1
            if budget == 0 {
                ranks[lo ... hi].sort { precedes($0, $1, axis: axis) }
                return
            }
            // A pivot drawn by a fixed pseudo-random sequence: deterministic output, no input
            // order that makes every partition lopsided on purpose.
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let pivotPosition = lo + Int((state >> 33) % UInt64(hi - lo + 1))
            ranks.swapAt(pivotPosition, hi)
            let pivot = ranks[hi]
            var store = lo
            for position in lo ..< hi where precedes(ranks[position], pivot, axis: axis) {
                ranks.swapAt(position, store)
                store += 1
            }
            ranks.swapAt(store, hi)
            if store == k { return }
            if store < k { lo = store + 1 } else { hi = store - 1 }
        }
    }
}
