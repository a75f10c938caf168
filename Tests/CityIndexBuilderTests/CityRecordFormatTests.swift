// CityRecordFormatTests.swift: CITY's name blocks and coordinate precision (FORMAT.md §7.1),
// read back through the library and decoded a second time from the bytes, as FORMAT.md says.
import CityIndex
@_spi(Testing) import CityIndexBuilder
import CityIndexTestSupport
import Testing

@Suite("CITY records: name blocks and coordinate precision (FORMAT.md §7.1)")
struct CityRecordFormatTests {
    /// The `CITY` section of a file, decoded from its bytes alone (FORMAT.md §7.1).
    struct DecodedCitySection {
        let widths: [Int]           // id, name distance, name byte count, country
        let coordinateExponent: Int
        let nameBlockShift: Int
        let blockStarts: [Int]
        let idExceptions: [(rank: Int, id: Int)]
        let records: [[Int]]        // id field, latitude, longitude, name distance, byte count, country

        init(_ bytes: [UInt8], cityCount: Int) {
            let range = Fixtures.section("CITY", in: bytes)
            let base = range.lowerBound
            widths = (0..<4).map { Int(bytes[base + $0]) }
            let countryCount = Int(bytes[base + 4]) | Int(bytes[base + 5]) << 8
            coordinateExponent = Int(bytes[base + 6])
            nameBlockShift = Int(bytes[base + 7])
            func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
            let exceptionCount = u32(base + 8)
            #expect(u32(base + 12) == 0)
            let step = (0 ..< coordinateExponent).reduce(1) { value, _ in value * 10 }
            let coordinateWidths = [180_000_000 / step, 360_000_000 / step].map { Int.bitWidth - $0.leadingZeroBitCount }
            let blockCount = (cityCount + (1 << nameBlockShift) - 1) >> nameBlockShift
            let startsOffset = base + 16 + (2 * countryCount + 7) / 8 * 8
            blockStarts = (0 ..< blockCount).map { u32(startsOffset + 4 * $0) }
            let exceptionsOffset = startsOffset + (4 * blockCount + 7) / 8 * 8
            idExceptions = (0 ..< exceptionCount).map { (u32(exceptionsOffset + 8 * $0), u32(exceptionsOffset + 8 * $0 + 4)) }
            let recordsBit = 8 * (exceptionsOffset + 8 * exceptionCount)
            let fieldWidths = [widths[0]] + coordinateWidths + Array(widths[1...])
            var bit = recordsBit
            var records: [[Int]] = []
            for _ in 0 ..< cityCount {
                records.append(fieldWidths.map { width in
                    defer { bit += width }
                    return (0 ..< width).reduce(0) { value, index in
                        value | Int(bytes[(bit + index) / 8] >> UInt8((bit + index) % 8) & 1) << index
                    }
                })
            }
            self.records = records
            #expect(bit <= 8 * range.upperBound)
        }
    }

    private static func json(_ cities: [(name: String, latitude: String, longitude: String)]) -> [UInt8] {
        Array(("[" + cities.enumerated().map { index, city in
            #"{"country":"FR","name":"\#(city.name)","_id":\#(index + 1),"coord":{"lon":\#(city.longitude),"lat":\#(city.latitude)}}"#
        }.joined(separator: ",") + "]").utf8)
    }

    @Test("coordinates are stored in the coarsest step every input coordinate is a multiple of, and read back exactly",
          arguments: [
            (["48.85", "-33.5", "0.25"], 4),
            (["48.85", "-33.50001", "0.25"], 1),
            (["48.85", "-33.500001", "0.25"], 0),
            (["90", "-90", "-180", "180", "0"], 6),
            (["12.3", "-0.7"], 5),
          ])
    func coordinatePrecision(values: [String], exponent: Int) throws {
        // Each value is used as a latitude (clamped into ±90) and as a longitude.
        let cities = values.enumerated().map { index, value in
            let latitude = abs(Double(value)!) > 90 ? (value.hasPrefix("-") ? "-90" : "90") : value
            return (name: "City \(index)", latitude: latitude, longitude: value)
        }
        let built = try IndexBuilder().build(jsonBytes: Self.json(cities))
        let decoded = DecodedCitySection(built.bytes, cityCount: cities.count)
        #expect(decoded.coordinateExponent == exponent)
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        func microdegrees(_ text: String) -> Int32 { Int32((Double(text)! * 1_000_000).rounded()) }
        for (position, city) in cities.enumerated() {
            let stored = try #require(index.city(id: position + 1))
            #expect(stored.latitudeMicrodegrees == microdegrees(city.latitude))
            #expect(stored.longitudeMicrodegrees == microdegrees(city.longitude))
        }
        // The second reading: stored steps times 10^exponent, less the bias.
        let step = (0 ..< exponent).reduce(1) { value, _ in value * 10 }
        for record in decoded.records {
            let city = try #require(index.city(id: record[0]))
            #expect(record[1] * step - 90_000_000 == Int(city.latitudeMicrodegrees))
            #expect(record[2] * step - 180_000_000 == Int(city.longitudeMicrodegrees))
        }
    }

    @Test("name blocks: each name is its block's start plus the record's distance, blocks start at their smallest offset, and the block size is the cheapest candidate")
    func nameBlocks() throws {
        // 3,000 cities: runs of identical names, names that start their neighbours', long names.
        var random = SeededGenerator(seed: 5)
        let stems = ["San", "Santa", "Krajan", "Nova", "Ålesund", "Saint-Étienne-du-Rouvray", "Ban", "Xã", "Москва", "Zürich"]
        let cities = (0 ..< 3_000).map { _ in
            let stem = stems.randomElement(using: &random)!
            let name: String
            switch Int.random(in: 0 ..< 4, using: &random) {
            case 0: name = stem
            case 1: name = stem + " " + String(Int.random(in: 0 ..< 40, using: &random))
            case 2: name = stem + " de " + String(repeating: "x", count: Int.random(in: 1 ..< 120, using: &random))
            default: name = stem + String(Int.random(in: 0 ..< 100_000, using: &random))
            }
            return (name: name, latitude: "1.5", longitude: "2.5")
        }
        let built = try IndexBuilder().build(jsonBytes: Self.json(cities))
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        let decoded = DecodedCitySection(built.bytes, cityCount: cities.count)
        let names = Fixtures.section("NAME", in: built.bytes)
        var offsets: [Int] = []
        for (rank, record) in decoded.records.enumerated() {
            let offset = decoded.blockStarts[rank >> decoded.nameBlockShift] + record[3]
            let name = String(decoding: built.bytes[names.lowerBound + offset ..< names.lowerBound + offset + record[4]], as: UTF8.self)
            #expect(name == cities[record[0] - 1].name)
            #expect(index.city(atRank: rank).name == name)
            offsets.append(offset)
        }
        // Each block starts at its smallest offset (so some record's distance is 0).
        for (block, start) in decoded.blockStarts.enumerated() {
            let ranks = block << decoded.nameBlockShift ..< min((block + 1) << decoded.nameBlockShift, cities.count)
            #expect(ranks.map { offsets[$0] }.min() == start)
        }
        // The cheapest of blocks of 4 … 1,024 ranks (32 bits a block, the widest distance per record).
        func cost(_ shift: Int) -> (bits: Int, width: Int) {
            let spans = stride(from: 0, to: cities.count, by: 1 << shift).map { first in
                let block = offsets[first ..< min(first + (1 << shift), cities.count)]
                return block.max()! - block.min()!
            }
            let width = Int.bitWidth - spans.max()!.leadingZeroBitCount
            return (spans.count * 32 + cities.count * width, width)
        }
        let best = (2...10).min { cost($0).bits < cost($1).bits }!
        #expect(decoded.nameBlockShift == best)
        #expect(decoded.widths[1] == cost(best).width)
        #expect(decoded.blockStarts.count > 1)
    }

    /// `ids` as cities named "City <id>" at 0, 0.
    private static func json(ids: [Int]) -> [UInt8] {
        Array(("[" + ids.map { #"{"country":"FR","name":"City \#($0)","_id":\#($0),"coord":{"lon":0,"lat":0}}"# }
            .joined(separator: ",") + "]").utf8)
    }

    @Test("id exceptions: a few ids far wider than the rest go to a table of (rank, id), their records hold all ones; the width is the cheapest")
    func idExceptions() throws {
        // 2,000 ids below 2^12, three far larger (one of them 2^32 - 1), and 2^12 - 1 itself.
        var random = SeededGenerator(seed: 3)
        var ids = Set<Int>()
        while ids.count < 2_000 { ids.insert(Int.random(in: 0 ..< 4_095, using: &random)) }
        let all = Array(ids) + [4_095, 70_000_000, 4_294_967_295, 1_000_000]
        let built = try IndexBuilder().build(jsonBytes: Self.json(ids: all))
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        for id in all {
            let city = try #require(index.city(id: id))
            #expect(city.id == id && city.name == "City \(id)")
        }
        let decoded = DecodedCitySection(built.bytes, cityCount: all.count)
        // The cheapest: 12 bits and 4 exceptions (4,095 is all ones at 12 bits) against 32 bits.
        func cost(_ width: Int) -> Int {
            width == 32 ? all.count * 32 : all.count * width + 64 * all.filter { $0 >= (1 << width) - 1 }.count
        }
        let best = (0...32).min { cost($0) < cost($1) }!
        #expect(best == 12 && decoded.widths[0] == 12)
        #expect(decoded.idExceptions.map(\.id).sorted() == [4_095, 1_000_000, 70_000_000, 4_294_967_295])
        #expect(decoded.idExceptions.map(\.rank) == decoded.idExceptions.map(\.rank).sorted())
        for exception in decoded.idExceptions {
            #expect(decoded.records[exception.rank][0] == 4_095)
            #expect(index.city(atRank: exception.rank).id == exception.id)
        }
        #expect(decoded.records.filter { $0[0] == 4_095 }.count == 4)
        // Without outliers there is no table, and all ones is an ordinary id.
        let plain = try IndexBuilder().build(jsonBytes: Self.json(ids: [1, 2, 3]))
        let plainDecoded = DecodedCitySection(plain.bytes, cityCount: 3)
        #expect(plainDecoded.idExceptions.isEmpty && plainDecoded.widths[0] == 2)
        #expect(try CityIndex(bytes: plain.bytes).city(id: 3)?.name == "City 3")
    }

    @Test("verify() finds an id exception that names the wrong rank, a missing one, or one out of order, behind a valid checksum")
    func damagedIDExceptions() throws {
        let ids = Array(0 ..< 300) + [5_000_000, 9_000_000]
        let bytes = try IndexBuilder().build(jsonBytes: Self.json(ids: ids)).bytes
        let base = Fixtures.section("CITY", in: bytes).lowerBound
        let decoded = DecodedCitySection(bytes, cityCount: ids.count)
        #expect(decoded.idExceptions.count == 2)
        let countryCount = Int(bytes[base + 4]) | Int(bytes[base + 5]) << 8
        let blockCount = (ids.count + (1 << decoded.nameBlockShift) - 1) >> decoded.nameBlockShift
        let table = base + 16 + (2 * countryCount + 7) / 8 * 8 + (4 * blockCount + 7) / 8 * 8
        func damaged(_ change: (inout [UInt8]) -> Void) throws -> CityIndex {
            var copy = bytes
            change(&copy)
            return try CityIndex(bytes: Fixtures.restamped(copy))
        }
        func expectViolation(_ index: CityIndex) {
            let error = #expect(throws: IndexFileError.self) { try index.verify() }
            guard case .invariantViolated(.idExceptionWrong) = error else {
                Issue.record("expected idExceptionWrong, got \(String(describing: error))")
                return
            }
        }
        // The first exception's rank moved to a record that does not hold the escape value.
        expectViolation(try damaged { $0[table] = $0[table] == 0 ? 1 : 0 })
        // The two exceptions swapped: ranks out of order.
        expectViolation(try damaged { copy in
            let first = Array(copy[table ..< table + 8])
            copy.replaceSubrange(table ..< table + 8, with: copy[table + 8 ..< table + 16])
            copy.replaceSubrange(table + 8 ..< table + 16, with: first)
        })
        // An exception whose id would have fit the record.
        expectViolation(try damaged { copy in copy.replaceSubrange(table + 4 ..< table + 8, with: [7, 0, 0, 0]) })
        // A record that holds the escape value without an exception naming it: the first
        // record that is not escaped gets an id field of all ones.
        let records = table + 8 * decoded.idExceptions.count
        let plainRank = try #require(decoded.records.firstIndex { $0[0] != (1 << decoded.widths[0]) - 1 })
        expectViolation(try damaged { copy in
            let width = decoded.widths[0]
            let bit = 8 * records + plainRank * Self.recordWidth(of: decoded)
            for index in 0 ..< width { copy[(bit + index) / 8] |= 1 << UInt8((bit + index) % 8) }
        })
    }

    /// Bits per record of a decoded section.
    private static func recordWidth(of decoded: DecodedCitySection) -> Int {
        let step = (0 ..< decoded.coordinateExponent).reduce(1) { value, _ in value * 10 }
        let coordinates = [180_000_000 / step, 360_000_000 / step].map { Int.bitWidth - $0.leadingZeroBitCount }
        return decoded.widths.reduce(coordinates[0] + coordinates[1], +)
    }

    @Test("a CITY header with a coordinate exponent above 6 or a name block shift above 16 is refused at open")
    func invalidHeaderValues() throws {
        let bytes = Fixtures.smallIndexBytes
        let base = Fixtures.section("CITY", in: bytes).lowerBound
        for (offset, value) in [(6, 7), (7, 17), (6, 255), (7, 255)] {
            var damaged = bytes
            damaged[base + offset] = UInt8(value)
            let error = #expect(throws: IndexFileError.self) { try CityIndex(bytes: damaged) }
            guard case .sectionSizeMismatch(section: .cities, _, _) = error else {
                Issue.record("byte \(offset) = \(value): \(String(describing: error))")
                continue
            }
        }
    }
}
