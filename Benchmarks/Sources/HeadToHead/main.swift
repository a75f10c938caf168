// HeadToHead: the default query (SEARCH.md: count + first 20 with highlights) of CityIndex
// against the sorted-array baseline, interleaved query by query in one process, so that both
// see the same machine state (issue 11's "2x faster than a careful sorted array" target).
//
// Usage: HeadToHead INPUT INDEX [REPEATS] [--cold]   (HEAD_TO_HEAD_QUERIES=N: the first N queries only)
// INPUT is the cities JSON (plain, .gz or .xz) the INDEX was built from. Each of the 2,000
// seeded queries (CompareStrategies' workload) runs on the baseline, then on the index, REPEATS
// times (default 5); each strategy keeps its fastest time per query. Prints the p50 and p99 of
// both, and the ratio of the p50s, as one JSON object; exits 1 when the answers differ.
// Warm (default): both strategies' data stay in the caches between queries (on this machine
// all of it fits in the 32 MiB L3). --cold: before every timed query, 64 MiB of other memory is
// written, so each query starts with the caches holding none of either strategy's data, as
// when an app answers a keystroke after doing other work.
import CityIndex
import CityIndexArtifacts
import Foundation
import SearchStrategies

let arguments = CommandLine.arguments
let cold = arguments.contains("--cold")
let positional = arguments.filter { $0 != "--cold" }
guard positional.count == 3 || positional.count == 4 else {
    FileHandle.standardError.write(Data("usage: HeadToHead INPUT INDEX [REPEATS] [--cold]\n".utf8))
    exit(64)
}
let repeats = positional.count == 4 ? max(1, Int(positional[3]) ?? 5) : 5
let cities = try JSONDecoder().decode([DecodedCity].self, from: Data(try InputReading.decompressedBytes(path: positional[1])))
let baseline = SortedKeysBinarySearch(cities: cities)
let mapped = try MappedIndex(path: positional[2])
/// HEAD_TO_HEAD_QUERIES=N keeps the first N queries (e.g. to run under a cache simulator).
let queryLimit = ProcessInfo.processInfo.environment["HEAD_TO_HEAD_QUERIES"].flatMap { Int($0) } ?? .max
let queries = Array(makeQueries(names: cities.map(\.name), perLength: 200, seed: 2026).map(\.text).prefix(queryLimit))

let clock = ContinuousClock()
var baselineTimes = [Double](repeating: .infinity, count: queries.count)
var indexTimes = baselineTimes
var disagreements = 0
/// Memory written before each timed query in the cold mode (larger than the last-level cache).
var evictionBuffer = [UInt64](repeating: 0, count: cold ? 8 << 20 : 0)
@MainActor func evictCaches() {
    guard cold else { return }
    evictionBuffer.withUnsafeMutableBufferPointer { words in
        for index in stride(from: 0, to: words.count, by: 8) { words[index] &+= 1 }
    }
}
for pass in 0 ..< repeats {
    for (position, query) in queries.enumerated() {
        evictCaches()
        var start = clock.now
        let expected = baseline.search(query, limit: 20)
        baselineTimes[position] = min(baselineTimes[position], seconds(clock.now - start))
        evictCaches()
        start = clock.now
        let answer = mapped.search(query, limit: 20)
        indexTimes[position] = min(indexTimes[position], seconds(clock.now - start))
        // Compared outside the timed calls, on the first pass only.
        if pass == 0 && answer != expected {
            disagreements += 1
            if disagreements <= 5 { FileHandle.standardError.write(Data("answers differ: \(query) (query \(position))\n".utf8)) }
        }
    }
}
/// The percentile of `times` (seconds) in microseconds.
func percentileMicroseconds(_ times: [Double], _ fraction: Double) -> Double { percentile(ofSorted: times.sorted(), fraction) * 1e6 }
let (baselineP50, indexP50) = (percentileMicroseconds(baselineTimes, 0.5), percentileMicroseconds(indexTimes, 0.5))
print("{\"cache\": \"\(cold ? "cold" : "warm")\", " + String(format: "\"queries\": %d, \"repeats\": %d, \"baseline_p50_us\": %.3f, \"baseline_p99_us\": %.3f, "
             + "\"index_p50_us\": %.3f, \"index_p99_us\": %.3f, \"speedup_p50\": %.2f}",
             queries.count, repeats, baselineP50, percentileMicroseconds(baselineTimes, 0.99), indexP50,
             percentileMicroseconds(indexTimes, 0.99), baselineP50 / indexP50))
exit(disagreements == 0 ? 0 : 1)
