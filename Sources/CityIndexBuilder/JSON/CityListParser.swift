// CityListParser.swift: the city list, record by record, without a JSON tree.
import CityIndexArtifacts

/// Parses the canonical city list — one JSON array of
/// `{"country":"UA","name":"Hurzuf","_id":707860,"coord":{"lon":34.283333,"lat":44.549999}}`
/// — streaming: each record is validated and handed over as soon as its `}` is read, so
/// memory does not grow with the input beyond what the caller keeps.
///
/// Accepts a UTF-8 byte-order mark, keys in any order, unknown keys (skipped), integer
/// coordinates, every escape; optional `population` (non-negative integer or null), `region`
/// (a string of 1 to 255 bytes, or null) and
/// `alternatenames` (array of strings or null). Rejects anything else with a
/// `CityListError` that names the line, column and record `_id`.
final class CityListParser {
    private let scanner: JSONScanner
    // Passed `inout` for every key and value read: no dynamic exclusivity check (the parser is
    // used by one thread, and no access to them overlaps another).
    @exclusivity(unchecked) private var key: [UInt8] = []
    private static let countryKey = Array("country".utf8), nameKey = Array("name".utf8), idKey = Array("_id".utf8)
    private static let coordKey = Array("coord".utf8), populationKey = Array("population".utf8)
    private static let alternateNamesKey = Array("alternatenames".utf8), regionKey = Array("region".utf8)
    private static let latitudeKey = Array("lat".utf8), longitudeKey = Array("lon".utf8)
    @exclusivity(unchecked) private var text: [UInt8] = []

    init(source: ByteSource) {
        scanner = JSONScanner(reader: JSONByteReader(source: source))
    }

    /// Decompressed bytes read so far.
    var byteOffset: Int { scanner.reader.byteOffset }

    /// The control characters the list's strings held (as escapes), and where the first is.
    var controlCharacters: (count: Int, first: CityListError?) { (scanner.controlCharacterCount, scanner.firstControlCharacter) }

    /// Reads the whole list, calling `body` with each valid record in input order.
    func parse(_ body: (ParsedCity) throws -> Void) throws {
        let reader = scanner.reader
        if try reader.peek() == 0xEF {
            for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
                guard try reader.next() == expected else { throw scanner.error("invalid UTF-8 at the start of the input") }
            }
        }
        try reader.skipWhitespace()
        guard let first = try reader.peek() else { throw scanner.error("the input is empty; expected a JSON array of cities") }
        guard first == UInt8(ascii: "[") else {
            // "CIDX": an index (perhaps decompressed from an artifact), not the list it came from.
            let hint = first == UInt8(ascii: "C") ? " (if this is a CityIndex file, it is an index, not a city list: search it with city-search --index)" : ""
            throw scanner.error("expected '[' to start the city list, found \(JSONScanner.describe(first))\(hint)")
        }
        _ = try reader.next()
        try reader.skipWhitespace()
        if try reader.peek() == UInt8(ascii: "]") {
            _ = try reader.next()
        } else {
            while true {
                try body(parseRecord())
                scanner.currentRecordID = nil
                try reader.skipWhitespace()
                let separatorPosition = reader.position
                switch try reader.next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): break
                case let byte:
                    throw scanner.error("expected ',' or ']' after a city, found \(JSONScanner.describe(byte))", at: separatorPosition)
                }
                break
            }
        }
        try reader.skipWhitespace()
        if let extra = try reader.peek() {
            throw scanner.error("unexpected \(JSONScanner.describe(extra)) after the end of the city list")
        }
    }

    // MARK: Records

    private struct Field<Value> {
        var value: Value
        var position: InputPosition
    }

    private func parseRecord() throws -> ParsedCity {
        let reader = scanner.reader
        scanner.currentRecordID = nil
        try reader.skipWhitespace()
        let start = reader.position
        guard try reader.peek() == UInt8(ascii: "{") else {
            throw scanner.error("expected a city object, found \(JSONScanner.describe(try reader.peek()))")
        }
        _ = try reader.next()
        var country: Field<[UInt8]>?
        var name: Field<[UInt8]>?
        var id: Field<UInt32>?
        var coordinate: (latitude: Field<Int32>?, longitude: Field<Int32>?, position: InputPosition)?
        var population: Field<UInt32?>?
        var alternateNames: [[UInt8]]?
        var region: Field<[UInt8]?>?

        try reader.skipWhitespace()
        if try reader.peek() == UInt8(ascii: "}") {
            _ = try reader.next()
        } else {
            while true {
                let keyPosition = reader.position
                try scanner.readKey(into: &key)
                try reader.skipWhitespace()
                let valuePosition = reader.position
                func once(_ alreadySeen: Bool) throws {
                    if alreadySeen { throw scanner.error("duplicate key \"\(String(decoding: key, as: UTF8.self))\"", at: keyPosition) }
                }
                switch key {
                case Self.countryKey:
                    try once(country != nil)
                    country = Field(value: try readString(field: "country"), position: valuePosition)
                case Self.nameKey:
                    try once(name != nil)
                    name = Field(value: try readString(field: "name"), position: valuePosition)
                case Self.idKey:
                    try once(id != nil)
                    let value = try readUnsignedInteger(field: "_id", maximum: UInt64(UInt32.max))
                    id = Field(value: UInt32(value), position: valuePosition)
                    scanner.currentRecordID = UInt32(value)
                case Self.coordKey:
                    try once(coordinate != nil)
                    coordinate = try readCoordinate()
                case Self.populationKey:
                    try once(population != nil)
                    population = Field(value: try readNullable {
                        UInt32(try readUnsignedInteger(field: "population", maximum: UInt64(UInt32.max - 1)))
                    }, position: valuePosition)
                case Self.regionKey:
                    try once(region != nil)
                    region = Field(value: try readNullable { try readString(field: "region") }, position: valuePosition)
                case Self.alternateNamesKey:
                    try once(alternateNames != nil)
                    alternateNames = try readStringArray(field: "alternatenames")
                default:
                    try scanner.skipValue()
                }
                try reader.skipWhitespace()
                let separatorPosition = reader.position
                let separator = try reader.next()
                if separator == UInt8(ascii: ",") { continue }
                if separator == UInt8(ascii: "}") { break }
                throw scanner.error("expected ',' or '}' in a city, found \(JSONScanner.describe(separator))", at: separatorPosition)
            }
        }

        guard let id else { throw scanner.error("the city has no \"_id\"", at: start) }
        guard let country else { throw scanner.error("the city has no \"country\"", at: start) }
        guard let name else { throw scanner.error("the city has no \"name\"", at: start) }
        guard let coordinate else { throw scanner.error("the city has no \"coord\"", at: start) }
        guard let latitude = coordinate.latitude else { throw scanner.error("\"coord\" has no \"lat\"", at: coordinate.position) }
        guard let longitude = coordinate.longitude else { throw scanner.error("\"coord\" has no \"lon\"", at: coordinate.position) }
        guard country.value.count == 2, country.value.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw scanner.error("\"country\" must be two capital letters A-Z, found \"\(String(decoding: country.value, as: UTF8.self))\"",
                                at: country.position)
        }
        guard !name.value.isEmpty else { throw scanner.error("\"name\" must not be empty", at: name.position) }
        guard name.value.count <= Int(UInt16.max) else {
            throw scanner.error("\"name\" is \(name.value.count) bytes long; the limit is 65535", at: name.position)
        }
        if let region, let code = region.value {
            guard (1 ... Int(UInt8.max)).contains(code.count) else {
                throw scanner.error("\"region\" must be 1 to 255 bytes long, found \(code.count)", at: region.position)
            }
        }
        return ParsedCity(id: id.value, countryCode: UInt16(country.value[0]) | UInt16(country.value[1]) << 8,
                          nameBytes: name.value, latitudeMicrodegrees: latitude.value,
                          longitudeMicrodegrees: longitude.value, population: population?.value ?? nil,
                          region: region?.value ?? nil, alternateNames: alternateNames ?? [], position: start)
    }

    // MARK: Typed values

    private func requireType(_ expected: UInt8, field: String, description: String) throws {
        let found = try scanner.reader.peek()
        guard found == expected else {
            throw scanner.error("\"\(field)\" must be \(description), found \(JSONScanner.describe(found))")
        }
    }

    /// Throws unless a number (`-` or a digit) starts here.
    private func requireNumber(field: String, description: String) throws {
        let found = try scanner.reader.peek()
        guard let found, found == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(found) else {
            throw scanner.error("\"\(field)\" must be \(description), found \(JSONScanner.describe(found))")
        }
    }

    private func readString(field: String) throws -> [UInt8] {
        try requireType(UInt8(ascii: "\""), field: field, description: "a string")
        var value: [UInt8] = []
        try scanner.readString(into: &value)
        return value
    }

    private func readUnsignedInteger(field: String, maximum: UInt64) throws -> UInt64 {
        let position = scanner.reader.position
        try requireNumber(field: field, description: "an integer")
        let isInteger = try scanner.readNumber(into: &text)
        let written = String(decoding: text, as: UTF8.self)
        guard isInteger else { throw scanner.error("\"\(field)\" must be an integer, found \(written)", at: position) }
        guard text.first != UInt8(ascii: "-") || written == "-0", let value = UInt64(written == "-0" ? "0" : written), value <= maximum else {
            throw scanner.error("\"\(field)\" must be in 0...\(maximum), found \(written)", at: position)
        }
        return value
    }

    /// Reads a coordinate in degrees as millionths of a degree (rounded to 6 decimals).
    private func readDegrees(field: String, limit: Int32) throws -> Field<Int32> {
        let position = scanner.reader.position
        try requireNumber(field: field, description: "a number")
        _ = try scanner.readNumber(into: &text)
        let written = String(decoding: text, as: UTF8.self)
        let degrees = Double(written) ?? .nan
        let microdegrees = (degrees * 1_000_000).rounded()
        guard degrees.isFinite, abs(microdegrees) <= Double(limit) * 1_000_000 else {
            throw scanner.error("\"\(field)\" must be a finite number in -\(limit)...\(limit), found \(written)", at: position)
        }
        return Field(value: Int32(microdegrees), position: position)
    }

    private func readCoordinate() throws -> (latitude: Field<Int32>?, longitude: Field<Int32>?, position: InputPosition) {
        let reader = scanner.reader
        let position = reader.position
        try requireType(UInt8(ascii: "{"), field: "coord", description: "an object")
        _ = try reader.next()
        var latitude: Field<Int32>?
        var longitude: Field<Int32>?
        try reader.skipWhitespace()
        if try reader.peek() == UInt8(ascii: "}") {
            _ = try reader.next()
            return (nil, nil, position)
        }
        while true {
            let keyPosition = reader.position
            try scanner.readKey(into: &key)
            try reader.skipWhitespace()
            switch key {
            case Self.latitudeKey:
                guard latitude == nil else { throw scanner.error("duplicate key \"lat\"", at: keyPosition) }
                latitude = try readDegrees(field: "lat", limit: 90)
            case Self.longitudeKey:
                guard longitude == nil else { throw scanner.error("duplicate key \"lon\"", at: keyPosition) }
                longitude = try readDegrees(field: "lon", limit: 180)
            default:
                try scanner.skipValue()
            }
            try reader.skipWhitespace()
            let separatorPosition = reader.position
            let separator = try reader.next()
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "}") { return (latitude, longitude, position) }
            throw scanner.error("expected ',' or '}' in \"coord\", found \(JSONScanner.describe(separator))", at: separatorPosition)
        }
    }

    /// Reads an array of strings (or null, read as no strings).
    private func readStringArray(field: String) throws -> [[UInt8]] {
        try readNullable { try readStrings(field: field) } ?? []
    }

    /// Reads `null` as `nil`, anything else with `read`.
    private func readNullable<T>(_ read: () throws -> T) throws -> T? {
        if try scanner.reader.peek() == UInt8(ascii: "n") {
            try scanner.readLiteral()
            return nil
        }
        return try read()
    }

    /// Reads an array of strings.
    private func readStrings(field: String) throws -> [[UInt8]] {
        let reader = scanner.reader
        try requireType(UInt8(ascii: "["), field: field, description: "an array of strings")
        _ = try reader.next()
        try reader.skipWhitespace()
        if try reader.peek() == UInt8(ascii: "]") {
            _ = try reader.next()
            return []
        }
        var strings: [[UInt8]] = []
        while true {
            try reader.skipWhitespace()
            try requireType(UInt8(ascii: "\""), field: field, description: "an array of strings")
            text.removeAll(keepingCapacity: true)
            try scanner.readString(into: &text)
            if text.count > Int(UInt16.max) {
                throw scanner.error("an alternate name is \(text.count) bytes long; the limit is 65535")
            }
            strings.append(text)
            try reader.skipWhitespace()
            let separatorPosition = reader.position
            let separator = try reader.next()
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "]") { return strings }
            throw scanner.error("expected ',' or ']' in \"\(field)\", found \(JSONScanner.describe(separator))", at: separatorPosition)
        }
    }
}
