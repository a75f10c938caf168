// SortedKeysBinarySearch.swift: strategy 3, sorted folded keys, lower and upper bound.

/// Folded keys sorted in search order; a query is two binary searches (first key ≥ prefix,
/// first key not starting with it): O(m log n) per query, count O(1).
public final class SortedKeysBinarySearch: SearchStrategy {
    public static let name = "sorted keys + binary search"
    let cities: [KeyedCity]

    public init(cities: [DecodedCity]) { self.cities = KeyedCity.searchOrdered(cities) }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        let folded = FoldedQuery(query)
        let lower = partition { !$0.key.lexicographicallyPrecedes(folded.bytes) }
        let upper = partition { !$0.key.starts(with: folded.bytes) && !$0.key.lexicographicallyPrecedes(folded.bytes) }
        return folded.answer(count: upper - lower, firstMatches: cities[lower ..< min(upper, lower + limit)].map(\.city))
    }

    /// The first index whose city satisfies `isAfter` (which must be monotonic over the order).
    private func partition(_ isAfter: (KeyedCity) -> Bool) -> Int {
        var low = 0
        var high = cities.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(cities[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
