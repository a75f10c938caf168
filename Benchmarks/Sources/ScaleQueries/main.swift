// ScaleQueries: query latency of every CityIndex search mode on one index file, for
// Scripts/measure-scale.sh (issue 15: latency against the number of cities).
//
// Usage: ScaleQueries INDEX [QUERIES]
// Prints one JSON object: the open time, and per mode the p50, p99, mean and maximum (with the
// slowest query) of 2,000 seeded queries
// (200 per length 1–10, prefixes of the names of random cities of the index: as written,
// lower-, upper-cased and accent-stripped), each answering the count and the first 20
// matches with their ids and highlights, after one warm-up pass. QUERIES, a text file of one
// query per line, replaces the seeded queries (to time one kind of query, e.g. multi-word).
//
// For A/B runs of one change (two builds, alternated): SCALE_QUERIES_REPEAT=N times each query
// N times and keeps its fastest (the p50 and p99 of per-query minima, which a shared machine's
// pauses move less than single timings), and SCALE_QUERIES_MODE=TEXT times only the modes whose
// name contains TEXT (e.g. "words --rank population --typos"), SCALE_QUERIES_ONLY=NAME only the
// mode of that exact name, and SCALE_QUERIES_PER_LENGTH=N draws N seeded queries per length
// instead of 200 (both for Scripts/compare-readers.sh's instruction counts). SCALE_QUERIES_DUMP=1 writes each
// query's time in µs and the query to standard error, one per line (to find the slow ones).
// SCALE_QUERIES_NEAR=LAT,LON adds the recommended mode searched from that point.
// SCALE_QUERIES_THREADS=N searches with N threads per typo-tolerant search (city-server: 1).
// SCALE_QUERIES_TIMES=PATH writes every query's time in µs, per mode, to PATH as one JSON object
// ({"mode": [µs, …]} in query order), for Scripts/compare-readers.sh.
// SCALE_QUERIES_ANSWERS=PATH times nothing: it writes every query's answer in every mode, and
// with countries, a point and a radius, to PATH (one line each: the count, then each of the
// first 20 matches' id, matched name, edits, highlight and skipped words), for
// Scripts/compare-answers.sh. Only the options of 0.13.0's overloads, so any reader since runs it.
import CityIndex
import Foundation
import SearchStrategies

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ScaleQueries INDEX [QUERIES]\n".utf8))
    exit(64)
}
let path = arguments[1]

let clock = ContinuousClock()
let openStart = clock.now
let index = try CityIndex(path: path)
let openSeconds = seconds(clock.now - openStart)

var random = SeededGenerator(state: 15)
let everyCity = try index.search("")
let names = (0 ..< 5_000).map { _ in everyCity[Int.random(in: 0 ..< everyCity.count, using: &random)].name }
let environment = ProcessInfo.processInfo.environment
let queries = arguments.count == 3
    ? try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
    : makeQueries(names: names, perLength: Int(environment["SCALE_QUERIES_PER_LENGTH"] ?? "") ?? 200, seed: 2026).map(\.text)

var modes: [(MatchMode, ResultOrder, TypoTolerance, near: Coordinate?)] = [
    (.prefix, .alphabetical, .none, nil), (.prefix, .population, .none, nil), (.words, .alphabetical, .none, nil),
    (.words, .population, .none, nil), (.prefix, .population, .automatic, nil), (.words, .population, .automatic, nil),
]
if let point = environment["SCALE_QUERIES_NEAR"]?.split(separator: ",").compactMap({ Double($0) }), point.count == 2 {
    modes.append((.words, .population, .automatic, try Coordinate(latitude: point[0], longitude: point[1])))
}
if let path = environment["SCALE_QUERIES_ANSWERS"] {
    try writeAnswers(to: path)
    exit(0)
}
let repeats = max(1, Int(environment["SCALE_QUERIES_REPEAT"] ?? "1") ?? 1)
let modeFilter = environment["SCALE_QUERIES_MODE"]
let onlyMode = environment["SCALE_QUERIES_ONLY"]
var results: [String] = []
var timesByMode: [String] = []
for (matching, order, typos, near) in modes {
    let name = MappedIndex.name(matching: matching, order: order, typos: typos) + (near == nil ? "" : " --near")
    if let modeFilter, !name.contains(modeFilter) { continue }
    if let onlyMode, name != onlyMode { continue }
    let strategy = try MappedIndex(path: path, matching: matching, order: order, typos: typos, near: near,
                                   typoSearchThreads: environment["SCALE_QUERIES_THREADS"].flatMap { Int($0) })
    for query in queries { _ = strategy.search(query, limit: 20) }
    var durations = [Double](repeating: .infinity, count: queries.count)
    for _ in 0 ..< repeats {
        for (index, query) in queries.enumerated() {
            let start = clock.now
            _ = strategy.search(query, limit: 20)
            durations[index] = min(durations[index], seconds(clock.now - start))
        }
    }
    if environment["SCALE_QUERIES_DUMP"] != nil {
        let lines = queries.indices.map { String(format: "%.1f", durations[$0] * 1e6) + " " + queries[$0] }
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }
    if environment["SCALE_QUERIES_TIMES"] != nil {
        timesByMode.append("\"\(name)\": [" + durations.map { String(format: "%.3f", $0 * 1e6) }.joined(separator: ", ") + "]")
    }
    // The slowest query, named (JSON-escaped by JSONSerialization), and the mean.
    let slowest = durations.indices.max { durations[$0] < durations[$1] } ?? 0
    let slowestQuery = String(decoding: try JSONSerialization.data(withJSONObject: [queries.isEmpty ? "" : queries[slowest]]),
                              as: UTF8.self).dropFirst().dropLast()
    let mean = durations.reduce(0, +) / Double(max(1, durations.count)) * 1e6
    durations.sort()
    let p50 = durations[durations.count / 2] * 1e6, p99 = durations[durations.count * 99 / 100] * 1e6
    let maximum = (durations.last ?? 0) * 1e6
    results.append("\"\(name)\": {\"p50_us\": \(String(format: "%.2f", p50)), \"p99_us\": \(String(format: "%.2f", p99)), "
                   + "\"mean_us\": \(String(format: "%.2f", mean)), \"max_us\": \(String(format: "%.2f", maximum)), \"slowest\": \(slowestQuery)}")
}
if let path = environment["SCALE_QUERIES_TIMES"] {
    try Data(("{" + timesByMode.joined(separator: ", ") + "}\n").utf8).write(to: URL(fileURLWithPath: path))
}
print("{\"open_ms\": \(String(format: "%.3f", openSeconds * 1000)), \"queries\": \(queries.count), \"modes\": {\(results.joined(separator: ", "))}}")

/// One line per query and option set: what `Scripts/compare-answers.sh` compares between two
/// readers. Everything public of a match is written, so any change of an answer shows.
func writeAnswers(to path: String) throws {
    let newYork = try Coordinate(latitude: 40.71, longitude: -74.0), paris = try Coordinate(latitude: 48.86, longitude: 2.35)
    typealias Options = (name: String, matching: MatchMode, order: ResultOrder, typos: TypoTolerance, countries: Set<String>?,
                         near: Coordinate?, within: Double?)
    var sets: [Options] = []
    for matching in MatchMode.allCases {
        for order in ResultOrder.allCases {
            for typos in [TypoTolerance.none, .automatic] {
                sets.append(("\(matching) \(order) \(typos)", matching, order, typos, nil, nil, nil))
            }
        }
    }
    sets += [
        ("recommended near New York", .words, .population, .automatic, nil, newYork, nil),
        ("recommended near Paris within 100 km", .words, .population, .automatic, nil, paris, 100_000),
        ("recommended in US, MX", .words, .population, .automatic, ["US", "MX"], nil, nil),
        ("words alphabetical automatic in FR near Paris", .words, .alphabetical, .automatic, ["FR"], paris, nil),
        ("recommended typos 2", .words, .population, .maximum(2), nil, nil, nil),
    ]
    var lines: [String] = []
    for options in sets {
        for query in queries {
            let matches: CityMatches
            do {
                matches = try index.search(query, matching: options.matching, order: options.order, limit: 20, typos: options.typos,
                                           countries: options.countries, near: options.near, within: options.within)
            } catch {
                lines.append("\(options.name)\t\(query)\terror \(error)")
                continue
            }
            var line = "\(options.name)\t\(query)\t\(matches.totalCount)"
            for match in matches {
                let highlight = match.highlightUTF16Range
                line += "\t\(match.id) \(match.matchedName) e\(match.editCount) h\(highlight.lowerBound)-\(highlight.upperBound)"
                    + (match.skipsWords ? " skips" : "")
            }
            lines.append(line)
        }
    }
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
}
