// IndexBuilder+Records.swift: building an index from Swift values or a file URL instead of a path.
import Foundation

/// One city to build an index from in Swift: the fields of the JSON city list (INPUT.md),
/// with the same rules.
public struct CityRecord: Sendable, Equatable {
    /// `_id`: unique, 0…2³²−1.
    public var id: Int
    public var name: String
    /// Two ASCII capitals ("FR").
    public var countryCode: String
    /// −90…90, finite.
    public var latitude: Double
    /// −180…180, finite.
    public var longitude: Double
    public var population: Int?
    /// The code of the city's first-level region within its country ("TX"; 1 to 255 bytes),
    /// which `IndexBuilder.places` names.
    public var region: String?
    /// Other names the city is known by (word matching finds them).
    public var alternateNames: [String]

    public init(id: Int, name: String, countryCode: String, latitude: Double, longitude: Double,
                population: Int? = nil, region: String? = nil, alternateNames: [String] = []) {
        self.id = id
        self.name = name
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
        self.region = region
        self.alternateNames = alternateNames
    }
}

extension IndexBuilder {
    /// Builds the index from the city list at the file URL `url` (plain, gzip or xz).
    public func build(contentsOf url: URL) throws(IndexBuildError) -> BuiltIndex {
        guard url.isFileURL else { throw .input(.cannotOpen(path: url.absoluteString, reason: "not a file URL")) }
        return try build(inputPath: url.path)
    }

    /// Builds from the city list at `input` and writes the index to `output` atomically
    /// (nothing is written there on any error).
    public func build(contentsOf input: URL, writingTo output: URL) throws(IndexBuildError) -> BuildSummary {
        guard input.isFileURL, output.isFileURL else {
            throw .input(.cannotOpen(path: input.isFileURL ? output.absoluteString : input.absoluteString, reason: "not a file URL"))
        }
        return try build(inputPath: input.path, outputPath: output.path)
    }

    /// Builds an index from `cities`, with exactly the rules and errors of a JSON list: the
    /// records are written as that JSON, one per line, and parsed, so a record that breaks a
    /// rule throws `.invalidCityList` whose `line` is the record's position + 2 (line 1 is
    /// the opening bracket) and whose `recordID` is its id. O(total text); the JSON text is
    /// held in memory during the build.
    public func build(cities: some Sequence<CityRecord>) throws(IndexBuildError) -> BuiltIndex {
        var json: [UInt8] = Array("[\n".utf8)
        var first = true
        for city in cities {
            if !first { json += Array(",\n".utf8) }
            first = false
            json += Array("{\"_id\":\(city.id),\"name\":".utf8)
            Self.appendJSONString(city.name, to: &json)
            json += Array(",\"country\":".utf8)
            Self.appendJSONString(city.countryCode, to: &json)
            json += Array(",\"coord\":{\"lat\":\(Self.jsonNumber(city.latitude)),\"lon\":\(Self.jsonNumber(city.longitude))}".utf8)
            if let population = city.population { json += Array(",\"population\":\(population)".utf8) }
            if let region = city.region {
                json += Array(",\"region\":".utf8)
                Self.appendJSONString(region, to: &json)
            }
            if !city.alternateNames.isEmpty {
                json += Array(",\"alternatenames\":[".utf8)
                for (index, name) in city.alternateNames.enumerated() {
                    if index > 0 { json.append(UInt8(ascii: ",")) }
                    Self.appendJSONString(name, to: &json)
                }
                json.append(UInt8(ascii: "]"))
            }
            json.append(UInt8(ascii: "}"))
        }
        json += Array("\n]".utf8)
        var unbounded = self
        unbounded.maximumInputByteCount = max(maximumInputByteCount, json.count)
        return try unbounded.build(jsonBytes: json)
    }

    /// A finite number as JSON; `null` otherwise (which the rules then reject by name).
    private static func jsonNumber(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    private static func appendJSONString(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): json += [UInt8(ascii: "\\"), byte]
            case 0 ..< 0x20:
                let digits = Array("0123456789abcdef".utf8)
                json += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            default: json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }
}
