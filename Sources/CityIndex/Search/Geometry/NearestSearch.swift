// NearestSearch.swift: the k nearest cities to a point, best first over the implicit k-d tree.

/// A best-first search of `GEOK` (FORMAT.md §7.12): one priority queue holds tree nodes, keyed
/// by the least haversine from the point to their box (`GreatCircle.leastHaversine`), and
/// cities, keyed by their own; the queue's first item is never farther than anything under or
/// after it, so the cities come out nearest first (equal distances by rank: at equal keys
/// nodes come first), and the search stops after `limit` of them or at the first item past
/// `within`.
///
/// A node's box is its parent's with one side moved to the parent's split (its median city's
/// coordinate on the parent's axis, read from `GEOK`'s splits); the root's is the whole Earth.
/// A node of at most `nodeSize` cities puts each city in the queue; a larger one its two
/// children and its median city, keyed by the least haversine to the line the median lies on
/// (its record is read only if that item comes first).
///
/// Pruning: once `limit` cities are queued, an item farther than the farthest of the `limit`
/// nearest queued cities can never be reported (they all come out before it), so it is not
/// queued (`NearestBound`); a city whose latitude alone puts it past that bound is dropped
/// before its distance is computed.
///
/// - Complexity: O(log *n* + *k*) nodes and cities for cities spread over the Earth as real
///   ones are (each opened node adds at most `nodeSize` items; *k* = `limit`), O(*n*) at worst:
///   every node is opened at most once whatever the file holds. The queue and the bound live
///   in temporary allocations (`queueCapacity` items, `limit` distances), on the stack when
///   they fit there; the queue moves to the heap only if it overflows.
struct NearestSearch {
    /// A node (`lo ... hi`, `axis`, its breadth-first number `node`, its box); with `lo` =
    /// `Item.city`, the city of rank `hi`; with `lo` = `Item.median`, the city at tree position
    /// `hi`, not yet read.
    struct Item {
        static let city = -1
        static let median = -2

        var key: Double
        var lo: Int
        var hi: Int
        var axis: Int
        var node: Int
        var south: Double, north: Double, west: Double, east: Double

        /// Smaller key first; at equal keys nodes and medians before cities (so every city at
        /// that distance is queued before one is reported), and cities by rank.
        @inline(__always)
        func precedes(_ other: Item) -> Bool {
            if key != other.key { return key < other.key }
            if (lo == Self.city) != (other.lo == Self.city) { return lo != Self.city }
            return lo == Self.city && hi < other.hi
        }
    }

    let contents: IndexContents
    let spatial: SpatialIndex
    /// The point.
    let origin: LocationOrigin
    /// The largest haversine a result may have (`within`), ≥ 1 when unlimited.
    let largestHaversine: Double
    let minimumPopulation: UInt32
    /// Only cities of these countries (record country values), when not `nil`.
    let countries: Set<UInt16>?

    static func queueCapacity(limit: Int) -> Int { 256 + min(limit, 1 << 16) * 2 }

    /// The nearest `limit` cities, nearest first, each made by `result` from its rank and
    /// its haversine.
    func run<Result>(limit: Int, result: (_ rank: Int, _ haversine: Double) -> Result) -> [Result] {
        guard limit > 0, spatial.count > 0 else { return [] }
        let kept = min(limit, spatial.count)
        return withUnsafeTemporaryAllocation(of: Item.self, capacity: Self.queueCapacity(limit: limit)) { buffer in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: kept) { distances in
                var queue = NearestQueue(storage: buffer)
                defer { queue.release() }
                var bound = NearestBound(storage: distances, largest: largestHaversine)
                var results: [Result] = []
                results.reserveCapacity(kept)
                let halfPi = Double.pi / 2
                push(node: 0, spatial.count - 1, axis: 0, number: 0, south: -halfPi, north: halfPi, west: -.pi, east: .pi,
                     into: &queue, bound: bound)
                while results.count < limit, let item = queue.pop() {
                    if item.key > largestHaversine { break }
                    if item.lo == Item.city {
                        results.append(result(item.hi, item.key))
                        continue
                    }
                    if item.lo == Item.median {
                        push(cityAt: item.hi, into: &queue, bound: &bound)
                        continue
                    }
                    let (lo, hi) = (item.lo, item.hi)
                    if hi - lo + 1 <= spatial.nodeSize {
                        // A leaf's records are scattered: load them all before reading one.
                        for position in lo ... hi {
                            if let rank = spatial.rank(at: position) { contents.records.prefetch(rank: rank) }
                        }
                        for position in lo ... hi { push(cityAt: position, into: &queue, bound: &bound) }
                        continue
                    }
                    let middle = (lo + hi) >> 1
                    let split = GreatCircle.radians(spatial.split(ofNode: item.node))
                    let (left, right) = (2 * item.node + 1, 2 * item.node + 2)
                    if item.axis == 0 {
                        push(median: middle, south: item.south, north: item.north, west: split, east: split, into: &queue, bound: bound)
                        push(node: lo, middle - 1, axis: 1, number: left, south: item.south, north: item.north, west: item.west, east: split,
                             into: &queue, bound: bound)
                        push(node: middle + 1, hi, axis: 1, number: right, south: item.south, north: item.north, west: split, east: item.east,
                             into: &queue, bound: bound)
                    } else {
                        push(median: middle, south: split, north: split, west: item.west, east: item.east, into: &queue, bound: bound)
                        push(node: lo, middle - 1, axis: 0, number: left, south: item.south, north: split, west: item.west, east: item.east,
                             into: &queue, bound: bound)
                        push(node: middle + 1, hi, axis: 0, number: right, south: split, north: item.north, west: item.west, east: item.east,
                             into: &queue, bound: bound)
                    }
                }
                return results
            }
        }
    }

    /// Queues the city at tree position `position`, unless it is too far or too small.
    @inline(__always)
    private func push(cityAt position: Int, into queue: inout NearestQueue, bound: inout NearestBound) {
        guard let rank = spatial.rank(at: position) else { return }
        let latitude = GreatCircle.radians(contents.records.latitudeMicrodegrees(ofRank: rank))
        guard GreatCircle.leastHaversine(latitudeDifference: origin.latitude - latitude) <= bound.value else { return }
        if minimumPopulation > 0, contents.population(ofRank: rank) < minimumPopulation { return }
        if let countries, !countries.contains(contents.records.countryCode(ofRank: rank)) { return }
        let longitude = GreatCircle.radians(contents.records.longitudeMicrodegrees(ofRank: rank))
        let h = GreatCircle.haversine(latitude: origin.latitude, cosLatitude: origin.cosLatitude, otherLatitude: latitude,
                                      longitudeDifference: origin.longitude - longitude)
        guard h <= bound.value else { return }
        bound.add(h)
        queue.push(Item(key: h, lo: Item.city, hi: rank, axis: 0, node: 0, south: 0, north: 0, west: 0, east: 0))
    }

    /// Queues the median city at tree position `position`, keyed by the box it lies on.
    @inline(__always)
    private func push(median position: Int, south: Double, north: Double, west: Double, east: Double,
                      into queue: inout NearestQueue, bound: NearestBound) {
        let h = origin.leastHaversine(south: south, north: north, west: west, east: east, unlessAbove: bound.value)
        guard h <= bound.value else { return }
        queue.push(Item(key: h, lo: Item.median, hi: position, axis: 0, node: 0, south: 0, north: 0, west: 0, east: 0))
    }

    /// Queues the node `lo ... hi` (nothing when empty or too far).
    @inline(__always)
    private func push(node lo: Int, _ hi: Int, axis: Int, number: Int, south: Double, north: Double, west: Double, east: Double,
                      into queue: inout NearestQueue, bound: NearestBound) {
        guard lo <= hi else { return }
        let h = origin.leastHaversine(south: south, north: north, west: west, east: east, unlessAbove: bound.value)
        guard h <= bound.value else { return }
        queue.push(Item(key: h, lo: lo, hi: hi, axis: axis, node: number, south: south, north: north, west: west, east: east))
    }
}

/// The farthest of the `k` nearest cities a search has queued (`value`), or the search's
/// largest haversine while fewer are queued: nothing farther can be among its results. A
/// max-heap of the `k` smallest distances, in a buffer it does not own; O(log *k*) per city.
struct NearestBound {
    private let distances: UnsafeMutableBufferPointer<Double>
    private var count = 0
    private(set) var value: Double

    init(storage: UnsafeMutableBufferPointer<Double>, largest: Double) {
        distances = storage
        value = largest
    }

    /// Counts a queued city at haversine `h` (at most `value`).
    @inline(__always)
    mutating func add(_ h: Double) {
        guard !distances.isEmpty else { return }
        if count < distances.count {
            var child = count
            count += 1
            while child > 0 {
                let parent = (child - 1) >> 1
                guard distances[parent] < h else { break }
                distances[child] = distances[parent]
                child = parent
            }
            distances[child] = h
            if count == distances.count { value = distances[0] }
            return
        }
        guard h < distances[0] else { return }
        // Replace the largest and sift it down.
        var parent = 0
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, distances[child + 1] > distances[child] { child += 1 }
            guard distances[child] > h else { break }
            distances[parent] = distances[child]
            parent = child
        }
        distances[parent] = h
        value = distances[0]
    }
}

/// A binary min-heap of `NearestSearch.Item`s (`Item.precedes`), in a buffer it does not own until it
/// overflows (then in memory it allocates, doubling, and frees in `release`).
struct NearestQueue {
    private var items: UnsafeMutableBufferPointer<NearestSearch.Item>
    private var ownsItems = false
    private var count = 0

    init(storage: UnsafeMutableBufferPointer<NearestSearch.Item>) { items = storage }

    mutating func push(_ item: NearestSearch.Item) {
        if count == items.count { grow() }
        var child = count
        count += 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard item.precedes(items[parent]) else { break }
            items[child] = items[parent]
            child = parent
        }
        items[child] = item
    }

    mutating func pop() -> NearestSearch.Item? {
        guard count > 0 else { return nil }
        let top = items[0]
        count -= 1
        guard count > 0 else { return top }
        let last = items[count]
        var parent = 0
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, items[child + 1].precedes(items[child]) { child += 1 }
            guard items[child].precedes(last) else { break }
            items[parent] = items[child]
            parent = child
        }
        items[parent] = last
        return top
    }

    private mutating func grow() {
        let larger = UnsafeMutableBufferPointer<NearestSearch.Item>.allocate(capacity: max(16, items.count * 2))
        _ = larger.initialize(from: items[0 ..< count])
        if ownsItems { items.deallocate() }
        items = larger
        ownsItems = true
    }

    /// Frees what `grow` allocated.
    mutating func release() {
        if ownsItems { items.deallocate() }
        ownsItems = false
    }
}
