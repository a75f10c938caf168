// CityIndex+CountryFilter.swift: a search restricted to some countries.

extension CityIndex {
    /// `search(_:matching:order:limit:typos:)` restricted to cities of `countries` (two-letter
    /// codes such as "FR"; case-insensitive; an empty set restricts to nothing; `nil` does not
    /// restrict, so callers pass an optional filter through): the same
    /// matches, matched names, highlights and order, without the others; `totalCount` counts
    /// the matches in those countries.
    ///
    /// ```swift
    /// let french = try index.search("paris", matching: .words, order: .population, limit: 5, countries: ["FR"])
    /// ```
    /// - Complexity: with `countries`, the walk, then O(*p*) for the *p* entries it matches (the
    ///   country is one read of the city's record; `restrictedMatches(of:keeping:)`) and
    ///   O(*c* log *c*) to order the *c* that pass, so a short query that matches much of the
    ///   index costs a pass over its entries.
    public func search(_ query: String, matching: MatchMode = .prefix, order: ResultOrder = .alphabetical,
                       limit: Int = .max, typos: TypoTolerance = .none,
                       countries: Set<String>?) throws(IndexFileError) -> CityMatches {
        precondition(limit >= 0, "limit must not be negative")
        try Self.checkLength(of: query)
        return try run(SearchPlan(query: query, matching: matching, order: order, limit: limit, typos: typos,
                                  countries: countries, foldTable: contents.foldTable))
    }

    /// `search(_:matching:order:limit:typos:countries:)` from where the user is (WORDS.md §11):
    /// in population order, nearer cities rank higher (`LocationBias`: a city next door counts
    /// as one a hundred times larger, one 500 km away as itself); with `within`, only cities at
    /// most that many metres from `near` match, in any order.
    ///
    /// ```swift
    /// let here = try Coordinate(latitude: 43.66, longitude: -70.26)   // Portland, Maine
    /// let top = try index.search("portland", matching: .words, order: .population, limit: 5, near: here)
    /// ```
    /// - Complexity: the search without the location for the first `LocationBias.candidateCount`
    ///   matches, then O(*c* log *c*) to order them; with `within`, as with `countries`.
    public func search(_ query: String, matching: MatchMode = .prefix, order: ResultOrder = .alphabetical,
                       limit: Int = .max, typos: TypoTolerance = .none, countries: Set<String>? = nil,
                       near: Coordinate?, within: Double? = nil) throws(IndexFileError) -> CityMatches {
        precondition(limit >= 0, "limit must not be negative")
        try Self.checkLength(of: query)
        return try run(SearchPlan(query: query, matching: matching, order: order, limit: limit, typos: typos,
                                  countries: countries, near: near, within: within, foldTable: contents.foldTable))
    }

    /// "FR" as the record's country value (first letter in the low byte); nil unless two ASCII letters.
    static func countryCodeValue(_ code: String) -> UInt16? {
        let bytes = Array(code.uppercased().utf8)
        guard bytes.count == 2, bytes.allSatisfy({ (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains($0) }) else { return nil }
        return UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    }
}
