// PlaceNamesParser.swift: a places JSON file (`PlaceNames`), validated, every error at its position.
import CityIndexArtifacts

/// Reads `{"countries": [...], "regions": [...]}` with the JSON scanner of the city list, so
/// that a malformed file is reported by line and column like a malformed city list.
final class PlaceNamesParser {
    private let scanner: JSONScanner
    private var key: [UInt8] = []

    init(source: ByteSource) {
        scanner = JSONScanner(reader: JSONByteReader(source: source))
    }

    func parse() throws -> PlaceNames {
        let reader = scanner.reader
        try reader.skipWhitespace()
        var places = PlaceNames()
        var seenCountries = Set<String>(), seenRegions = Set<[String]>()
        try readObject(what: "the places file") { key, position in
            switch key {
            case "countries":
                try readArray(of: "countries") {
                    let start = reader.position
                    let country = try readCountry()
                    guard seenCountries.insert(country.code).inserted else {
                        throw scanner.error("country \(country.code) is listed twice", at: start)
                    }
                    places.countries.append(country)
                }
            case "regions":
                try readArray(of: "regions") {
                    let start = reader.position
                    let region = try readRegion()
                    guard seenRegions.insert([region.country, region.code]).inserted else {
                        throw scanner.error("region \(region.code) of \(region.country) is listed twice", at: start)
                    }
                    places.regions.append(region)
                }
            default:
                try scanner.skipValue()
            }
        }
        try reader.skipWhitespace()
        if let extra = try reader.peek() {
            throw scanner.error("unexpected \(JSONScanner.describe(extra)) after the end of the places object")
        }
        return places
    }

    private func readCountry() throws -> PlaceNames.Country {
        var fields = Fields()
        let start = scanner.reader.position
        try readObject(what: "a country") { key, position in try fields.read(key, at: position, with: self) }
        let code = try fields.required("code", in: "a country", at: start, scanner: scanner)
        guard Self.isCapitals(code.value, count: 2) else {
            throw scanner.error("\"code\" must be two capital letters A-Z, found \"\(code.value)\"", at: code.position)
        }
        if let code3 = fields.strings["code3"], !Self.isCapitals(code3.value, count: 3) {
            throw scanner.error("\"code3\" must be three capital letters A-Z, found \"\(code3.value)\"", at: code3.position)
        }
        let name = try fields.required("name", in: "a country", at: start, scanner: scanner)
        return PlaceNames.Country(code: code.value, code3: fields.strings["code3"]?.value, name: name.value, aliases: fields.aliases)
    }

    private func readRegion() throws -> PlaceNames.Region {
        var fields = Fields()
        let start = scanner.reader.position
        try readObject(what: "a region") { key, position in try fields.read(key, at: position, with: self) }
        let country = try fields.required("country", in: "a region", at: start, scanner: scanner)
        guard Self.isCapitals(country.value, count: 2) else {
            throw scanner.error("\"country\" must be two capital letters A-Z, found \"\(country.value)\"", at: country.position)
        }
        let code = try fields.required("code", in: "a region", at: start, scanner: scanner)
        let name = try fields.required("name", in: "a region", at: start, scanner: scanner)
        return PlaceNames.Region(country: country.value, code: code.value, isoCode: fields.strings["iso"]?.value,
                                 name: name.value, aliases: fields.aliases)
    }

    private static func isCapitals(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// The string fields and aliases of one country or region.
    private struct Fields {
        var strings: [String: (value: String, position: InputPosition)] = [:]
        var aliases: [String] = []
        private var seen = Set<String>()

        mutating func read(_ key: String, at position: InputPosition, with parser: PlaceNamesParser) throws {
            guard seen.insert(key).inserted else { throw parser.scanner.error("duplicate key \"\(key)\"", at: position) }
            switch key {
            case "code", "code3", "name", "country", "iso":
                let valuePosition = parser.scanner.reader.position
                if let value = try parser.readString(field: key, nullable: key == "code3" || key == "iso") {
                    strings[key] = (value, valuePosition)
                }
            case "aliases":
                try parser.readArray(of: "aliases") {
                    if let alias = try parser.readString(field: "aliases", nullable: false) { aliases.append(alias) }
                }
            default:
                try parser.scanner.skipValue()
            }
        }

        func required(_ key: String, in what: String, at position: InputPosition,
                      scanner: JSONScanner) throws -> (value: String, position: InputPosition) {
            guard let field = strings[key] else { throw scanner.error("\(what) has no \"\(key)\"", at: position) }
            return field
        }
    }

    // MARK: JSON structure

    /// Reads a string of 1 to 255 bytes, or `null` where allowed.
    private func readString(field: String, nullable: Bool) throws -> String? {
        let reader = scanner.reader
        try reader.skipWhitespace()
        let position = reader.position
        if nullable, try reader.peek() == UInt8(ascii: "n") {
            try scanner.readLiteral()
            return nil
        }
        guard try reader.peek() == UInt8(ascii: "\"") else {
            throw scanner.error("\"\(field)\" must be a string, found \(JSONScanner.describe(try reader.peek()))")
        }
        var bytes: [UInt8] = []
        try scanner.readString(into: &bytes)
        guard (1 ... Int(UInt8.max)).contains(bytes.count) else {
            throw scanner.error("\"\(field)\" must be 1 to 255 bytes long, found \(bytes.count)", at: position)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads `{ "key": value, … }`, calling `body` with each key (its value next).
    private func readObject(what: String, _ body: (String, InputPosition) throws -> Void) throws {
        let reader = scanner.reader
        try reader.skipWhitespace()
        guard try reader.peek() == UInt8(ascii: "{") else {
            throw scanner.error("expected \(what) as an object, found \(JSONScanner.describe(try reader.peek()))")
        }
        _ = try reader.next()
        try reader.skipWhitespace()
        if try reader.peek() == UInt8(ascii: "}") {
            _ = try reader.next()
            return
        }
        while true {
            try reader.skipWhitespace()
            let position = reader.position
            try scanner.readKey(into: &key)
            try reader.skipWhitespace()
            try body(String(decoding: key, as: UTF8.self), position)
            try reader.skipWhitespace()
            let separatorPosition = reader.position
            let separator = try reader.next()
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "}") { return }
            throw scanner.error("expected ',' or '}' in \(what), found \(JSONScanner.describe(separator))", at: separatorPosition)
        }
    }

    /// Reads `[ value, … ]`, calling `body` to read each value.
    private func readArray(of field: String, _ body: () throws -> Void) throws {
        let reader = scanner.reader
        try reader.skipWhitespace()
        guard try reader.peek() == UInt8(ascii: "[") else {
            throw scanner.error("\"\(field)\" must be an array, found \(JSONScanner.describe(try reader.peek()))")
        }
        _ = try reader.next()
        try reader.skipWhitespace()
        if try reader.peek() == UInt8(ascii: "]") {
            _ = try reader.next()
            return
        }
        while true {
            try reader.skipWhitespace()
            try body()
            try reader.skipWhitespace()
            let separatorPosition = reader.position
            let separator = try reader.next()
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "]") { return }
            throw scanner.error("expected ',' or ']' in \"\(field)\", found \(JSONScanner.describe(separator))", at: separatorPosition)
        }
    }
}
