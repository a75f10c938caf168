// StageProfile: where a search mode's time goes, stage by stage, from the reader's own trace
// (`CityIndex.explain(_:options:)`), over a file of queries.
//
// Usage: StageProfile INDEX QUERIES [MODE]
//   MODE: recommended (default), exact (the same without typos), near (recommended from New York)
// Prints, per stage name, how many queries ran it, its mean time per query (over all queries),
// its share of the total, and its mean walks and trie nodes; then the 10 slowest queries with
// their slowest stage. Searches on one thread (city-server's setting), after one warm-up pass.
// The trace's clock reads add a little to every stage: compare stages, not modes.
import CityIndex
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: StageProfile INDEX QUERIES [recommended|exact|near]\n".utf8))
    exit(64)
}
var index = try CityIndex(path: arguments[1])
index.typoSearchThreads = 1
let queries = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
var options = SearchOptions.recommended
switch arguments.count == 4 ? arguments[3] : "recommended" {
case "recommended": break
case "exact": options.typos = .none
case "near": options.near = try Coordinate(latitude: 40.71, longitude: -74.0)
case let mode:
    FileHandle.standardError.write(Data("StageProfile: unknown mode \(mode)\n".utf8))
    exit(64)
}

func microseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
}

for query in queries { _ = try index.explain(query, options: options) }
var totals: [String: (runs: Int, queries: Set<Int>, micros: Double, walks: Int, nodes: Int)] = [:]
var order: [String] = []
var slowest: [(micros: Double, query: String, stage: String, stageMicros: Double)] = []
var total = 0.0
for (number, query) in queries.enumerated() {
    let explanation = try index.explain(query, options: options)
    total += microseconds(explanation.duration)
    var worst = ("", 0.0)
    for stage in explanation.stages {
        let micros = microseconds(stage.duration)
        if totals[stage.name] == nil { order.append(stage.name) }
        var entry = totals[stage.name] ?? (0, [], 0, 0, 0)
        entry.runs += 1
        entry.queries.insert(number)
        entry.micros += micros
        entry.walks += stage.walks
        entry.nodes += stage.nodesVisited
        totals[stage.name] = entry
        if micros > worst.1 { worst = (stage.name, micros) }
    }
    slowest.append((microseconds(explanation.duration), query, worst.0, worst.1))
}
let count = Double(queries.count)
print("\(queries.count) queries, \(options.matching) \(options.order) typos \(options.typos)\(options.near == nil ? "" : " near")"
      + String(format: ": mean %.1f µs per search (traced)\n", total / count))
print("| stage | queries | runs | mean µs per query | share | walks per query | nodes per query |")
print("|---|---:|---:|---:|---:|---:|---:|")
let stageTotal = totals.values.reduce(0) { $0 + $1.micros }
for name in order.sorted(by: { totals[$0]!.micros > totals[$1]!.micros }) {
    let entry = totals[name]!
    print(String(format: "| %@ | %d | %d | %.1f | %.0f%% | %.2f | %.0f |", name, entry.queries.count, entry.runs,
                 entry.micros / count, 100 * entry.micros / stageTotal, Double(entry.walks) / count, Double(entry.nodes) / count))
}
print("\nslowest:")
for item in slowest.sorted(by: { $0.micros > $1.micros }).prefix(10) {
    print(String(format: "  %8.0f µs  %@  (%@ %.0f µs)", item.micros, item.query, item.stage, item.stageMicros))
}
