// CitySearchResults.swift: what a session delivers.
import CityIndex

/// The matches of one query, in search order: all of them, or only the favorites among them.
/// Random access: `count` and the *i*-th result are O(1).
public struct CitySearchResults: RandomAccessCollection, Sendable {
    /// The query as given.
    public let query: String
    /// Whether only favorites are included.
    public let isFavoritesOnly: Bool
    let matches: CityMatches
    /// With favorites only: positions in `matches` of the favorites, increasing.
    let favoritePositions: ArraySlice<Int>?
    /// The user's location when the search ran (`CitySearchSession.location`).
    public let location: Coordinate?

    /// How far `match`'s city is from `location`, in metres; `nil` without a location.
    public func distanceMeters(of match: CityMatch) -> Double? {
        location.map { match.city.coordinate.distanceMeters(to: $0) }
    }

    /// How many cities match in all: `count`, or more when population order delivered only
    /// the top `populationOrderLimit`.
    public var totalCount: Int { favoritePositions?.count ?? matches.totalCount }

    public var startIndex: Int { 0 }
    public var endIndex: Int { favoritePositions?.count ?? matches.count }

    public subscript(position: Int) -> CityMatch {
        guard let favoritePositions else { return matches[position] }
        return matches[favoritePositions[favoritePositions.startIndex + position]]
    }
}
