// FormatRoundTripTests.swift: every section encoding, written and read back.
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Index format round trips (FORMAT.md)")
struct FormatRoundTripTests {
    private func build(_ json: String) throws -> CityIndex {
        try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes)
    }

    @Test("header and section table: magic, version, size, sections in order, checksum verifies")
    func header() throws {
        let bytes = Fixtures.smallIndexBytes
        #expect(Array(bytes[0..<4]) == Array("CIDX".utf8))
        #expect(bytes[4] == 2 && bytes[5] == 0)
        let recordedSize = (0..<8).reduce(0) { $0 | Int(bytes[16 + $1]) << (8 * $1) }
        #expect(recordedSize == bytes.count)
        let sectionCount = Int(bytes[28])
        let kinds = (0..<sectionCount).map { String(decoding: bytes[(32 + 24 * $0)..<(36 + 24 * $0)], as: UTF8.self) }
        #expect(kinds == ["FOLD", "NODE", "WNOD", "CITY", "NAME", "ALTN", "WPST", "IDIX", "POPL", "PORD"])
        try Fixtures.smallIndex.verify()
    }

    @Test("CITY records: id, coordinates to 6 decimals, country and name read back exactly")
    func cityRecords() throws {
        let index = Fixtures.smallIndex
        let hurzuf = try #require(index.city(id: 707860))
        #expect(hurzuf.name == "Hurzuf")
        #expect(hurzuf.countryCode == "UA")
        #expect(hurzuf.latitudeMicrodegrees == 44_549_999)
        #expect(hurzuf.longitudeMicrodegrees == 34_283_333)
        #expect(hurzuf.latitude == 44.549999)
        let munchen = try #require(index.city(id: 1))
        #expect(munchen.latitudeMicrodegrees == 48_000_000)   // an integer coordinate
        #expect(index.city(id: 999) == nil)
        #expect(index.city(id: -1) == nil)
    }

    @Test("IDIX: city(id:) finds every city of the shipped dataset")
    func idIndex() throws {
        let dataset = try Fixtures.defaultDataset.get()
        for rank in stride(from: 0, to: dataset.index.cityCount, by: 97) {
            let city = dataset.index.city(atRank: rank)
            #expect(dataset.index.city(id: city.id)?.rank == rank)
        }
    }

    @Test("POPL: present when the input has populations, absent otherwise")
    func population() throws {
        #expect(Fixtures.smallIndex.hasPopulation)
        #expect(Fixtures.smallIndex.city(id: 2988507)?.population == 2_138_551)
        #expect(Fixtures.smallIndex.city(id: 707860)?.population == nil)
        let withoutPopulation = try build(#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":0}}]"#)
        #expect(!withoutPopulation.hasPopulation)
    }

    @Test("NAME: identical names are stored once")
    func nameDeduplication() throws {
        let json = "[" + (1...50).map { #"{"country":"ID","name":"Krajan","_id":\#($0),"coord":{"lon":0,"lat":0}}"# }.joined(separator: ",") + "]"
        let built = try IndexBuilder().build(jsonBytes: Array(json.utf8))
        #expect(built.summary.sections.first { $0.kind == .names }?.byteCount == 6)
        let index = try CityIndex(bytes: built.bytes)
        #expect(try index.search("kra").count == 50)
        #expect(try index.search("kra").allSatisfy { $0.name == "Krajan" })
    }

    @Test("NODE: a trie over keys that are prefixes of each other, and the empty key")
    func trieShapes() throws {
        let names = ["a", "ab", "abc", "abd", "b", "ba", "\u{0301}", "abcdefghijklmnopqrstuvwxyz"]
        let json = "[" + names.enumerated().map { #"{"country":"XX","name":"\#($1)","_id":\#($0),"coord":{"lon":0,"lat":0}}"# }.joined(separator: ",") + "]"
        let index = try build(json)
        let reference = try NaiveCitySearch(json: Data(json.utf8))
        for query in ["", "a", "ab", "abc", "abcd", "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz!", "b", "ba", "bb", "c"] {
            #expect(try index.search(query).asReference == reference.search(query), "query \(query)")
        }
    }

    @Test("an empty list builds an index that answers every query with nothing")
    func emptyList() throws {
        let index = try build("[]")
        #expect(index.cityCount == 0)
        #expect(try index.search("").isEmpty)
        #expect(try index.search("a").isEmpty)
        try index.verify()
    }

    @Test("varints of every length round-trip through the trie's rank fields")
    func manyCities() throws {
        // 20,000 cities under one key gives rank counts needing 3-byte varints.
        let json = "[" + (0..<20_000).map { #"{"country":"XX","name":"Same","_id":\#($0),"coord":{"lon":0,"lat":0}}"# }.joined(separator: ",") + "]"
        let index = try build(json)
        let matches = try index.search("sa")
        #expect(matches.count == 20_000)
        #expect(matches.map(\.id) == Array(0..<20_000))
    }

    @Test("deterministic: building twice, or from a shuffled input, gives identical bytes")
    func determinism() throws {
        let json = try String(contentsOfFile: Fixtures.directory.appendingPathComponent("small.json").path, encoding: .utf8)
        var lines = json.split(separator: "\n").filter { $0.hasPrefix("{") }.map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
        let first = try IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes
        let second = try IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes
        var random = SeededGenerator(seed: 7)
        lines.shuffle(using: &random)
        let shuffled = try IndexBuilder().build(jsonBytes: Array(("[" + lines.joined(separator: ",\n") + "]").utf8)).bytes
        #expect(first == second)
        #expect(first == shuffled)
        #expect(first == Fixtures.smallIndexBytes)
    }
}
