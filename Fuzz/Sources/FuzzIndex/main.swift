// FuzzIndex: libFuzzer target for CityIndex(bytes:), search (exact and typo-tolerant), match reading,
// places (regions, countries, nearest cities) and verify(), on indexes as opened, on indexes
// changed after they opened, and on indexes whose section headers' counts and widths were set
// to extreme values.
//
//   FuzzIndex --write-seeds DIR   writes small valid index files to start a corpus from
//   FuzzIndex [libFuzzer flags] CORPUS...   fuzzes (built with -sanitize=fuzzer,address)
import CFuzzDriver
@_spi(Testing) import CityIndex
import CityIndexBuilder
import Foundation

/// Opens the bytes as an index and, when that succeeds, exercises everything a reader does.
/// Any trap, sanitizer report or hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // An input that starts with "MUT!" is (after it) a count n:u8, n changes of (offset:u32 LE,
    // value:u8), then an index: the changes are applied after the index opened, as a file
    // rewritten underneath a reader would be (FORMAT.md §1.1).
    if bytes.starts(with: Array("MUT!".utf8)), bytes.count >= 5 {
        let changeCount = Int(bytes[4])
        let indexStart = 5 + 5 * changeCount
        guard bytes.count >= indexStart, let index = try? CityIndex(bytes: bytes[indexStart...]) else { return 0 }
        for change in 0 ..< changeCount {
            let at = 5 + 5 * change
            let offset = (0 ..< 4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
            index.overwriteByteForTesting(at: offset % max(index.fileByteCount, 1), with: bytes[at + 4])
        }
        exercise(index)
        return 0
    }
    // An input that starts with "CNT!" is a count n:u8, n changes of (section:u8, offset:u16 LE,
    // value:u32 LE), then an index: each change writes `value` into the section numbered
    // `section` (modulo the section count) at `offset` (modulo its size) before the index
    // opens: the header counts and widths of every section at extreme values, with the rest of
    // the file intact (issue 43: a count nothing real bounds).
    if bytes.starts(with: Array("CNT!".utf8)), bytes.count >= 5 {
        let changeCount = Int(bytes[4])
        let indexStart = 5 + 7 * changeCount
        guard bytes.count >= indexStart + 32 else { return 0 }
        var file = Array(bytes[indexStart...])
        let sectionCount = Int(file[28])
        guard sectionCount > 0, file.count >= 32 + 24 * sectionCount else { return 0 }
        func field(_ entry: Int, _ at: Int) -> Int { (0 ..< 8).reduce(0) { $0 | Int(file[32 + 24 * entry + at + $1]) << (8 * ($1 % 8)) } }
        for change in 0 ..< changeCount {
            let at = 5 + 7 * change
            let entry = Int(bytes[at]) % sectionCount
            let (start, length) = (field(entry, 8), field(entry, 16))
            guard start >= 0, length > 0, start <= file.count, length <= file.count - start else { continue }
            let offset = start + (Int(bytes[at + 1]) | Int(bytes[at + 2]) << 8) % length
            for index in 0 ..< 4 where offset + index < start + length {
                file[offset + index] = bytes[at + 3 + index]
            }
        }
        guard let index = try? CityIndex(bytes: file) else { return 0 }
        exercise(index)
        return 0
    }
    guard let index = try? CityIndex(bytes: bytes) else { return 0 }
    exercise(index)
    return 0
}

/// Everything a reader does with an open index.
func exercise(_ index: CityIndex) {
    for query in ["", "a", "mu", "paris", "new y", "z\u{0308}", "york", "saint etienne", "munich", "서울", "ﬁ", "'t ", String(repeating: "a", count: 40)] {
        for (matching, order) in [(MatchMode.prefix, ResultOrder.alphabetical), (.prefix, .population), (.words, .alphabetical), (.words, .population)] {
            guard let matches = try? index.search(query, matching: matching, order: order, limit: 8) else { continue }
            _ = (matches.count, matches.totalCount)
            for match in matches {
                _ = (match.id, match.name, match.countryCode, match.latitude, match.longitude, match.population)
                _ = (match.highlightUTF16Range, match.highlightRange, match.matchedName, match.matchedAlternateName)
            }
            if let last = matches.last { _ = index.city(id: last.id) }
        }
    }
    // Typo-tolerant walks read keys below every node within the budget (WORDS.md §6).
    for query in ["parsi", "munihc", "new yrok", "서욹", "aaaaaaaaa", "etienne saint"] {
        for (matching, order) in [(MatchMode.prefix, ResultOrder.population), (.words, .alphabetical), (.words, .population)] {
            guard let matches = try? index.search(query, matching: matching, order: order, limit: 8, typos: .maximum(2)) else { continue }
            _ = matches.totalCount
            for match in matches { _ = (match.editCount, match.highlightUTF16Range, match.matchedName) }
        }
    }
    // Places: regions, countries, labels, and nearest cities (the k-d tree of GEOK).
    for id in 0 ..< 12 {
        if let city = index.city(id: id) { _ = (city.region, city.country, city.label) }
    }
    for (latitude, longitude, limit) in [(48.8, 2.3, 3), (-16.7, 180.0, 5), (-90.0, 0.0, 1), (89.9, -179.9, 20), (0.0, 0.0, 1_000)] {
        guard let point = try? Coordinate(latitude: latitude, longitude: longitude) else { continue }
        for nearby in (try? index.nearest(to: point, limit: limit)) ?? [] { _ = (nearby.city.label, nearby.distanceMeters) }
        _ = try? index.nearest(to: point, limit: 4, within: 500_000, minimumPopulation: 1, countries: ["US", "FJ"])
    }
    // Without a limit: every match, as `search(_:matching:)` returns by default.
    for query in ["zand", "a"] {
        _ = (try? index.search(query, matching: .words))?.totalCount
        _ = (try? index.search(query, matching: .words, order: .population, typos: .automatic))?.totalCount
    }
    _ = index.city(id: 1)
    try? index.verify()
}

let arguments = CommandLine.arguments
if arguments.count == 3 && arguments[1] == "--write-seeds" {
    let directory = URL(fileURLWithPath: arguments[2])
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var builder = IndexBuilder()
    builder.foldTableScalars = 0...0x17F
    builder.places = try PlaceNames(jsonBytes: Array(#"""
        {"countries":[{"code":"US","code3":"USA","name":"United States","aliases":["USA"]},{"code":"FR","name":"France"}],
         "regions":[{"country":"US","code":"NY","iso":"US-NY","name":"New York"},{"country":"FR","code":"11","iso":"FR-IDF","name":"Île-de-France"}]}
        """#.utf8))
    let lists = [
        "[]",
        #"[{"country":"UA","name":"Hurzuf","_id":707860,"coord":{"lon":34.283333,"lat":44.549999}}]"#,
        #"[{"country":"FR","name":"Paris","_id":1,"coord":{"lon":2.35,"lat":48.85},"population":2138551},"#
            + #"{"country":"US","name":"Paris","_id":2,"coord":{"lon":-95.5,"lat":33.6}},"#
            + #"{"country":"DE","name":"München","_id":3,"coord":{"lon":11.5,"lat":48.1},"alternatenames":["Munich","Monaco di Baviera"]},"#
            + #"{"country":"DE","name":"Munchen","_id":4,"coord":{"lon":11,"lat":48}},"#
            + #"{"country":"US","name":"New York","_id":5,"coord":{"lon":-74,"lat":40.7},"population":8804190,"alternatenames":["NYC"]},"#
            + #"{"country":"FR","name":"Saint-Étienne","_id":11,"coord":{"lon":4.3,"lat":45.4},"population":171057},"#
            + #"{"country":"US","name":"Newark","_id":6,"coord":{"lon":-74.1,"lat":40.7}},"#
            + #"{"country":"NL","name":"'t Zand","_id":7,"coord":{"lon":4.7,"lat":52.8}},"#
            + #"{"country":"KR","name":"서울","_id":8,"coord":{"lon":126.9,"lat":37.5}},"#
            + #"{"country":"AA","name":"a","_id":9,"coord":{"lon":0,"lat":0}},"#
            + #"{"country":"AA","name":"ab","_id":10,"coord":{"lon":0,"lat":0}}]"#,
        #"[{"country":"US","name":"New York","_id":5,"region":"NY","coord":{"lon":-74,"lat":40.7},"population":8804190},"#
            + #"{"country":"FR","name":"Paris","_id":1,"region":"11","coord":{"lon":2.35,"lat":48.85},"population":2138551},"#
            + #"{"country":"FR","name":"Lyon","_id":2,"region":"84","coord":{"lon":4.8,"lat":45.7}},"#
            + #"{"country":"FJ","name":"Somosomo","_id":3,"coord":{"lon":-179.97,"lat":-16.77}},"#
            + #"{"country":"FJ","name":"Lambasa","_id":4,"coord":{"lon":179.38,"lat":-16.43}},"#
            + #"{"country":"AQ","name":"Pole","_id":6,"coord":{"lon":0,"lat":-90}}]"#,
    ]
    for (number, list) in lists.enumerated() {
        let bytes = try builder.build(jsonBytes: Array(list.utf8)).bytes
        try Data(bytes).write(to: directory.appendingPathComponent("seed-\(number).cidx"))
        // The same index with one post-open change (of its last byte, to itself) to start from.
        let offset = UInt32(bytes.count - 1)
        let mutated = Array("MUT!".utf8) + [1] + (0 ..< 4).map { UInt8(truncatingIfNeeded: offset >> (8 * $0)) } + [bytes.last!] + bytes
        try Data(mutated).write(to: directory.appendingPathComponent("seed-\(number)-changed.cidx"))
        // The same index with one count change (section 0's first bytes, to themselves).
        guard bytes.count >= 32 + 24 else { continue }
        let first = (0 ..< 8).reduce(0) { $0 | Int(bytes[40 + $1]) << (8 * $1) }
        let counted = Array("CNT!".utf8) + [1, 0, 0, 0] + Array(bytes[first ..< first + 4]) + bytes
        try Data(counted).write(to: directory.appendingPathComponent("seed-\(number)-counted.cidx"))
    }
    print("wrote the seeds to \(directory.path)")
} else {
    exit(cityindex_run_fuzzer(CommandLine.argc, CommandLine.unsafeArgv))
}
