// NaiveFilter.swift: strategy 1, the baseline: decode, lowercase, hasPrefix, sort.
import Foundation

/// What most challenge solutions start with: `JSONDecoder` into `[City]`, then
/// `filter { $0.name.lowercased().hasPrefix(query.lowercased()) }` and a sort by name.
/// Not SEARCH.md: it does not fold accents (`munchen` misses München), so the harness
/// reports how often it agrees instead of requiring it.
public final class NaiveFilter: SearchStrategy {
    public static let name = "naive filter"
    let cities: [DecodedCity]

    public init(json: Data) throws {
        cities = try JSONDecoder().decode([DecodedCity].self, from: json)
    }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        let lowered = query.lowercased()
        let matches = cities.filter { $0.name.lowercased().hasPrefix(lowered) }
            .sorted { ($0.name.lowercased(), $0.country, $0.id) < ($1.name.lowercased(), $1.country, $1.id) }
        let first = matches.prefix(limit)
        return SearchAnswer(count: matches.count, ids: first.map(\.id), highlights: first.map { _ in query.utf16.count })
    }
}
