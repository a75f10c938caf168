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
        let records: [[Int]]        // id, latitude, longitude, name distance, byte count, country

        init(_ bytes: [UInt8], cityCount: Int) {
            let range = FormatRoundTripTests.section("CITY", in: bytes)
            let base = range.lowerBound
            widths = (0..<4).map { Int(bytes[base + $0]) }
            let countryCount = Int(bytes[base + 4]) | Int(bytes[base + 5]) << 8
            coordinateExponent = Int(bytes[base + 6])
            nameBlockShift = Int(bytes[base + 7])
            let step = (0 ..< coordinateExponent).reduce(1) { value, _ in value * 10 }
            let coordinateWidths = [180_000_000 / step, 360_000_000 / step].map { Int.bitWidth - $0.leadingZeroBitCount }
            let blockCount = (cityCount + (1 << nameBlockShift) - 1) >> nameBlockShift
            let startsOffset = base + 8 + (2 * countryCount + 7) / 8 * 8
            blockStarts = (0 ..< blockCount).map { block in
                (0..<4).reduce(0) { $0 | Int(bytes[startsOffset + 4 * block + $1]) << (8 * $1) }
            }
            let recordsBit = 8 * (startsOffset + (4 * blockCount + 7) / 8 * 8)
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
        let names = FormatRoundTripTests.section("NAME", in: built.bytes)
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

    @Test("a CITY header with a coordinate exponent above 6 or a name block shift above 16 is refused at open")
    func invalidHeaderValues() throws {
        let bytes = Fixtures.smallIndexBytes
        let base = FormatRoundTripTests.section("CITY", in: bytes).lowerBound
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
