// FoldedLinearScan.swift: strategy 2, names folded once at load, compared as bytes.

/// Every name folded once at load and kept in search order; each query scans them all,
/// comparing UTF-8 bytes. O(n) per query.
public final class FoldedLinearScan: SearchStrategy {
    public static let name = "folded names, linear scan"
    let cities: [KeyedCity]

    public init(cities: [DecodedCity]) { self.cities = KeyedCity.searchOrdered(cities) }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        let folded = FoldedQuery(query)
        var count = 0
        var first: [DecodedCity] = []
        for city in cities where city.key.starts(with: folded.bytes) {
            count += 1
            if first.count < limit { first.append(city.city) }
        }
        return folded.answer(count: count, firstMatches: first)
    }
}
