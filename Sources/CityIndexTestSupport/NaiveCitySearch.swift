// NaiveCitySearch.swift: the reference search of SEARCH.md, as plainly as possible.
import Foundation

/// A city as decoded by `JSONDecoder` from the canonical list.
public struct ReferenceCity: Decodable, Sendable {
    public struct Coordinate: Decodable, Sendable {
        public let lon: Double
        public let lat: Double
    }

    public let country: String
    public let name: String
    public let id: Int
    public let coord: Coordinate
    public let population: Int?
    public let alternatenames: [String]?
    public var region: String? = nil

    enum CodingKeys: String, CodingKey {
        case country, name, id = "_id", coord, population, alternatenames, region
    }

    public init(country: String, name: String, id: Int, lat: Double, lon: Double, population: Int? = nil,
                alternatenames: [String]? = nil) {
        self.country = country
        self.name = name
        self.id = id
        self.coord = Coordinate(lon: lon, lat: lat)
        self.population = population
        self.alternatenames = alternatenames
    }
}

/// One expected match: the city and its highlight `[start, length]` in UTF-16 units.
public struct ReferenceMatch: Equatable, Sendable, CustomStringConvertible {
    public let id: Int
    public let name: String
    public let highlight: [Int]

    public var description: String { "\(name) (\(id)) \(highlight)" }

    public init(id: Int, name: String, highlight: [Int]) {
        self.id = id
        self.name = name
        self.highlight = highlight
    }
}

/// SEARCH.md implemented naively: fold every name with `ReferenceFolding`, keep those
/// whose folded UTF-8 starts with the folded query, in the order of §3.
public struct NaiveCitySearch: Sendable {
    private struct Entry: Sendable {
        let city: ReferenceCity
        let key: [UInt8]
    }

    private let entries: [Entry]

    public init(cities: [ReferenceCity]) {
        let unsorted = cities.map { Entry(city: $0, key: Array(ReferenceFolding.fold($0.name).utf8)) }
        entries = unsorted.sorted { a, b in
            if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
            if a.city.country != b.city.country { return Array(a.city.country.utf8).lexicographicallyPrecedes(Array(b.city.country.utf8)) }
            return a.city.id < b.city.id
        }
    }

    /// Decodes the canonical JSON list with `JSONDecoder`.
    public init(json: Data) throws {
        self.init(cities: try JSONDecoder().decode([ReferenceCity].self, from: json))
    }

    public var cityCount: Int { entries.count }

    /// The folded query of §2: leading white space removed, then folded.
    public static func foldedQuery(_ query: String) -> [UInt8] {
        let trimmed = String(String.UnicodeScalarView(query.unicodeScalars.drop { $0.properties.isWhitespace }))
        return Array(ReferenceFolding.fold(trimmed).utf8)
    }

    /// The matches of `query` in order, with highlights.
    public func search(_ query: String) -> [ReferenceMatch] {
        let folded = Self.foldedQuery(query)
        let foldedScalarCount = String(decoding: folded, as: UTF8.self).unicodeScalars.count
        return folded.withUnsafeBufferPointer { prefix in
            entries.compactMap { entry -> ReferenceMatch? in
                guard entry.key.count >= prefix.count else { return nil }
                let matches = entry.key.withUnsafeBufferPointer { key in
                    prefix.isEmpty || memcmp(key.baseAddress!, prefix.baseAddress!, prefix.count) == 0
                }
                guard matches else { return nil }
                return ReferenceMatch(id: entry.city.id, name: entry.city.name,
                                      highlight: Self.highlight(name: entry.city.name, foldedQueryScalarCount: foldedScalarCount))
            }
        }
    }

    /// §4: from the start to the end of the shortest run of leading scalars whose folds
    /// have at least `foldedQueryScalarCount` scalars, extended over scalars folding to nothing.
    public static func highlight(name: String, foldedQueryScalarCount: Int) -> [Int] {
        guard foldedQueryScalarCount > 0 else { return [0, 0] }
        let scalars = Array(name.unicodeScalars)
        var consumed = 0
        var foldedCount = 0
        while consumed < scalars.count && foldedCount < foldedQueryScalarCount {
            foldedCount += ReferenceFolding.fold(scalars[consumed]).unicodeScalars.count
            consumed += 1
        }
        while consumed < scalars.count && ReferenceFolding.fold(scalars[consumed]).isEmpty { consumed += 1 }
        let length = scalars[..<consumed].reduce(0) { $0 + $1.utf16.count }
        return [0, length]
    }
}
