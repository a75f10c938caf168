// City.swift: one city of an index, read lazily from its record.

/// A city in an index. Reading `id`, coordinates, country and population allocates
/// nothing; `name` makes a `String` from the mapped bytes.
public struct City: Sendable, Identifiable {
    let contents: IndexContents
    /// The city's position in search order (SEARCH.md §3), in `0 ..< cityCount`.
    package let rank: Int

    /// The city's id (`_id` in the input).
    public var id: Int { Int(contents.records.id(ofRank: rank)) }

    /// Latitude in millionths of a degree (the input rounded to 6 decimals).
    public var latitudeMicrodegrees: Int32 { contents.records.latitudeMicrodegrees(ofRank: rank) }

    /// Longitude in millionths of a degree (the input rounded to 6 decimals).
    public var longitudeMicrodegrees: Int32 { contents.records.longitudeMicrodegrees(ofRank: rank) }

    /// Latitude in degrees, -90...90.
    public var latitude: Double { Double(latitudeMicrodegrees) / 1_000_000 }

    /// Longitude in degrees, -180...180.
    public var longitude: Double { Double(longitudeMicrodegrees) / 1_000_000 }

    /// The two-letter country code, such as "UA".
    public var countryCode: String { IndexContents.countryText(contents.records.countryCode(ofRank: rank)) }
    /// The population, when the index has a population section and the input gave one.
    public var population: Int? { contents.populations?.population(ofRank: rank).map(Int.init) }

    /// The name as written in the input. Empty when the record points outside the `NAME`
    /// section or does not decode, which only a damaged file does (`verify()` reports it).
    public var name: String { contents.withName(ofRank: rank, slot: 0) { String(decoding: $0, as: UTF8.self) } }
}

extension City: Equatable, Hashable {
    public static func == (lhs: City, rhs: City) -> Bool { lhs.contents === rhs.contents && lhs.rank == rhs.rank }
    public func hash(into hasher: inout Hasher) { hasher.combine(rank) }
}

extension City: CustomStringConvertible {
    /// "Hurzuf, UA (id 707860, 44.549999, 34.283333)".
    public var description: String { "\(name), \(countryCode) (id \(id), \(latitude), \(longitude))" }
}
