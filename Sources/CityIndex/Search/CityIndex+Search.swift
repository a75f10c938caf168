// CityIndex+Search.swift: search(_:options:) and explain(_:options:), the entry points of every mode.

extension CityIndex {
    /// Returns the cities matching `query` under `options`: matched by `options.matching`, in
    /// `options.order`, at most `options.limit` of them (`totalCount` of the result counts all
    /// matches), in `options.countries` and within `options.within` metres of `options.near`
    /// when given, ordered from `options.near` in population order (WORDS.md §11).
    ///
    /// - `.prefix, .alphabetical` is `search(_:)` (SEARCH.md), limited to the first `limit`.
    /// - `.words` (WORDS.md) matches word starts of the primary and the alternate names,
    ///   punctuation-insensitive; each city appears once, reporting the primary name when it
    ///   matches, else its first matching alternate name.
    /// - `.population` returns the `limit` most populous matches, ties alphabetical.
    /// - `typos` forgives typing mistakes (WORDS.md §6): a name matches when the start of its
    ///   key is within the budget's edits of the query's key; population order divides a
    ///   match's weight by 10 per edit, alphabetical order puts fewer edits first. A budget of
    ///   0 (`.none`, or `.automatic` below 4 letters) is the exact search.
    /// - `.words` also expands abbreviations followed by another word ("st louis" searches
    ///   "saint louis" too; WORDS.md §7) and transliterated vowels ("muenchen" searches
    ///   "munchen" too; §8). With `typos` other than `.none`, a query of several words that
    ///   finds fewer than 20 cities also matches names with words between the query's words
    ///   ("rio janeiro" finds Rio de Janeiro; §9).
    ///
    /// - Complexity: the trie walk is O(*m*) for a query key of *m* bytes and the count is
    ///   O(1). Population order then takes O(*k*·*d*·*c*·log(*k*·*d*·*c*)) for *k* = `limit`,
    ///   *d* the depth of the trie below the query and *c* children per node, independent of
    ///   the number of matches. Word matching in alphabetical order is O(*p* log *p*) (or
    ///   O(*p* + *n*) when large) for *p* matching postings and *n* cities. A typo-tolerant
    ///   search walks every trie path within the budget, for each abbreviation variant of a
    ///   word-matching query (`keyVariantSearch`).
    /// - With `countries` or `within`, the walk, then O(*p*) for the *p* entries it matches (the
    ///   country is one read of the city's record; `restrictedMatches(of:keeping:)`) and
    ///   O(*c* log *c*) to order the *c* that pass, so a short query that matches much of the
    ///   index costs a pass over its entries. With `near` alone, the search for the first
    ///   `LocationBias.candidateCount` matches, then O(*c* log *c*) to order them.
    ///
    /// The stages that run are `SearchPlan`'s; `explain(_:options:)` shows them.
    /// ```swift
    /// let top = try index.search("wien", options: SearchOptions(matching: .words, order: .population, limit: 10))
    /// print(top.totalCount, top[0].name, top[0].matchedAlternateName ?? "-")   // 23 Vienna Wien
    /// ```
    /// - Parameters:
    ///   - query: what the user typed; folded like the names (case, accents, width).
    ///   - options: how to match, order, forgive, restrict and page (`SearchOptions`).
    /// - Throws: `IndexFileError.queryTooLong` for a query of more than
    ///   `maximumQueryByteCount` bytes, `.corruptNode` when a walk meets a damaged node, and
    ///   `.searchTooCostly` past `searchEntryLimit`.
    public func search(_ query: String, options: SearchOptions) throws(IndexFileError) -> CityMatches {
        precondition(options.limit >= 0, "limit must not be negative")
        try Self.checkLength(of: query)
        return CityMatches(try run(SearchPlan(query: query, options: options, contents: contents)))
    }

    /// `search(_:options:)`, and what it did: each stage that ran (`SearchPlan`) with its time,
    /// its candidates in and out, the walks it made and the trie nodes they visited, and for
    /// the first `rankings` matches the weight that put each where it is and what changed it.
    /// The same matches as `search(_:options:)`; slower by the clock reads and the counting.
    ///
    /// ```swift
    /// let explanation = try index.explain("paris tx", options: .recommended)
    /// for stage in explanation.stages { print(stage.name, stage.candidatesOut, stage.duration) }
    /// ```
    public func explain(_ query: String, options: SearchOptions, rankings: Int = 10) throws(IndexFileError) -> SearchExplanation {
        precondition(options.limit >= 0, "limit must not be negative")
        try Self.checkLength(of: query)
        let plan = SearchPlan(query: query, options: options, contents: contents)
        var run = SearchRun(plan, on: self, traced: true)
        let clock = ContinuousClock()
        let start = clock.now
        let candidates = try run.execute()
        let duration = clock.now - start
        return SearchExplanation(query: query, options: options, stages: run.trace ?? [], duration: duration,
                                 matches: CityMatches(candidates), rankings: rankings)
    }

    /// `search(_:options:)` with the options as parameters (`countries` and `near` as in
    /// `SearchOptions`).
    public func search(_ query: String, matching: MatchMode, order: ResultOrder = .alphabetical,
                       limit: Int = .max, typos: TypoTolerance = .none) throws(IndexFileError) -> CityMatches {
        try search(query, options: SearchOptions(matching: matching, order: order, limit: limit, typos: typos))
    }

    /// `search(_:options:)` with the options as parameters, restricted to `countries`.
    ///
    /// ```swift
    /// let french = try index.search("paris", matching: .words, order: .population, limit: 5, countries: ["FR"])
    /// ```
    public func search(_ query: String, matching: MatchMode = .prefix, order: ResultOrder = .alphabetical,
                       limit: Int = .max, typos: TypoTolerance = .none,
                       countries: Set<String>?) throws(IndexFileError) -> CityMatches {
        try search(query, options: SearchOptions(matching: matching, order: order, limit: limit, typos: typos, countries: countries))
    }

    /// `search(_:options:)` with the options as parameters, from where the user is.
    ///
    /// ```swift
    /// let here = try Coordinate(latitude: 43.66, longitude: -70.26)   // Portland, Maine
    /// let top = try index.search("portland", matching: .words, order: .population, limit: 5, near: here)
    /// ```
    public func search(_ query: String, matching: MatchMode = .prefix, order: ResultOrder = .alphabetical,
                       limit: Int = .max, typos: TypoTolerance = .none, countries: Set<String>? = nil,
                       near: Coordinate?, within: Double? = nil) throws(IndexFileError) -> CityMatches {
        try search(query, options: SearchOptions(matching: matching, order: order, limit: limit, typos: typos, countries: countries,
                                                 near: near, within: within))
    }

    /// The most UTF-8 bytes a query may have: 1,024, more than any city's name in GeoNames
    /// (the longest is under 200), and a bound on what one query costs (a typo-tolerant
    /// walk's work grows with the query's length). Longer queries throw `queryTooLong`.
    public static let maximumQueryByteCount = 1_024

    /// Throws `queryTooLong` for a query of more than `maximumQueryByteCount` UTF-8 bytes. O(1)
    /// for a native string.
    static func checkLength(of query: String) throws(IndexFileError) {
        let byteCount = query.utf8.count
        guard byteCount <= maximumQueryByteCount else { throw .queryTooLong(byteCount: byteCount, limit: maximumQueryByteCount) }
    }

    /// `search(_:matching:order:limit:typos:)` without the qualifier stage (WORDS.md §10): what
    /// WORDS.md §2–§9 specify alone, which the tests' naive references model.
    package func searchIgnoringPlaces(_ query: String, matching: MatchMode, order: ResultOrder = .alphabetical,
                                      limit: Int = .max, typos: TypoTolerance = .none) throws(IndexFileError) -> CityMatches {
        CityMatches(try run(SearchPlan(query: query, options: SearchOptions(matching: matching, order: order, limit: limit, typos: typos),
                                       allowsQualifiers: false, contents: contents)))
    }

    /// The scalars of a key's UTF-8.
    static func scalars(of key: [UInt8]) -> [UInt32] {
        key.withUnsafeBytes { Array(UTF8Decoding.scalars(of: $0).map(\.value)) }
    }
}
