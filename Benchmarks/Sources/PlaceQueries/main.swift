// PlaceQueries: nearest-city search (CityIndex.nearest, the k-d tree of GEOK) against a linear
// scan over every city, on the same seeded points; then the recommended search with and
// without a location, and queries that name a place, in one run.
//
// Usage: PlaceQueries INDEX [POINTS]
// Prints two Markdown tables: p50 and p99 per query, and the ratios.
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
let cities: [City] = try index.search("").map(\.city)
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

// The recommended search (words, population, typos forgiven) typed as people type: the first
// 3 to 10 letters of seeded cities' names; each query without a location and from a seeded
// city's place, alternately, the fastest of two each. Then "name region" and "name, country".
var random = Seeded(state: 9)
let typed: [String] = (0 ..< min(pointCount, 5_000)).map { _ in
    let name = Array(cities[Int.random(in: 0 ..< cities.count, using: &random)].name)
    return String(name.prefix(Int.random(in: 3 ... 10, using: &random)))
}
let places = points(nearCities: true, count: typed.count, seed: 3)
var plainTimes: [Double] = [], biasedTimes: [Double] = []
func fastest(_ body: () -> Void) -> Double { min(time(body), time(body)) }
for (query, point) in zip(typed, places) {
    plainTimes.append(fastest {
        sink &+= (try? index.search(query, matching: .words, order: .population, limit: 10, typos: .automatic))?.first?.id ?? 0
    })
    biasedTimes.append(fastest {
        sink &+= (try? index.search(query, matching: .words, order: .population, limit: 10, typos: .automatic, near: point))?.first?.id ?? 0
    })
}
var qualifiedTimes: [Double] = []
var qualifiedQueries: [String] = []
for city in cities.shuffled(using: &random) where qualifiedQueries.count < min(pointCount, 2_000) {
    guard let region = city.region, let name = region.name, city.name.allSatisfy({ $0.isASCII }) else { continue }
    qualifiedQueries.append(qualifiedQueries.count % 2 == 0 ? city.name + " " + (region.abbreviation ?? name)
                            : city.name + ", " + (city.country?.name ?? city.countryCode))
}
for query in qualifiedQueries {
    qualifiedTimes.append(fastest {
        sink &+= (try? index.search(query, matching: .words, order: .population, limit: 10, typos: .automatic))?.first?.id ?? 0
    })
}
plainTimes.sort(); biasedTimes.sort(); qualifiedTimes.sort()
print("")
print("| search (words, population, typos auto, limit 10) | queries | p50 | p99 | p50 / unbiased | p99 / unbiased |")
print("|---|---:|---:|---:|---:|---:|")
let (plain50, plain99) = (percentile(plainTimes, 0.5), percentile(plainTimes, 0.99))
print("| unbiased | \(plainTimes.count) | \(format(plain50)) | \(format(plain99)) | 1.00 | 1.00 |")
print("| near a seeded city | \(biasedTimes.count) | \(format(percentile(biasedTimes, 0.5))) | \(format(percentile(biasedTimes, 0.99))) | "
      + String(format: "%.2f | %.2f |", percentile(biasedTimes, 0.5) / plain50, percentile(biasedTimes, 0.99) / plain99))
print("| \"name region\" and \"name, country\" | \(qualifiedTimes.count) | \(format(percentile(qualifiedTimes, 0.5))) | "
      + "\(format(percentile(qualifiedTimes, 0.99))) | - | - |")
if sink == 42 { print("") }   // keeps the results alive
