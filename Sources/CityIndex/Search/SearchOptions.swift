// SearchOptions.swift: everything a search is asked besides its query, as one value.

/// How a search matches, orders, forgives, restricts and pages: one value that the library
/// (`CityIndex.search(_:options:)`), `CitySearchSession`, `city-search` and city-server all
/// take, so a search asked through any of them is the same search.
///
/// The defaults are SEARCH.md's search (prefix of the primary name, alphabetical, exact, every
/// match); `.recommended` is a search box's (WORDS.md).
///
/// ```swift
/// var options = SearchOptions.recommended
/// options.limit = 5
/// options.near = try Coordinate(latitude: 43.66, longitude: -70.26)   // Portland, Maine
/// let top = try index.search("portland", options: options)
/// ```
public struct SearchOptions: Sendable, Hashable {
    /// How the query matches names: `.prefix` of the primary name (SEARCH.md), or `.words` of
    /// every name (WORDS.md).
    public var matching: MatchMode
    /// `.alphabetical` (SEARCH.md §3) or `.population` (the most populous first).
    public var order: ResultOrder
    /// The most matches returned (at least 0); `CityMatches.totalCount` still counts all.
    public var limit: Int
    /// The typing mistakes forgiven (WORDS.md §6).
    public var typos: TypoTolerance
    /// Only cities of these countries (two-letter codes such as "FR", case-insensitive; an
    /// empty set keeps none), or every city when `nil`.
    public var countries: Set<String>?
    /// Where the user is: population order then ranks nearer cities higher (WORDS.md §11).
    public var near: Coordinate?
    /// Only cities at most this many metres from `near`, in any order. Ignored without `near`.
    public var within: Double?

    /// Options; each parameter is the property of the same name.
    public init(matching: MatchMode = .prefix, order: ResultOrder = .alphabetical, limit: Int = .max,
                typos: TypoTolerance = .none, countries: Set<String>? = nil, near: Coordinate? = nil, within: Double? = nil) {
        self.matching = matching
        self.order = order
        self.limit = limit
        self.typos = typos
        self.countries = countries
        self.near = near
        self.within = within
    }

    /// What a search box should use: word starts of all names, the most populous first, typos
    /// forgiven by the query's length, the first 20.
    public static var recommended: SearchOptions {
        SearchOptions(matching: .words, order: .population, limit: 20, typos: .automatic)
    }
}
