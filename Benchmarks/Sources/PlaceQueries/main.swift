// PlaceQueries: nearest-city search (CityIndex.nearest, the k-d tree of GEOK) against a linear
// scan over every city, on the same seeded points, in one run.
//
// Usage: PlaceQueries INDEX [POINTS]
// Prints a Markdown table: p50 and p99 per query of each, and the scan's time over the index's.
import CityIndex
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: PlaceQueries INDEX [POINTS]\n".utf8))
    exit(64)
}
let index = try CityIndex(path: arguments[1])
let pointCount = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000

/// SplitMix64, so every run draws the same points.
struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// Every city's coordinates, read once through the public API (the scan's data).
var cities: [City] = []
let all = try index.search("")
cities.reserveCapacity(all.count)
for match in all { cities.append(match.city) }
let vectors: [SIMD3<Double>] = cities.map { city in
    let (φ, λ) = (city.latitude * .pi / 180, city.longitude * .pi / 180)
    return SIMD3(cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
}

/// The best a careful engineer writes without a tree: one pass over unit vectors, the `k`
/// largest dot products kept in a small sorted array.
func scanNearest(_ point: Coordinate, k: Int) -> [Int] {
    let (φ, λ) = (point.latitude * .pi / 180, point.longitude * .pi / 180)
    let p = SIMD3(cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    var best: [(dot: Double, index: Int)] = []
    best.reserveCapacity(k + 1)
    var floor = -Double.infinity
    for index in vectors.indices {
        let dot = (vectors[index] * p).sum()
        guard dot > floor || best.count < k else { continue }
        let position = best.firstIndex { $0.dot < dot } ?? best.count
        best.insert((dot, index), at: position)
        if best.count > k { best.removeLast() }
        if best.count == k { floor = best[k - 1].dot }
    }
    return best.map(\.index)
}

/// Points where people are (a city's place moved by up to about 20 km), and points anywhere
/// on the sphere (mostly sea: the tree's hard case).
func points(nearCities: Bool, count: Int, seed: UInt64) -> [Coordinate] {
    var random = Seeded(state: seed)
    return (0 ..< count).map { _ in
        if nearCities {
            let city = cities[Int.random(in: 0 ..< cities.count, using: &random)]
            let latitude = min(90, max(-90, city.latitude + Double.random(in: -0.2 ... 0.2, using: &random)))
            var longitude = city.longitude + Double.random(in: -0.2 ... 0.2, using: &random)
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            return try! Coordinate(latitude: latitude, longitude: longitude)
        }
        let latitude = asin(Double.random(in: -1 ... 1, using: &random)) * 180 / .pi
        return try! Coordinate(latitude: latitude, longitude: Double.random(in: -180 ... 180, using: &random))
    }
}

func time(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

func format(_ seconds: Double) -> String {
    seconds < 1e-3 ? String(format: "%.2f µs", seconds * 1e6) : String(format: "%.2f ms", seconds * 1e3)
}

print("| query | points | CityIndex p50 | CityIndex p99 | linear scan p50 | scan p50 / CityIndex p50 |")
print("|---|---:|---:|---:|---:|---:|")
var sink = 0
for (label, nearCities) in [("near cities", true), ("anywhere", false)] {
    for k in [1, 10] {
        let queryPoints = points(nearCities: nearCities, count: pointCount, seed: k == 1 ? 1 : 2)
        // Warm up, then time each query twice and keep the faster (a scheduler's hiccup is not the search).
        for point in queryPoints.prefix(200) { sink &+= (try? index.nearest(to: point, limit: k))?.count ?? 0 }
        var indexTimes: [Double] = []
        for point in queryPoints {
            var fastest = Double.infinity
            for _ in 0 ..< 2 {
                fastest = min(fastest, time { sink &+= (try? index.nearest(to: point, limit: k))?.first?.city.id ?? 0 })
            }
            indexTimes.append(fastest)
        }
        var scanTimes: [Double] = []
        for point in queryPoints.prefix(max(20, pointCount / 50)) {
            scanTimes.append(time { sink &+= scanNearest(point, k: k).first ?? 0 })
        }
        indexTimes.sort()
        scanTimes.sort()
        let p50 = percentile(indexTimes, 0.5)
        print("| nearest k=\(k), \(label) | \(indexTimes.count) | \(format(p50)) | \(format(percentile(indexTimes, 0.99))) | "
              + "\(format(percentile(scanTimes, 0.5))) | \(String(format: "%.0fx", percentile(scanTimes, 0.5) / p50)) |")
    }
}
if sink == 42 { print("") }   // keeps the results alive
