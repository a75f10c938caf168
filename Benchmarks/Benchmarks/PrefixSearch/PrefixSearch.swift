// PrefixSearch.swift: heap allocations and time per query, per strategy (package-benchmark).
//
// Compares: CityIndex (mapped) vs sorted keys + binary search vs class-node trie vs SQLite
//           range query vs the naive filter (baseline).
// Workload: 64 queries of 1–8 characters drawn from the dataset's names (seeded);
//           one benchmark iteration answers one query: count + first 20 ids and highlights,
//           and, for "search + count + 20 ids and coordinates", the index alone with no
//           String made.
// Dataset:  $CITYINDEX_BENCHMARK_INPUT (default ../Data/cities500.json.xz); the index and
//           database come from $CITYINDEX_BENCHMARK_WORK (written by CompareStrategies).
import Benchmark
import CityIndex
import CityIndexArtifacts
import CityIndexBuilder
import Foundation
import SearchStrategies

let benchmarks: @Sendable () -> Void = {
    let environment = ProcessInfo.processInfo.environment
    let input = environment["CITYINDEX_BENCHMARK_INPUT"] ?? "../Data/cities500.json.xz"
    let work = environment["CITYINDEX_BENCHMARK_WORK"] ?? ".build/compare"
    let indexPath = work + "/cities.cidx"
    let databasePath = work + "/cities.sqlite"
    guard FileManager.default.fileExists(atPath: indexPath), FileManager.default.fileExists(atPath: databasePath),
          let json = try? Data(InputReading.decompressedBytes(path: input)),
          let cities = try? JSONDecoder().decode([DecodedCity].self, from: json) else {
        print("PrefixSearch: run CompareStrategies first to write \(indexPath) and \(databasePath)")
        return
    }
    var state: UInt64 = 7
    let queries: [String] = (0..<64).map { index in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let name = cities[Int(state >> 33) % cities.count].name
        return String(name.prefix(1 + index % 8))
    }

    let smoke = environment["CITYINDEX_BENCHMARK_SMOKE"] != nil
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: smoke ? .milliseconds(50) : .seconds(2),
                                           maxIterations: smoke ? 100 : 100_000)

    func register(_ strategy: some SearchStrategy, name: String) {
        Benchmark("prefix search / \(name)") { benchmark in
            for iteration in benchmark.scaledIterations {
                blackHole(strategy.search(queries[iteration % queries.count], limit: 20))
            }
        }
    }

    // What the harness itself costs per iteration: subtract it from the rows below.
    Benchmark("harness overhead / picking a query") { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(queries[iteration % queries.count])
        }
    }

    let index = try! CityIndex(path: indexPath)
    Benchmark("search + count + 20 ids and coordinates / CityIndex (mapped)") { benchmark in
        for iteration in benchmark.scaledIterations {
            let matches = try! index.search(queries[iteration % queries.count])
            var checksum = matches.count
            for match in matches.prefix(20) {
                checksum &+= match.id &+ Int(match.latitudeMicrodegrees) &+ Int(match.longitudeMicrodegrees)
            }
            blackHole(checksum)
        }
    }
    register(try! MappedIndex(path: indexPath), name: MappedIndex.name)
    register(SortedKeysBinarySearch(cities: cities), name: SortedKeysBinarySearch.name)
    register(ClassTrie(cities: cities), name: ClassTrie.name)
    register(try! SQLiteRangeQuery(path: databasePath), name: SQLiteRangeQuery.name)
    let naive = try! NaiveFilter(json: json)
    Benchmark("prefix search / \(NaiveFilter.name)", configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                                                                          maxDuration: .seconds(smoke ? 0 : 2), maxIterations: smoke ? 2 : 50)) { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(naive.search(queries[iteration % queries.count], limit: 20))
        }
    }
}
