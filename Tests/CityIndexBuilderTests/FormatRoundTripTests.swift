// FormatRoundTripTests.swift: every section encoding, written and read back.
import CityIndex
@_spi(Testing) import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Index format round trips (FORMAT.md)")
struct FormatRoundTripTests {
    private func build(_ json: String) throws -> CityIndex {
        try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes)
    }

    /// How many bytes `text` codes to with the file's `SYMB` table (one-byte codes only: a
    /// table of at most 255 symbols), coded as FORMAT.md §7.2 says `build-index` codes (the
    /// fewest bytes: a symbol costs 1, an escape and its byte 2): written from the format,
    /// independently of `build-index`'s coder, by trying every parse.
    static func codedLength(of text: String, in bytes: [UInt8]) -> Int {
        let table = Fixtures.section("SYMB", in: bytes)
        let count = Int(bytes[table.lowerBound])
        let symbols = (0 ..< count).map { code -> [UInt8] in
            let length = Int(bytes[table.lowerBound + 8 + 8 * count + code])
            return Array(bytes[table.lowerBound + 8 + 8 * code ..< table.lowerBound + 8 + 8 * code + length])
        }
        let utf8 = Array(text.utf8)
        func fewest(from position: Int) -> Int {
            guard position < utf8.count else { return 0 }
            return symbols.filter { utf8[position...].starts(with: $0) }
                .map { 1 + fewest(from: position + $0.count) }.min().map { min($0, 2 + fewest(from: position + 1)) }
                ?? 2 + fewest(from: position + 1)
        }
        return fewest(from: 0)
    }

    @Test("header and section table: magic, version, size, sections in order, checksum verifies")
    func header() throws {
        let bytes = Fixtures.smallIndexBytes
        #expect(Array(bytes[0..<4]) == Array("CIDX".utf8))
        #expect(bytes[4] == 8 && bytes[5] == 0)
        let recordedSize = (0..<8).reduce(0) { $0 | Int(bytes[16 + $1]) << (8 * $1) }
        #expect(recordedSize == bytes.count)
        let sectionCount = Int(bytes[28])
        let kinds = (0..<sectionCount).map { String(decoding: bytes[(32 + 24 * $0)..<(36 + 24 * $0)], as: UTF8.self) }
        #expect(kinds == ["FOLD", "NODE", "WNOD", "SYMB", "CITY", "NAME", "ALTN", "WPST", "IDIX", "POPL", "PORD", "GEOK", "NTOP", "WTOP", "WALP"])
        try Fixtures.smallIndex.verify()
    }

    /// Three cities whose every section size is worked out by hand from FORMAT.md below.
    static let threeCities = #"""
        [{"country":"FR","name":"Paris","_id":2,"coord":{"lon":2.35,"lat":48.85},"population":100,"alternatenames":["Lutetia"]},
         {"country":"US","name":"Paris","_id":1,"coord":{"lon":-95.55,"lat":33.66},"population":200},
         {"country":"DE","name":"Köln","_id":3,"coord":{"lon":6.95,"lat":50.93}}]
        """#

    @Test("every section's exact encoded size, worked out by hand from FORMAT.md")
    func exactSectionSizes() throws {
        let built = try IndexBuilder().build(jsonBytes: Array(Self.threeCities.utf8))
        let sizes = Dictionary(uniqueKeysWithValues: built.summary.sections.map { ($0.kind, $0.byteCount) })
        // Search order: Köln (rank 0), Paris FR (1), Paris US (2).
        // CITY: header 16; country table DE, FR, US 6 bytes padded to 8; every coordinate has two
        // decimals (exponent 4: latitudes to 18,000 in 15 bits, longitudes to 36,000 in 16); one
        // name block (blocks of 4, the smallest candidate, hold all three) starting at 0, 4
        // bytes padded to 8; records of 2 (id ≤ 3) + 15 + 16 + 3 (name distance ≤ 5) + 3 (name
        // length ≤ 5) + 2 (3 countries) = 41 bits, 3 × 41 = 123 bits in 2 words; no id exceptions.
        #expect(sizes[.cities] == 16 + 8 + 8 + 2 * 8)
        #expect(sizes[.names] == 5 + 5)                    // "Paris" once (shared), "Köln" (ö is 2 bytes)
        // The alternate names' symbol table: 8 + 9 bytes per symbol, padded to 8.
        let symbolCount = Int(Fixtures.section("SYMB", in: built.bytes).first.map { built.bytes[$0] } ?? 0)
        #expect(sizes[.nameSymbols] == 8 + (9 * symbolCount + 7) / 8 * 8)
        #expect(sizes[.idIndex] == 8 + 8)                  // 3 ranks of 2 bits: one word
        #expect(sizes[.population] == 8 + 8)               // 101, 201 and 0 (unknown) in 8 bits: one word
        #expect(sizes[.populationOrder] == 8 + 2 * 8)      // entries 1 and 2 swap: Paris US outranks Paris FR
        // ALTN: header 8; one block start (ranks 0 ... 3) padded to 8; the packed starts of the
        // 3 cities and the end (header 8, 4 small values in one word); a length varint and the
        // coded "Lutetia".
        #expect(sizes[.alternateNames] == 8 + 8 + 8 + 8 + 1 + Self.codedLength(of: "Lutetia", in: built.bytes))
        #expect(sizes[.wordPostings] == 8 + 8)             // koln, lutetia, paris ×2: 4 × (2 + 1) bits, one word
        // NODE (blind: no label bytes, no repeat counts): header 8; "koln", one entry, is an
        // inline leaf (only its parent's ref, entry delta 0: 0 << 2 | 1); so is "paris", a leaf
        // of 2 entries (count width 1, no best: (1 << 1 | 2 − 2) << 2 | 3 = 11); root 9 (delta,
        // count, shape, path length 0, best, 2 labels, 2 one-byte refs).
        #expect(sizes[.nodes] == 8 + 9)
        // WNOD: header 8; "koln" and "lutetia" inline; "paris", a bucket of two postings, inline
        // too: ((2 << 3 | 0) << 3 | best 0) << 2 | 3 = 515 takes 2 bytes, so every ref of the
        // root does, 6 bytes against 4 + 3 with the bucket stored; root 15 (delta, count,
        // shape, path length, repeats, best, 3 labels, 3 two-byte refs).
        #expect(sizes[.wordNodes] == 8 + 15)
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        #expect(try index.search("paris", matching: .words, order: .population).map(\.id) == [1, 2])
        #expect(try index.search("lut", matching: .words)[0].matchedAlternateName == "Lutetia")
    }

    @Test("SYMB with two-byte codes: names in several scripts need more than 255 symbols, and each decodes exactly")
    func twoByteSymbolCodes() throws {
        // Syllables of four scripts, joined at random: far more frequent substrings than one
        // byte can name, so the table gets 192 one-byte codes and two-byte codes for the rest.
        let syllables = ["ka", "lo", "mir", "sten", "ber", "ville", "до", "ри", "град", "ск", "ло", "βα", "θη", "πολ",
                         "北", "京", "山", "川", "東", "大", "ha", "na", "ov", "ец", "ин", "ρο", "ni", "sk", "ost", "ова"]
        var random = SeededGenerator(seed: 11)
        var alternates: [String] = []
        while alternates.count < 3_000 {
            let name = (0 ..< Int.random(in: 2...5, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined()
            if !alternates.contains(name) { alternates.append(name) }
        }
        let json = "[" + alternates.enumerated().map { index, alternate in
            #"{"country":"XX","name":"City \#(index)","_id":\#(index + 1),"coord":{"lon":0,"lat":0},"alternatenames":["\#(alternate)"]}"#
        }.joined(separator: ",") + "]"
        let built = try IndexBuilder().build(jsonBytes: Array(json.utf8))
        let symbols = Fixtures.section("SYMB", in: built.bytes)
        func uint32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(built.bytes[at + $1]) << (8 * $1) } }
        #expect(uint32(symbols.lowerBound) > 255)
        #expect(uint32(symbols.lowerBound + 4) == 192)
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        for (position, alternate) in alternates.enumerated() {
            let matches = try index.search(alternate, matching: .words)
            let match = try #require(matches.first { $0.id == position + 1 }, "\(alternate)")
            #expect(match.matchedAlternateName == alternate)
        }
    }

    @Test("ALTN coding: the fewest bytes the symbol table allows (not the greedy parse), decoded back exactly")
    func optimalSymbolParse() {
        // Greedy takes "ab" (a two-byte code) and must escape "c": 4 bytes; "a" + "bc" is 2.
        let table = NameSymbolsWriter(symbols: [Array("a".utf8), Array("bc".utf8), Array("ab".utf8)], singleByteCodeCount: 2)
        #expect(table.encoded(Array("abc".utf8)[...]) == [0, 1])
        // Random tables and texts over a small alphabet, against every parse tried.
        var random = SeededGenerator(seed: 7)
        let alphabet: [[UInt8]] = [[0x61], [0x62], [0x63], [0xC3, 0xA9]]
        func randomText(_ length: ClosedRange<Int>) -> [UInt8] {
            (0 ..< Int.random(in: length, using: &random)).flatMap { _ in alphabet.randomElement(using: &random)! }
        }
        for _ in 0 ..< 200 {
            var symbols: [[UInt8]] = []
            for _ in 0 ..< Int.random(in: 1...12, using: &random) {
                let symbol = Array(randomText(1...4).prefix(8))
                if !symbols.contains(symbol) { symbols.append(symbol) }
            }
            let singleByteCodeCount = Int.random(in: 0...symbols.count, using: &random)
            let coder = NameSymbolsWriter(symbols: symbols, singleByteCodeCount: singleByteCodeCount)
            func cost(_ symbol: Int) -> Int { symbol < singleByteCodeCount ? 1 : 2 }
            for _ in 0 ..< 10 {
                let text = randomText(0...7)
                func fewest(from position: Int) -> Int {
                    guard position < text.count else { return 0 }
                    var best = 2 + fewest(from: position + 1)
                    for (number, symbol) in symbols.enumerated() where text[position...].starts(with: symbol) {
                        best = min(best, cost(number) + fewest(from: position + symbol.count))
                    }
                    return best
                }
                let codes = coder.encoded(text[...])
                #expect(codes.count == fewest(from: 0), "\(text) with \(symbols)")
                // Decoded as FORMAT.md §7.2 says.
                var decoded: [UInt8] = [], position = 0
                while position < codes.count {
                    let code = Int(codes[position])
                    if code == 255 {
                        decoded.append(codes[position + 1]); position += 2
                    } else if code < singleByteCodeCount {
                        decoded += symbols[code]; position += 1
                    } else {
                        decoded += symbols[singleByteCodeCount + (code - singleByteCodeCount) * 256 + Int(codes[position + 1])]
                        position += 2
                    }
                }
                #expect(decoded == text)
            }
        }
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

    @Test("NAME: a name that starts the next one in search order (or that it starts) shares its bytes")
    func namePrefixSharing() throws {
        // In search order: San, San José, San José de Mayo (one run of stored bytes), Santa Fe, Santa.
        let names = ["San José de Mayo", "Santa", "San José", "Santa Fe", "San"]
        let json = "[" + names.enumerated().map { index, name in
            #"{"country":"UY","name":"\#(name)","_id":\#(index + 1),"coord":{"lon":0,"lat":0}}"#
        }.joined(separator: ",") + "]"
        let built = try IndexBuilder().build(jsonBytes: Array(json.utf8))
        #expect(built.summary.sections.first { $0.kind == .names }?.byteCount == "San José de Mayo".utf8.count + "Santa Fe".utf8.count)
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        #expect(try index.search("san").map(\.name) == ["San", "San José", "San José de Mayo", "Santa", "Santa Fe"])
        for (position, name) in names.enumerated() { #expect(index.city(id: position + 1)?.name == name) }
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

    @Test("blind tries: a query that differs from every key only in bytes the walk skips matches nothing")
    func blindWalkComparesSkippedBytes() throws {
        // "paris"/"parma" branch after "par"; "lutetia" is one leaf: every other byte of a
        // query is skipped by the walk and only the final comparison can reject it.
        let json = #"""
            [{"country":"FR","name":"Paris","_id":1,"coord":{"lon":0,"lat":0},"alternatenames":["Lutetia Parisiorum"]},
             {"country":"IT","name":"Parma","_id":2,"coord":{"lon":0,"lat":0}},
             {"country":"SE","name":"Sala","_id":3,"coord":{"lon":0,"lat":0}}]
            """#
        let index = try build(json)
        try index.verify()
        for (query, ids) in [("par", [1, 2]), ("pbr", []), ("pari", [1]), ("paxi", []), ("parisx", []),
                             ("s", [3]), ("sxla", []), ("salaa", []), ("sala", [3])] {
            #expect(try index.search(query).map(\.id) == ids, "prefix \(query)")
        }
        for (query, ids) in [("lutetia", [1]), ("lutetja", []), ("parisiorum", [1]), ("parisiorun", []),
                             ("lutetia p", [1]), ("lutetia x", []), ("par", [1, 2]), ("pbrma", [])] {
            #expect(try index.search(query, matching: .words).map(\.id) == ids, "words \(query)")
            #expect(try index.search(query, matching: .words, order: .population).map(\.id) == ids, "words by population \(query)")
        }
    }

    @Test("WNOD buckets: a leaf holding several keys answers each query with exactly its matching postings")
    func wordBuckets() throws {
        // Five one-word names of distinct cities under "montsal" and one more under "mont": the
        // node "mont" (a path of 4 bytes, long enough to hang buckets from) has one bucket
        // leaf of five keys.
        let names = ["Montsala", "Montsale", "Montsalo", "Montsalamanca", "Montsalt", "Montby"]
        let json = "[" + names.enumerated().map { index, name in
            #"{"country":"XX","name":"\#(name)","_id":\#(index + 1),"coord":{"lon":0,"lat":0},"population":\#(100 * (index + 1))}"#
        }.joined(separator: ",") + "]"
        let built = try IndexBuilder().build(jsonBytes: Array(json.utf8))
        // Header 8; the node "mont" 12 (delta, count, shape, path length 4, repeats, best 0
        // (Montby), labels "b" "s", two refs of 2 bytes: Montby inline, 0 << 2 | 1, and the
        // bucket inline, ((1 << 3 | 5 − 2) << 3 | best 4, "montsalt") << 2 | 3 = 371); the root
        // 8 (delta, count, shape, path length, repeats, best, label "m", ref).
        #expect(built.summary.sections.first { $0.kind == .wordNodes }?.byteCount == 8 + 12 + 8)
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        let all = [1, 4, 2, 3, 5]
        for (query, ids) in [("m", [6] + all), ("monts", all), ("montsal", all), ("montsala", [1, 4]), ("montsalam", [4]),
                             ("montsale", [2]), ("montsalt", [5]), ("montsalx", []), ("montsb", []), ("montsalamancas", []),
                             ("montb", [6])] {
            #expect(try index.search(query, matching: .words).map(\.id) == ids, "words \(query)")
            #expect(try index.search(query, matching: .words, order: .population).map(\.id) == ids.sorted(by: >), "by population \(query)")
            #expect(try index.search(query, matching: .words, order: .population, limit: 2).map(\.id) == Array(ids.sorted(by: >).prefix(2)))
            #expect(try index.search(query, matching: .words).totalCount == ids.count)
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

    @Test("FORMAT.md §12: the worked example's input builds exactly the bytes its hex dump shows")
    func workedExample() throws {
        let format = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("FORMAT.md"), encoding: .utf8)
        let example = try #require(format.components(separatedBy: "## 12. Worked example").last)
        let blocks = example.components(separatedBy: "```")
        let input = blocks[0].split(separator: "\n").filter { $0.hasPrefix("    ") }.joined()
        let bytes = try IndexBuilder().build(jsonBytes: Array(input.utf8)).bytes
        var (checked, last) = (0, 0)
        for line in blocks[1].split(separator: "\n") {
            let dump = line.components(separatedBy: "--")[0].split(separator: " ")
            guard let first = dump.first, first.count == 6, let offset = Int(first, radix: 16) else { continue }
            for (index, hex) in dump.dropFirst().enumerated() {
                let position = offset + index
                guard !(8..<12).contains(position) else { continue }  // the checksum covers FOLD
                #expect(position < bytes.count && bytes[position] == UInt8(hex, radix: 16), "byte \(position) (line \(first))")
                checked += 1
                last = max(last, position)
            }
        }
        // Every byte but FOLD's (its size depends on the toolchain's Unicode tables) and the
        // checksum is shown, up to the file's last.
        let fold = Fixtures.section("FOLD", in: bytes)
        #expect(!fold.isEmpty)
        #expect(checked == bytes.count - fold.count - 4)
        #expect(last == bytes.count - 1)
        try CityIndex(bytes: bytes).verify()
    }
}

@Suite("Bounded-memory builds (issue 15)")
struct BoundedMemoryBuildTests {
    /// `count` cities with syllable names (many repeated, so keys share runs), 0–3 alternate
    /// names each (some lowercase, some multi-word), populations for most. Deterministic.
    static func syntheticList(count: Int, seed: UInt64, duplicateIDAt duplicate: Int? = nil) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        let syllables = ["san", "ta", "ber", "lin", "mo", "ri", "ka", "do", "é", "ø", "new", "york", "ville", "burg", "о", "ск"]
        func word() -> String { (0 ..< Int.random(in: 1 ... 3, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined() }
        func name() -> String {
            let text = (0 ..< Int.random(in: 1 ... 3, using: &random)).map { _ in word() }.joined(separator: " ")
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        let countries = ["US", "FR", "DE", "RU", "BR"]
        var cities: [String] = []
        for index in 0 ..< count {
            let id = index == duplicate ? 0 : index
            var alternates = (0 ..< Int.random(in: 0 ... 3, using: &random)).map { _ in name() }
            if Bool.random(using: &random) { alternates.append(word()) }
            let population = Int.random(in: 0 ..< 10, using: &random) < 8 ? ",\"population\":\(Int.random(in: 0 ... 5_000_000, using: &random))" : ""
            let alternateList = alternates.map { "\"\($0)\"" }.joined(separator: ",")
            cities.append("{\"_id\":\(id),\"name\":\"\(name())\",\"country\":\"\(countries.randomElement(using: &random)!)\","
                          + "\"coord\":{\"lat\":\(Double(index % 180) - 89.5),\"lon\":\(Double(index % 360) - 179.5)}\(population),"
                          + "\"alternatenames\":[\(alternateList)]}")
        }
        return Array(("[\n" + cities.joined(separator: ",\n") + "\n]").utf8)
    }

    @Test("a memory limit that makes the build spill sorted runs to disk gives the same bytes, in memory and to a file")
    func spilledBuildIsIdentical() throws {
        let json = Self.syntheticList(count: 20_000, seed: 11)
        let inMemory = try IndexBuilder().build(jsonBytes: json)
        var bounded = IndexBuilder()
        bounded.memoryLimit = IndexBuilder.minimumMemoryLimit
        let spilled = try bounded.build(jsonBytes: json)
        #expect(inMemory.summary.spilledRunCount == 0)
        #expect(spilled.summary.spilledRunCount > 4, "\(spilled.summary.spilledRunCount) runs")
        #expect(spilled.bytes == inMemory.bytes)
        #expect(spilled.summary.wordPostingCount == inMemory.summary.wordPostingCount)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cities.json"), output = directory.appendingPathComponent("cities.cidx")
        try Data(json).write(to: input)
        let summary = try bounded.build(inputPath: input.path, outputPath: output.path)
        #expect(summary.spilledRunCount == spilled.summary.spilledRunCount)
        #expect(try Array(Data(contentsOf: output)) == inMemory.bytes)
        // Scratch files are unlinked at once: nothing is left beside the output.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["cities.cidx", "cities.json"])
        try CityIndex(bytes: spilled.bytes).verify()
    }

    @Test("a duplicate id found only when spilled runs are merged names both positions")
    func duplicateAcrossRuns() throws {
        let json = Self.syntheticList(count: 8_000, seed: 5, duplicateIDAt: 7_000)
        var bounded = IndexBuilder()
        bounded.memoryLimit = IndexBuilder.minimumMemoryLimit
        do throws(IndexBuildError) {
            _ = try bounded.build(jsonBytes: json)
            Issue.record("a list with a duplicate id was built")
        } catch {
            guard case .invalidCityList(let listError) = error else { Issue.record("\(error)"); return }
            // Line 2 holds id 0 (the first city), line 7,002 the duplicate.
            #expect(listError.line == 7_002 && listError.recordID == 0, "\(listError)")
            #expect(listError.message.contains("duplicate _id 0: also at 2:1"), "\(listError)")
        }
    }
}
