// CitySearchSession.swift: a type-ahead search box's behaviour over a CityIndex.
import CityIndex

/// What a person typing into a city search box gets: debounced, cancellable `search(queryFragment:)`, a minimum length, duplicate
/// detection, typed errors, and an optional favorites-only mode.
///
/// Each call supersedes the calls still waiting: they end promptly with `.superseded` and
/// never deliver stale results. Cancelling the calling task ends its call with `.cancelled`.
/// The empty query (or only white space) delivers every city, or every favorite, in order.
public actor CitySearchSession {
    public struct Configuration: Sendable {
        /// How long a query must stay unchanged before it runs.
        public var debounce: Duration
        /// Fewer characters than this (after leading white space) give `.tooFewCharacters`;
        /// the empty query is always allowed.
        public var minimumCharacterCount: Int
        /// Whether repeating the last delivered query gives `.sameAsPreviousQuery`.
        public var rejectsRepeatedQueries: Bool
        /// What each search asks (`SearchOptions`, as `CityIndex.search(_:options:)` takes it):
        /// its `limit` applies in population order (the top *k*; the count of all matches
        /// stays available as `totalCount`), while alphabetical order delivers every match (a
        /// prefix search's are a run of the index, free to hold); `near` is where the session
        /// starts (`setLocation(_:)` moves it). The properties below are its fields.
        public var options: SearchOptions
        /// How queries match names (default SEARCH.md prefix; `.words`: WORDS.md).
        public var matching: MatchMode {
            get { options.matching }
            set { options.matching = newValue }
        }
        /// Result order (default alphabetical; `.population`: the most populous first).
        public var order: ResultOrder {
            get { options.order }
            set { options.order = newValue }
        }
        /// With population order, how many results to deliver (the top *k*): `options.limit`.
        public var populationOrderLimit: Int {
            get { options.limit }
            set { options.limit = newValue }
        }
        /// The earlier name of `populationOrderLimit`.
        @available(*, deprecated, renamed: "populationOrderLimit")
        public var rankedResultLimit: Int {
            get { populationOrderLimit }
            set { populationOrderLimit = newValue }
        }
        /// Typing mistakes forgiven (WORDS.md §6; default `.none`, the exact search). Each
        /// match's `editCount` says how many edits it needed.
        public var typos: TypoTolerance {
            get { options.typos }
            set { options.typos = newValue }
        }
        /// Only cities of these countries (two-letter codes, "FR"), or all when `nil` (the default).
        public var countries: Set<String>? {
            get { options.countries }
            set { options.countries = newValue }
        }
        /// Where the user is: population order then ranks nearer cities higher (WORDS.md §11),
        /// and results carry their distance (`CitySearchResults.distanceMeters(of:)`).
        /// `setLocation(_:)` changes it on a running session.
        public var location: Coordinate? {
            get { options.near }
            set { options.near = newValue }
        }
        /// Only cities at most this many metres from the location (`options.within`); none
        /// without a location.
        public var within: Double? {
            get { options.within }
            set { options.within = newValue }
        }

        /// A configuration with `options` (their `limit` the population-order limit).
        public init(options: SearchOptions, debounce: Duration = .milliseconds(250), minimumCharacterCount: Int = 1,
                    rejectsRepeatedQueries: Bool = true) {
            self.options = options
            self.debounce = debounce
            self.minimumCharacterCount = minimumCharacterCount
            self.rejectsRepeatedQueries = rejectsRepeatedQueries
        }

        /// A configuration; each parameter is the property of the same name.
        public init(debounce: Duration = .milliseconds(250), minimumCharacterCount: Int = 1,
                    rejectsRepeatedQueries: Bool = true, matching: MatchMode = .prefix,
                    order: ResultOrder = .alphabetical, populationOrderLimit: Int = 50, typos: TypoTolerance = .none,
                    countries: Set<String>? = nil, location: Coordinate? = nil, within: Double? = nil) {
            self.init(options: SearchOptions(matching: matching, order: order, limit: populationOrderLimit, typos: typos,
                                             countries: countries, near: location, within: within),
                      debounce: debounce, minimumCharacterCount: minimumCharacterCount, rejectsRepeatedQueries: rejectsRepeatedQueries)
        }

        /// The earlier spelling of `init`, with `populationOrderLimit` named `rankedResultLimit`.
        @available(*, deprecated, renamed: "init(debounce:minimumCharacterCount:rejectsRepeatedQueries:matching:order:populationOrderLimit:typos:countries:)")
        public init(debounce: Duration = .milliseconds(250), minimumCharacterCount: Int = 1,
                    rejectsRepeatedQueries: Bool = true, matching: MatchMode = .prefix,
                    order: ResultOrder = .alphabetical, rankedResultLimit: Int, typos: TypoTolerance = .none,
                    countries: Set<String>? = nil) {
            self.init(debounce: debounce, minimumCharacterCount: minimumCharacterCount, rejectsRepeatedQueries: rejectsRepeatedQueries,
                      matching: matching, order: order, populationOrderLimit: rankedResultLimit, typos: typos, countries: countries)
        }

        /// What a search box should use: word starts of all names (WORDS.md), the most
        /// populous first, typos forgiven by query length (`.automatic`), the first 50. The defaults of
        /// `init` stay the exact search of SEARCH.md, which earlier versions delivered.
        public static var recommended: Configuration {
            var options = SearchOptions.recommended
            options.limit = 50
            return Configuration(options: options)
        }
    }

    /// The index searched.
    public let index: CityIndex
    /// The favorites that favorites-only mode shows, if any.
    public let favorites: FavoritesStore?
    public let configuration: Configuration
    private let clock: any Clock<Duration>

    /// Only favorites, in the same order as a normal search. Changing it forgets the last query.
    public private(set) var isFavoritesOnly = false
    /// Where the user is (`Configuration.location` at first).
    public private(set) var location: Coordinate?
    private var generation = 0
    private var pendingDebounce: Task<Void, any Error>?
    private var lastDeliveredQuery: String?
    /// Favorite ranks, sorted, for the favorites version they were computed from.
    private var favoriteRanks: (version: Int, ranks: [Int])?

    /// A session over `index`.
    ///
    /// ```swift
    /// let session = CitySearchSession(index: index, favorites: favorites, configuration: .recommended)
    /// let results = try await session.search(queryFragment: "pheonix")
    /// ```
    /// - Parameters:
    ///   - index: the index to search.
    ///   - favorites: the favorites for favorites-only mode (`setFavoritesOnly(_:)`).
    ///   - configuration: debounce, minimum length, matching, order, typos; `.recommended` for a search box.
    ///   - clock: drives the debounce; tests pass a manual clock.
    public init(index: CityIndex, favorites: FavoritesStore? = nil, configuration: Configuration = Configuration(),
                clock: any Clock<Duration> = ContinuousClock()) {
        self.index = index
        self.favorites = favorites
        self.configuration = configuration
        self.clock = clock
        location = configuration.location
    }

    /// Moves the user: later searches rank from `location` (`nil`: from nowhere). Forgets the
    /// last query, so the same query runs again.
    public func setLocation(_ location: Coordinate?) {
        if location != self.location { lastDeliveredQuery = nil }
        self.location = location
    }

    /// Shows only favorites (in the same order as a normal search) or everything again.
    public func setFavoritesOnly(_ favoritesOnly: Bool) {
        if favoritesOnly != isFavoritesOnly { lastDeliveredQuery = nil }
        isFavoritesOnly = favoritesOnly
    }

    /// Forgets the last delivered query, so the same query runs again (after favorites change).
    public func resetRepeatDetection() { lastDeliveredQuery = nil }

    /// The results for `queryFragment` once it has stayed the latest query for the debounce
    /// interval. Throws `CitySearchError` (see its cases); `.index(.fileChangedWhileOpen)`
    /// when the index file was rewritten in place (open it again and make a new session).
    ///
    /// - Complexity: after the debounce, O(*m*) for the search, plus O(log *f*) with
    ///   favorites only (*f* favorites; O(*f* log *n*) once after favorites change):
    ///   independent of the number of cities and of matches.
    public func search(queryFragment: String) async throws(CitySearchError) -> CitySearchResults {
        generation += 1
        let callGeneration = generation
        pendingDebounce?.cancel()
        pendingDebounce = nil

        let trimmed = String(String.UnicodeScalarView(queryFragment.scalarsAfterLeadingWhiteSpace))
        if !trimmed.isEmpty && trimmed.count < configuration.minimumCharacterCount {
            throw .tooFewCharacters(found: trimmed.count, minimum: configuration.minimumCharacterCount)
        }
        if configuration.rejectsRepeatedQueries && queryFragment == lastDeliveredQuery {
            throw .sameAsPreviousQuery(queryFragment)
        }

        let debounce = Task { [clock, configuration] in try await clock.sleep(for: configuration.debounce) }
        pendingDebounce = debounce
        do {
            try await withTaskCancellationHandler { try await debounce.value } onCancel: { debounce.cancel() }
        } catch {
            throw generation == callGeneration ? .cancelled : .superseded
        }
        guard generation == callGeneration else { throw .superseded }
        guard !Task.isCancelled else { throw .cancelled }
        pendingDebounce = nil

        let matches: CityMatches
        do {
            var options = configuration.options
            options.near = location
            if configuration.order != .population || isFavoritesOnly { options.limit = .max }
            matches = try index.search(queryFragment, options: options)
            // A file rewritten in place gives wrong results, never a crash: do not deliver them.
            try index.checkFileUnchanged()
        } catch {
            throw .index(error)
        }
        lastDeliveredQuery = queryFragment
        guard isFavoritesOnly else {
            return CitySearchResults(query: queryFragment, isFavoritesOnly: false, matches: matches, favoritePositions: nil,
                                     location: location)
        }
        let ranks = currentFavoriteRanks()
        guard matches.rankRange != nil else {
            // Word matching or population order: filter the matches, O(matches).
            let favorite = Set(ranks)
            let positions = matches.indices.filter { favorite.contains(matches[$0].city.rank) }
            return CitySearchResults(query: queryFragment, isFavoritesOnly: true, matches: matches,
                                     favoritePositions: positions[...], location: location)
        }
        // Prefix matches in search order are a contiguous run of ranks.
        let matchRanks = matches.rankRange ?? 0..<0
        let lower = ranks.partitioningIndex(where: { $0 >= matchRanks.lowerBound })
        let upper = ranks.partitioningIndex(where: { $0 >= matchRanks.upperBound })
        let positions = ranks[lower..<upper].map { $0 - matchRanks.lowerBound }
        return CitySearchResults(query: queryFragment, isFavoritesOnly: true, matches: matches,
                                 favoritePositions: positions[...], location: location)
    }

    /// The favorites' ranks in search order, recomputed only when the favorites changed.
    private func currentFavoriteRanks() -> [Int] {
        guard let favorites else { return [] }
        let (ids, version) = favorites.snapshot()
        if let favoriteRanks, favoriteRanks.version == version { return favoriteRanks.ranks }
        let ranks = ids.compactMap { index.city(id: $0)?.rank }.sorted()
        favoriteRanks = (version, ranks)
        return ranks
    }
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `isAfter`, which must be false then true
    /// along the collection. O(log n).
    func partitioningIndex(where isAfter: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
