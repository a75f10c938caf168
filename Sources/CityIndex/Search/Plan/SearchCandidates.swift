// SearchCandidates.swift: the matches a search's stages pass from one to the next.

/// The matches one stage of a search hands to the next (`SearchRun`): a contiguous run of
/// ranks (prefix matching in alphabetical order) or entries in the order asked for, the
/// queries their highlights come from, and how many cities match in all. The last stage's
/// candidates become the public `CityMatches`.
///
/// Invariants (`checkInvariants()`, run after every stage in debug builds): the ranks are
/// cities of the index; no city is held twice; `totalCount` is at least the matches held; a
/// qualified entry has a `qualifiedQuery` to highlight with.
struct SearchCandidates: Sendable {
    /// One match of an array-backed result: a city and the name slot that matched
    /// (0 = primary name, *s* = alternate *s*).
    struct Entry: Sendable {
        var rank: UInt32
        var slot: UInt16
        /// Edits between the query and the name (typo-tolerant searches, WORDS.md §6).
        var edits: UInt8 = 0
        /// Which of the query's keys matched (`MatchQuery.typoTolerant`; WORDS.md §7).
        var variant: UInt8 = 0
        /// Whether the query's words matched with words of the name between them (WORDS.md §9).
        var skipsWords = false
        /// Whether the match is a demoted alternate-name match (WORDS.md §5).
        var isDemoted = false
        /// Whether the match is an initialism of its city (WORDS.md §12: "SF" for "sf").
        var isInitialism = false
        /// Whether the match is of a primary name that is the whole query (WORDS.md §14).
        var isWholeName = false
        /// Why an earlier match moved this one after others (WORDS.md §13), if it did.
        var overshadowing: Overshadowing?
        /// Whether the match is of the query's name part, in a place it names (WORDS.md §10):
        /// its highlight and keys are those of `qualifiedQuery`.
        var isQualified = false
        /// Edits between a qualified match's place words and the place they name (WORDS.md §10:
        /// "fran" for Iran): counted in `editCount` and the weight, not in the highlight.
        var qualifierEdits: UInt8 = 0

        /// Every edit the match needs: its name's and its place words'.
        var totalEdits: Int { Int(edits) + Int(qualifierEdits) }
    }

    enum Storage: Sendable {
        case ranks(Range<Int>)
        case entries([Entry])
    }

    let contents: IndexContents
    let storage: Storage
    let query: MatchQuery
    /// The query of the name part of a qualified query (WORDS.md §10), for the entries that
    /// matched it (`Entry.isQualified`); `nil` when none did.
    let qualifiedQuery: MatchQuery?

    init(contents: IndexContents, storage: Storage, query: MatchQuery, qualifiedQuery: MatchQuery? = nil, totalCount: Int) {
        self.contents = contents
        self.storage = storage
        self.query = query
        self.qualifiedQuery = qualifiedQuery
        // A count from a damaged file's trie (a node's entries less its repeats) can exceed
        // the cities: none can match more than there are.
        self.totalCount = Swift.min(totalCount, contents.cityCount)
        // The next stage or the caller reads the first matches' names (covered words, highlights,
        // names): load them together, early.
        if case .entries(let entries) = storage { contents.prefetchNames(of: entries.prefix(FormatConstants.topListLength)) }
    }


    /// How many cities match the query in all: `count`, or more when the search was limited.
    let totalCount: Int

    /// The matches held.
    var count: Int {
        switch storage {
        case .ranks(let ranks): ranks.count
        case .entries(let entries): entries.count
        }
    }

    /// Match `position`, in `0 ..< count`, as the public result shows it.
    subscript(position: Int) -> CityMatch {
        precondition(position >= 0 && position < count, "match index out of range")
        switch storage {
        case .ranks(let ranks):
            return CityMatch(city: City(contents: contents, rank: ranks.lowerBound + position), slot: 0, query: query)
        case .entries(let entries):
            let entry = entries[position]
            let query = entry.isQualified ? qualifiedQuery ?? query : query
            return CityMatch(city: City(contents: contents, rank: Int(entry.rank)), slot: Int(entry.slot), query: query,
                             editCount: entry.totalEdits, nameEditCount: Int(entry.edits), variant: Int(entry.variant),
                             skipsWords: entry.skipsWords,
                             isDemoted: entry.isDemoted, overshadowing: entry.overshadowing)
        }
    }

    /// No candidates: what a search that matches nothing hands on.
    static func none(contents: IndexContents, query: MatchQuery) -> SearchCandidates {
        SearchCandidates(contents: contents, storage: .ranks(0 ..< 0), query: query, totalCount: 0)
    }

    /// Stops on a broken invariant (see the type's comment). O(*M*) for the *M* matches held;
    /// the search runs it after each stage in debug builds only.
    func checkInvariants() {
        precondition(totalCount >= count || totalCount == contents.cityCount, "more candidates held than counted")
        switch storage {
        case .ranks(let ranks):
            precondition(ranks.lowerBound >= 0 && ranks.upperBound <= contents.cityCount, "ranks outside the index")
        case .entries(let entries):
            var seen = Set<UInt32>()
            for entry in entries {
                precondition(Int(entry.rank) < contents.cityCount, "rank outside the index")
                precondition(seen.insert(entry.rank).inserted, "a city held twice")
                precondition(!entry.isQualified || qualifiedQuery != nil, "a qualified match without its query")
            }
        }
    }
}

/// What a result's highlights are computed from.
enum MatchQuery: Sendable {
    /// Prefix of the primary name: SEARCH.md §4, from the folded query's scalar count.
    case prefix(foldedScalarCount: Int)
    /// Word matching: the query's word key (WORDS.md §4).
    case words(key: [UInt8])
    /// A search of `matching` with several keys or typos (WORDS.md §6–§8): the scalars of
    /// each query key (the folded query or a word key), the key as typed first, and the edits
    /// a match of each costs by itself (a transliterated key's, §8).
    case typoTolerant(matching: MatchMode, keys: [[UInt32]], costs: [Int])

    /// The word key of the query as typed (word matching), else empty.
    var typedWordKey: [UInt8] {
        switch self {
        case .prefix, .typoTolerant(.prefix, _, _): return []
        case .words(let key): return key
        case .typoTolerant(.words, let keys, _):
            var bytes: [UInt8] = []
            for value in keys.first ?? [] {
                if let scalar = Unicode.Scalar(value) { bytes.append(contentsOf: String(scalar).utf8) }
            }
            return bytes
        }
    }
}

extension SearchCandidates {
    /// These matches' queries over `entries` (a subset or another order), with `totalCount`.
    func holding(_ entries: [Entry], totalCount: Int) -> SearchCandidates {
        SearchCandidates(contents: contents, storage: .entries(entries), query: query, qualifiedQuery: qualifiedQuery, totalCount: totalCount)
    }

    /// The matches held, as entries.
    var entries: [Entry] {
        switch storage {
        case .ranks(let ranks): ranks.map { Entry(rank: UInt32($0), slot: 0) }
        case .entries(let entries): entries
        }
    }

    /// The matches whose city (its rank) passes `isKept`, in the same order; `totalCount` counts
    /// them. O(*M*) for the *M* matches held.
    func filtered(_ isKept: (Int) -> Bool) -> SearchCandidates {
        var kept: [Entry] = []
        switch storage {
        case .ranks(let ranks):
            for rank in ranks where isKept(rank) { kept.append(Entry(rank: UInt32(rank), slot: 0)) }
        case .entries(let entries):
            kept = entries.filter { isKept(Int($0.rank)) }
        }
        return SearchCandidates(contents: contents, storage: .entries(kept), query: query, totalCount: kept.count)
    }

    /// The population-order weight of `entry` before integer rounding (WORDS.md §5, §6): the
    /// city's population, a tenth for an alternate name and again when demoted, a tenth per
    /// edit (the place words' too, §10) or for skipped words, ten times the population for an
    /// initialism (§12), `WholeNames.populationFactor` times it for a whole primary name (§14), divided
    /// again when overshadowed (§13). What the location bias and the qualifier merge weigh.
    func weight(of entry: Entry) -> Double {
        var weight: Double
        if entry.isInitialism {
            weight = Double(contents.population(ofRank: Int(entry.rank))) * Initialisms.populationFactor
        } else if entry.isWholeName {
            weight = Double(UInt64(contents.population(ofRank: Int(entry.rank))) * WholeNames.populationFactor)
        } else {
            let key = contents.populationOrderKey(rank: Int(entry.rank), slot: Int(entry.slot), isDemoted: entry.isDemoted)
            weight = Double(key.undividedWeight)
            for _ in 0 ..< entry.totalEdits + (entry.skipsWords ? 1 : 0) { weight /= Double(PopulationOrderKey.editDivisor) }
        }
        if let overshadowing = entry.overshadowing { weight = overshadowing.dividing(weight) }
        return weight
    }

    /// `weight(of:)` in integers, each division rounding down as `PopulationOrderKey.weight`
    /// does: the order the searches of §5–§12 give their matches, heaviest first (up to ties
    /// that differ after rounding), and what §13 moves overshadowed matches by.
    func orderWeight(of entry: Entry) -> UInt64 {
        var weight: UInt64
        if entry.isInitialism {
            weight = UInt64(contents.population(ofRank: Int(entry.rank))) * UInt64(Initialisms.populationFactor)
        } else if entry.isWholeName {
            weight = UInt64(contents.population(ofRank: Int(entry.rank))) * WholeNames.populationFactor
        } else {
            let edits = entry.totalEdits + (entry.skipsWords ? 1 : 0)
            weight = UInt64(contents.populationOrderKey(rank: Int(entry.rank), slot: Int(entry.slot), isDemoted: entry.isDemoted,
                                                        edits: edits).weight)
        }
        if let overshadowing = entry.overshadowing { weight = overshadowing.dividing(weight) }
        return weight
    }
}

extension SearchCandidates {
    /// The first `limit` matches, same total count.
    func limited(to limit: Int) -> SearchCandidates {
        switch storage {
        case .ranks(let ranks) where ranks.count > limit:
            return SearchCandidates(contents: contents, storage: .ranks(ranks.lowerBound ..< ranks.lowerBound + limit), query: query, totalCount: totalCount)
        case .entries(let entries) where entries.count > limit:
            return holding(Array(entries.prefix(limit)), totalCount: totalCount)
        default:
            return self
        }
    }
}
