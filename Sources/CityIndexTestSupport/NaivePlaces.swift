// NaivePlaces.swift: the places a query's trailing words name (WORDS.md §10 rule 2), written out again.
import Foundation

/// The countries and regions a list's cities are in, by every name WORDS.md §10 lets a query
/// use, read from the places file and the cities' own fields independently of the index:
///
/// - a country (one that has a city): its two-letter code, its alpha-3 code, its name and
///   aliases;
/// - a region (one that a city names): its code when it has a letter, the part of its ISO
///   3166-2 code after the dash when that is letters only ("TX"), its name and aliases.
///
/// Names are compared as word keys (`NaiveWordSearch.queryKey`). Names that are not codes and
/// have 4 letters or more also match within a typo budget: the optimal-string-alignment
/// distance between whole keys, computed cell by cell.
public struct NaivePlaces: Sendable {
    public enum Place: Hashable, Sendable {
        case country(String)
        case region(country: String, code: String)
    }

    private struct Name: Sendable {
        let key: [UInt8]
        let place: Place
        let isCode: Bool
    }

    private let names: [Name]

    /// - Parameters:
    ///   - placesJSON: a places file (`{"countries": [...], "regions": [...]}`).
    ///   - cities: the list the index was built from.
    public init(placesJSON: Data, cities: [ReferenceCity]) throws {
        struct File: Decodable {
            struct Country: Decodable { let code: String, code3: String?, name: String, aliases: [String]? }
            struct Region: Decodable { let country: String, code: String, iso: String?, name: String?, aliases: [String]? }
            let countries: [Country]
            let regions: [Region]
        }
        let file = try JSONDecoder().decode(File.self, from: placesJSON)
        let countriesWithCities = Set(cities.map(\.country))
        let regionsWithCities = Set(cities.compactMap { city in city.region.map { [city.country, $0] } })
        var names: [Name] = []
        func add(_ text: String, _ place: Place, isCode: Bool) {
            let key = NaiveWordSearch.queryKey(text)
            if !key.isEmpty { names.append(Name(key: key, place: place, isCode: isCode)) }
        }
        let countries = Dictionary(file.countries.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        for code in countriesWithCities.sorted() {
            add(code, .country(code), isCode: true)
            guard let country = countries[code] else { continue }
            if let code3 = country.code3 { add(code3, .country(code), isCode: true) }
            for name in [country.name] + (country.aliases ?? []) { add(name, .country(code), isCode: false) }
        }
        let regions = Dictionary(file.regions.map { ([$0.country, $0.code], $0) }, uniquingKeysWith: { first, _ in first })
        for pair in regionsWithCities.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let place = Place.region(country: pair[0], code: pair[1])
            if pair[1].contains(where: \.isLetter) { add(pair[1], place, isCode: true) }
            guard let region = regions[pair] else { continue }
            if let iso = region.iso, let dash = iso.firstIndex(of: "-") {
                let suffix = iso[iso.index(after: dash)...]
                if !suffix.isEmpty && suffix.allSatisfy({ $0.isASCII && $0.isLetter }) { add(String(suffix), place, isCode: true) }
            }
            for name in [region.name].compactMap({ $0 }) + (region.aliases ?? []) { add(name, place, isCode: false) }
        }
        self.names = names
    }

    /// The places one of whose names has word key `key`.
    public func named(_ key: [UInt8]) -> Set<Place> {
        Set(names.filter { $0.key == key }.map(\.place))
    }

    /// The places one of whose names (not codes, 4 letters or more) is fewest edits from
    /// `key`, at most `budget`, and that number; empty with `budget + 1` when none is.
    public func named(within budget: Int, of key: [UInt8]) -> (places: Set<Place>, edits: Int) {
        let query = String(decoding: key, as: UTF8.self).unicodeScalars.map(\.value)
        var best = budget + 1
        var found = Set<Place>()
        for name in names where !name.isCode {
            let scalars = String(decoding: name.key, as: UTF8.self).unicodeScalars.map(\.value)
            guard scalars.count(where: { $0 != 0x20 }) >= 4 else { continue }
            let distance = Self.distance(query, scalars)
            if distance < best { (best, found) = (distance, []) }
            if distance == best { found.insert(name.place) }
        }
        return best <= budget ? (found, best) : ([], best)
    }

    /// Whether `city` is in one of `places`: its country, or its region.
    public static func contains(_ places: Set<Place>, city: ReferenceCity) -> Bool {
        places.contains(.country(city.country)) || city.region.map { places.contains(.region(country: city.country, code: $0)) } == true
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps
    /// of two adjacent scalars, every cell of the table.
    static func distance(_ a: [UInt32], _ b: [UInt32]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0 ... a.count { table[i][0] = i }
        for j in 0 ... b.count { table[0][j] = j }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        for i in 1 ... a.count {
            for j in 1 ... b.count {
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1) }
            }
        }
        return table[a.count][b.count]
    }
}
