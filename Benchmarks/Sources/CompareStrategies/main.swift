// CompareStrategies: every search strategy on the same data and queries, in one process,
// with ratios to the naive filter measured in the same run. Prints a Markdown report.
//
//   CompareStrategies INPUT WORKDIR [QUERIES_PER_LENGTH] [NAIVE_QUERIES_PER_LENGTH]
//
// Compares: naive filter (baseline), folded linear scan, sorted keys + binary search,
// class-node trie, SQLite range query, SQLite FTS5, CityIndex.
// Workload: queries of 1–10 characters drawn from the input's names (seeded), as written,
// lower-cased, upper-cased and accent-stripped, in random order.
// Reports: load time, query p50/p99 overall and p50 by query length, agreement with the
// index, peak memory (a child process per strategy), sizes and build times.
import CityIndex
import CityIndexArtifacts
import CityIndexBuilder
import Foundation
import SearchStrategies

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: CompareStrategies INPUT WORKDIR [QUERIES_PER_LENGTH] [NAIVE_QUERIES_PER_LENGTH]\n".utf8))
    exit(64)
}
let inputPath = arguments[1]
let workDirectory = URL(fileURLWithPath: arguments[2])
let queriesPerLength = arguments.count > 3 ? Int(arguments[3])! : 200
let naiveQueriesPerLength = arguments.count > 4 ? Int(arguments[4])! : 20
let onlyStrategy = ProcessInfo.processInfo.environment["COMPARE_ONLY"]
let indexPath = workDirectory.appendingPathComponent("cities.cidx").path
let databasePath = workDirectory.appendingPathComponent("cities.sqlite").path

func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let value = try body()
    return (value, seconds(ContinuousClock.now - start))
}

/// Peak resident memory of this process image (VmHWM: unlike getrusage's maxrss, it starts
/// anew at exec, so a child does not inherit its parent's peak).
func peakResidentMebibytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
    return kilobytes / 1024
}

func formatDuration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "-" }
    switch seconds {
    case ..<1e-6: return String(format: "%.0f ns", seconds * 1e9)
    case ..<1e-3: return String(format: "%.1f µs", seconds * 1e6)
    case ..<1: return String(format: "%.1f ms", seconds * 1e3)
    default: return String(format: "%.2f s", seconds)
    }
}

func formatRatio(_ ratio: Double) -> String {
    ratio >= 100 ? String(format: "%.0fx", ratio) : String(format: "%.1fx", ratio)
}

// MARK: Workload

// The queries: `makeQueries` (SearchStrategies), the same in every run.

// MARK: Run one strategy

struct StrategyReport {
    var name: String
    var loadSeconds: Double
    var durationsByLength: [Int: [Double]] = [:]
    var agreed = 0
    var compared = 0
    var peakMebibytes: Double?

    var allDurations: [Double] { durationsByLength.values.flatMap { $0 }.sorted() }
}

func run(_ strategy: some SearchStrategy, name: String, loadSeconds: Double,
         queries: [(length: Int, text: String)], expected: [String: SearchAnswer]) -> StrategyReport {
    var report = StrategyReport(name: name, loadSeconds: loadSeconds)
    for _ in 0..<3 { _ = strategy.search(queries[0].text, limit: 20) }   // warm up
    for query in queries {
        let (answer, elapsed) = measure { strategy.search(query.text, limit: 20) }
        report.durationsByLength[query.length, default: []].append(elapsed)
        if let reference = expected[query.text] {
            report.compared += 1
            if answer == reference { report.agreed += 1 }
        }
    }
    return report
}

// MARK: Main

try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
/// The decompressed JSON, read once and only where needed (a child measuring the index or
/// SQLite never reads it, so its peak memory is the strategy's own).
nonisolated(unsafe) var jsonCache: Data?
func jsonData() throws -> Data {
    if let jsonCache { return jsonCache }
    let data = Data(try InputReading.decompressedBytes(path: inputPath))
    jsonCache = data
    return data
}

struct Workload: Codable {
    var queries: [Query]
    var naiveQueries: [Query]
    var cityCount: Int
    struct Query: Codable {
        var length: Int
        var text: String
    }
}
let workloadPath = workDirectory.appendingPathComponent("workload.json")
let workload: Workload
if onlyStrategy == nil {
    let decoded = try JSONDecoder().decode([DecodedCity].self, from: try jsonData())
    let names = decoded.map(\.name)
    let toQueries = { (list: [(length: Int, text: String)]) in list.map { Workload.Query(length: $0.length, text: $0.text) } }
    workload = Workload(queries: toQueries(makeQueries(names: names, perLength: queriesPerLength, seed: 2026)),
                        naiveQueries: toQueries(makeQueries(names: names, perLength: naiveQueriesPerLength, seed: 2026)),
                        cityCount: names.count)
    try JSONEncoder().encode(workload).write(to: workloadPath)
} else {
    workload = try JSONDecoder().decode(Workload.self, from: Data(contentsOf: workloadPath))
}
let queries = workload.queries.map { (length: $0.length, text: $0.text) }
let naiveQueries = workload.naiveQueries.map { (length: $0.length, text: $0.text) }

var indexBuildSeconds = 0.0
var databaseBuildSeconds = 0.0
if onlyStrategy == nil {
    // As `build-index` does: the places.json beside the list names its countries and regions.
    var builder = IndexBuilder()
    let placesPath = URL(fileURLWithPath: inputPath).deletingLastPathComponent().appendingPathComponent("places.json").path
    if FileManager.default.fileExists(atPath: placesPath) { builder.places = try PlaceNames(contentsOfFile: placesPath) }
    indexBuildSeconds = try measure { _ = try builder.build(inputPath: inputPath, outputPath: indexPath) }.1
    let decoded = try JSONDecoder().decode([DecodedCity].self, from: try jsonData())
    databaseBuildSeconds = try measure { try SQLiteCityDatabase.build(cities: decoded, at: databasePath) }.1
}

// The oracle: CityIndex, itself tested against the naive reference of SEARCH.md.
let oracle = try CityIndex(path: indexPath)
var expected: [String: SearchAnswer] = [:]
for query in queries + naiveQueries where expected[query.text] == nil && onlyStrategy == nil {
    let matches = try oracle.search(query.text)
    expected[query.text] = SearchAnswer(count: matches.count, ids: matches.prefix(20).map(\.id),
                                        highlights: matches.prefix(20).map { $0.highlightUTF16Range.count })
}

typealias Runner = () throws -> StrategyReport
var runners: [(String, Runner)] = [
    (NaiveFilter.name, {
        let json = try jsonData()
        let (strategy, load) = try measure { try NaiveFilter(json: json) }
        return run(strategy, name: NaiveFilter.name, loadSeconds: load, queries: naiveQueries, expected: expected)
    }),
    (FoldedLinearScan.name, {
        let json = try jsonData()
        let (strategy, load) = try measure { FoldedLinearScan(cities: try JSONDecoder().decode([DecodedCity].self, from: json)) }
        return run(strategy, name: FoldedLinearScan.name, loadSeconds: load, queries: naiveQueries, expected: expected)
    }),
    (SortedKeysBinarySearch.name, {
        let json = try jsonData()
        let (strategy, load) = try measure { SortedKeysBinarySearch(cities: try JSONDecoder().decode([DecodedCity].self, from: json)) }
        return run(strategy, name: SortedKeysBinarySearch.name, loadSeconds: load, queries: queries, expected: expected)
    }),
    (ClassTrie.name, {
        let json = try jsonData()
        let (strategy, load) = try measure { ClassTrie(cities: try JSONDecoder().decode([DecodedCity].self, from: json)) }
        return run(strategy, name: ClassTrie.name, loadSeconds: load, queries: queries, expected: expected)
    }),
    (SQLiteRangeQuery.name, {
        let (strategy, load) = try measure { try SQLiteRangeQuery(path: databasePath) }
        return run(strategy, name: SQLiteRangeQuery.name, loadSeconds: load, queries: queries, expected: expected)
    }),
    (SQLiteFullTextSearch.name, {
        let (strategy, load) = try measure { try SQLiteFullTextSearch(path: databasePath) }
        return run(strategy, name: SQLiteFullTextSearch.name, loadSeconds: load, queries: queries, expected: expected)
    }),
    (MappedIndex.name, {
        let (strategy, load) = try measure { try MappedIndex(path: indexPath) }
        return run(strategy, name: MappedIndex.name, loadSeconds: load, queries: queries, expected: expected)
    }),
] + [(MatchMode.prefix, ResultOrder.population, TypoTolerance.none), (.words, .alphabetical, .none), (.words, .population, .none),
      (.prefix, .population, .automatic), (.words, .population, .automatic)].map { matching, order, typos in
    // The other modes answer differently from SEARCH.md by design: timed, not compared.
    let name = MappedIndex.name(matching: matching, order: order, typos: typos)
    return (name, {
        let (strategy, load) = try measure { try MappedIndex(path: indexPath, matching: matching, order: order, typos: typos) }
        return run(strategy, name: name, loadSeconds: load, queries: queries, expected: [:])
    })
}

// COMPARE_FILTER=TEXT: only the naive filter (the ratios' baseline) and strategies whose name
// contains TEXT (for a quick look; the report is then partial).
if let filter = ProcessInfo.processInfo.environment["COMPARE_FILTER"] {
    runners = runners.enumerated().filter { $0.offset == 0 || $0.element.0.contains(filter) }.map(\.element)
}

if let onlyStrategy {
    // Child mode: load and query one strategy, print its peak memory.
    guard let runner = runners.first(where: { $0.0 == onlyStrategy })?.1 else { exit(64) }
    _ = try runner()
    print(peakResidentMebibytes())
    exit(0)
}

var reports = try runners.map { try $0.1() }

// Peak memory: each strategy alone in a child process.
for index in reports.indices {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [inputPath, workDirectory.path, String(queriesPerLength), String(naiveQueriesPerLength)]
    process.environment = ProcessInfo.processInfo.environment.merging(["COMPARE_ONLY": reports[index].name]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    reports[index].peakMebibytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
}

// MARK: Report

let naive = reports[0]
let naiveP50 = percentile(ofSorted: naive.allDurations, 0.5)
let fileSize = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
var lines: [String] = []
lines.append("Input: `\(inputPath)`: \(workload.cityCount) cities, \(try jsonData().count) bytes of JSON. "
             + "\(queries.count) queries (\(queriesPerLength) per length 1–10; naive filter and linear scan: \(naiveQueries.count)).")
lines.append("")
lines.append("| strategy | load | load vs naive | query p50 | query p99 | p50 vs naive | agrees with SEARCH.md | peak memory |")
lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
for report in reports {
    let sorted = report.allDurations
    let p50 = percentile(ofSorted: sorted, 0.5)
    let agreement = report.compared == 0 ? "-" : String(format: "%.1f%%", 100 * Double(report.agreed) / Double(report.compared))
    lines.append("| \(report.name) | \(formatDuration(report.loadSeconds)) | \(formatRatio(naive.loadSeconds / report.loadSeconds)) | "
                 + "\(formatDuration(p50)) | \(formatDuration(percentile(ofSorted: sorted, 0.99))) | \(formatRatio(naiveP50 / p50)) | "
                 + "\(agreement) | \(report.peakMebibytes.map { String(format: "%.0f MiB", $0) } ?? "-") |")
}
lines.append("")
lines.append("Query p50 by query length (characters):")
lines.append("")
lines.append("| strategy | " + (1...10).map(String.init).joined(separator: " | ") + " |")
lines.append("|---|" + String(repeating: "---:|", count: 10))
for report in reports {
    let cells = (1...10).map { length in
        formatDuration(percentile(ofSorted: (report.durationsByLength[length] ?? []).sorted(), 0.5))
    }
    lines.append("| \(report.name) | " + cells.joined(separator: " | ") + " |")
}
lines.append("")
lines.append("| artifact | bytes | build time |")
lines.append("|---|---:|---:|")
lines.append("| JSON (decompressed) | \(try jsonData().count) | - |")
lines.append("| CityIndex file | \(fileSize(indexPath)) | \(formatDuration(indexBuildSeconds)) |")
lines.append("| SQLite database (table, B-tree index, FTS5) | \(fileSize(databasePath)) | \(formatDuration(databaseBuildSeconds)) |")
print(lines.joined(separator: "\n"))
