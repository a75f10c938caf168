// NearestSearch.swift: the k nearest cities to a point, best first over the implicit k-d tree.

/// A best-first search of `GEOK` (FORMAT.md §7.12): one priority queue holds tree nodes, keyed
/// by the least haversine from the point to their box (`GreatCircle.leastHaversine`), and
/// cities, keyed by their own; the queue's first item is never farther than anything under or
/// after it, so the cities come out nearest first (equal distances by rank: at equal keys
/// nodes come first), and the search stops after `limit` of them or at the first item past
/// `within`.
///
/// A node's box is its parent's with one side moved to the parent's median city (its
/// coordinate on the parent's axis); the root's is the whole Earth. A node of at most
/// `nodeSize` cities puts each city in the queue; a larger one its median city and its two
/// children.
///
/// - Complexity: O(log *n* + *k*) nodes and cities for cities spread over the Earth as real
///   ones are (each opened node adds at most `nodeSize` items; *k* = `limit`), O(*n*) at worst:
///   every node is opened at most once whatever the file holds. The queue lives in a
///   temporary allocation of `queueCapacity` items, on the stack when it fits there, and moves
///   to the heap only if it overflows.
struct NearestSearch {
    /// A node (`lo ... hi`, `axis`, its box) or, with `lo < 0`, the city of rank `hi`.
    struct Item {
        var key: Double
        var lo: Int
        var hi: Int
        var axis: Int
        var south: Double, north: Double, west: Double, east: Double

        /// Smaller key first; at equal keys nodes before cities (so every city at that
        /// distance is queued before one is reported), and cities by rank.
        @inline(__always)
        func precedes(_ other: Item) -> Bool {
            if key != other.key { return key < other.key }
            if (lo < 0) != (other.lo < 0) { return lo >= 0 }
            return lo < 0 && hi < other.hi
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

    /// The nearest `limit` cities, nearest first, each with its haversine.
    func run(limit: Int) -> [(rank: Int, haversine: Double)] {
        guard limit > 0, spatial.count > 0 else { return [] }
        return withUnsafeTemporaryAllocation(of: Item.self, capacity: Self.queueCapacity(limit: limit)) { buffer in
            var queue = NearestQueue(storage: buffer)
            defer { queue.release() }
            var results: [(rank: Int, haversine: Double)] = []
            results.reserveCapacity(min(limit, spatial.count))
            let halfPi = Double.pi / 2
            push(node: 0, spatial.count - 1, axis: 0, south: -halfPi, north: halfPi, west: -.pi, east: .pi, into: &queue)
            while results.count < limit, let item = queue.pop() {
                if item.key > largestHaversine { break }
                if item.lo < 0 {
                    results.append((item.hi, item.key))
                    continue
                }
                let (lo, hi) = (item.lo, item.hi)
                if hi - lo + 1 <= spatial.nodeSize {
                    for position in lo ... hi { push(cityAt: position, into: &queue) }
                    continue
                }
                let middle = (lo + hi) >> 1
                push(cityAt: middle, into: &queue)
                guard let rank = spatial.rank(at: middle) else { continue }
                let axis = item.axis
                if axis == 0 {
                    let split = GreatCircle.radians(contents.records.longitudeMicrodegrees(ofRank: rank))
                    push(node: lo, middle - 1, axis: 1, south: item.south, north: item.north, west: item.west, east: split, into: &queue)
                    push(node: middle + 1, hi, axis: 1, south: item.south, north: item.north, west: split, east: item.east, into: &queue)
                } else {
                    let split = GreatCircle.radians(contents.records.latitudeMicrodegrees(ofRank: rank))
                    push(node: lo, middle - 1, axis: 0, south: item.south, north: split, west: item.west, east: item.east, into: &queue)
                    push(node: middle + 1, hi, axis: 0, south: split, north: item.north, west: item.west, east: item.east, into: &queue)
                }
            }
            return results
        }
    }

    /// Queues the city at tree position `position`, unless it is too far or too small.
    @inline(__always)
    private func push(cityAt position: Int, into queue: inout NearestQueue) {
        guard let rank = spatial.rank(at: position) else { return }
        if minimumPopulation > 0, contents.population(ofRank: rank) < minimumPopulation { return }
        if let countries, !countries.contains(contents.records.countryCode(ofRank: rank)) { return }
        let h = origin.haversine(to: rank, in: contents)
        guard h <= largestHaversine else { return }
        queue.push(Item(key: h, lo: -1, hi: rank, axis: 0, south: 0, north: 0, west: 0, east: 0))
    }

    /// Queues the node `lo ... hi` (nothing when empty or too far).
    @inline(__always)
    private func push(node lo: Int, _ hi: Int, axis: Int, south: Double, north: Double, west: Double, east: Double,
                      into queue: inout NearestQueue) {
        guard lo <= hi else { return }
        let h = GreatCircle.leastHaversine(latitude: origin.latitude, longitude: origin.longitude, cosLatitude: origin.cosLatitude,
                                           south: south, north: north, west: west, east: east)
        guard h <= largestHaversine else { return }
        queue.push(Item(key: h, lo: lo, hi: hi, axis: axis,
                        south: south, north: north, west: west, east: east))
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
