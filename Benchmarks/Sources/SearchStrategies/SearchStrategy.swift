// SearchStrategy.swift: what every compared strategy answers.
@_spi(Benchmarks) import CityIndexBuilder

/// The answer the benchmarks time: the number of matches and the first `limit` of them
/// (ids in order, and the highlight length of each in UTF-16 units).
public struct SearchAnswer: Equatable, Sendable {
    public var count: Int
    public var ids: [Int]
    public var highlights: [Int]

    public init(count: Int, ids: [Int], highlights: [Int]) {
        self.count = count
        self.ids = ids
        self.highlights = highlights
    }
}

/// One way to answer prefix searches over a city list.
public protocol SearchStrategy: AnyObject {
    /// "<strategy>" as shown in tables, e.g. "sorted keys + binary search".
    static var name: String { get }
    /// The count plus the first `limit` matches with highlights.
    func search(_ query: String, limit: Int) -> SearchAnswer
}

/// A city as most apps decode it.
public struct DecodedCity: Decodable, Sendable {
    public struct Coordinate: Decodable, Sendable {
        public let lon: Double
        public let lat: Double
    }

    public let country: String
    public let name: String
    public let id: Int
    public let coord: Coordinate

    enum CodingKeys: String, CodingKey {
        case country, name, id = "_id", coord
    }
}

/// A city with its SEARCH.md key, in search order: what strategies 2–5 precompute at load.
public struct KeyedCity: Sendable {
    public let city: DecodedCity
    public let key: [UInt8]

    /// Folds every name and sorts by key, country, id (SEARCH.md §3).
    public static func searchOrdered(_ cities: [DecodedCity]) -> [KeyedCity] {
        cities.map { KeyedCity(city: $0, key: SearchKey.foldedBytes($0.name)) }.sorted { a, b in
            if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
            if a.city.country != b.city.country { return Array(a.city.country.utf8).lexicographicallyPrecedes(Array(b.city.country.utf8)) }
            return a.city.id < b.city.id
        }
    }
}

/// The folded query and its length in scalars (for highlights).
struct FoldedQuery {
    let bytes: [UInt8]
    let scalarCount: Int

    init(_ query: String) {
        var bytes: [UInt8] = []
        scalarCount = SearchKey.foldQuery(query, into: &bytes)
        self.bytes = bytes
    }

    func answer(count: Int, firstMatches: some Sequence<DecodedCity>) -> SearchAnswer {
        var ids: [Int] = []
        var highlights: [Int] = []
        for city in firstMatches {
            ids.append(city.id)
            highlights.append(SearchKey.highlightUTF16Length(name: city.name, foldedQueryScalarCount: scalarCount))
        }
        return SearchAnswer(count: count, ids: ids, highlights: highlights)
    }
}
