// SearchPlan.swift: how one search runs, decided from the query and the options before anything is read.

/// The stages of one search (`CityIndex.search(_:matching:order:limit:typos:countries:)`),
/// decided from the query and the options alone, then executed in order by `CityIndex.run(_:)`:
///
/// 1. **Walk** (`Walk`): the trie walk that finds the matches, in the order asked for.
/// 2. **Skipped words** (WORDS.md §9), forgiving word searches only: when the walk found fewer
///    than `SkippedWords.fallbackThreshold` cities, names with words between the query's words
///    join them. The walk then returns at least that many, to know, and to merge with.
/// 3. **Initialisms** (WORDS.md §12), word matching in population order with a key of 2 to 5
///    letters: the query's initialism matches ("SF" for "sf") are merged in by their weight.
/// 4. **Overshadowed matches** (WORDS.md §13), word matching in population order: a borrowed
///    name or a district moves after the city it names ("paris": Paris and Paris, Texas
///    before "Paris 15 Vaugirard"). When the first matches do not decide the first
///    `matchLimit`, stages 1 to 3 run again for twice as many. With stage 6 or 7, it runs on
///    the matches those keep.
/// 5. **Qualifier** (WORDS.md §10): when the query does not name a city as typed, trailing
///    words that name a country or a region ("paris tx", "london, uk") keep the matches of the
///    words before them in that place, merged before the matches so far with a strong weight.
/// 6. **Countries**: only the matches in the given countries stay.
/// 7. **Radius**: only the matches within `within` metres of `near` stay. With stage 6 or 7,
///    stages 1 and 2 find only the matches these keep (`SearchRestriction`), and the
///    initialisms' and the qualifier's matches are filtered before they merge.
/// 8. **Location bias** (WORDS.md §11), population order with `near`: the first
///    `LocationBias.candidateCount` matches are ordered again by population and nearness.
/// 9. **Page**: the first `limit` matches; `totalCount` counts the matches of the stages
///    before it. Stages 6 and 7 need every match: the stages before them then keep every
///    match that passes.
///
/// Deciding costs the query's folding, O(*m*) for *m* query bytes, and allocates only for the
/// keys of word matching and typo tolerance.
struct SearchPlan {
    /// How the matches are found.
    enum Walk {
        /// The exact walk of `NODE` with the folded query (SEARCH.md §2).
        case prefix
        /// The exact walk of `WNOD` with the query's word key (WORDS.md §2); the empty key
        /// matches every city by its primary name.
        case words(key: [UInt8])
        /// One typo-tolerant walk per key (WORDS.md §6–§8): the key as typed first, then its
        /// abbreviation and transliteration variants, each with the edits it costs by itself;
        /// matches within `budget` edits. `budget` may be 0 (variants of an exact search).
        case keyVariants(keys: [(key: [UInt32], cost: Int)], budget: Int)
    }

    let query: String
    let matching: MatchMode
    let order: ResultOrder
    let walk: Walk
    /// The query's word key when the skipped-word stage runs.
    let skippedWordKey: [UInt8]?
    /// The query's word key when the initialism stage runs (word matching in population
    /// order, a key of 2 to 5 letters a–z: WORDS.md §12).
    let initialismKey: [UInt8]?
    /// Whether stage 4 runs (word matching in population order, WORDS.md §13).
    var movesOvershadowedMatches: Bool { matching == .words && order == .population }

    /// Whether the walk forgives typos (a budget above 0).
    var forgivesTypos: Bool {
        if case .keyVariants(_, let budget) = walk { return budget > 0 }
        return false
    }
    /// The country codes (`CityIndex.countryCodeValue`) of the country stage, when it runs.
    let countries: Set<UInt16>?
    /// The page's size.
    let limit: Int
    /// Whether the qualifier stage runs (not for the searches it runs itself).
    let allowsQualifiers: Bool
    let typos: TypoTolerance
    /// The user's location (stage 8), and the radius around it (stage 7), in metres.
    let near: Coordinate?
    let within: Double?
    /// The entries the search may still read (`CityIndex.searchEntryLimit`), shared by the
    /// searches this one runs.
    var budget: EntryBudget?

    init(query: String, matching: MatchMode, order: ResultOrder, limit: Int, typos: TypoTolerance,
         countries: Set<String>?, near: Coordinate? = nil, within: Double? = nil, allowsQualifiers: Bool = true,
         foldTable: FoldTable) {
        self.query = query
        self.matching = matching
        self.order = order
        self.limit = limit
        self.typos = typos
        self.near = near
        self.within = near == nil ? nil : within
        self.allowsQualifiers = allowsQualifiers
        self.countries = countries.map { Set($0.compactMap(CityIndex.countryCodeValue)) }
        // The word key, folded once: word matching always needs it (WORDS.md §2).
        let wordKey = matching == .words ? Self.key(of: query, matching: .words, foldTable: foldTable) : []
        skippedWordKey = matching == .words && typos != .none ? wordKey : nil
        initialismKey = matching == .words && order == .population && Initialisms.canBeInitialism(wordKey) ? wordKey : nil
        walk = Self.walk(query: query, wordKey: wordKey, matching: matching, typos: typos, foldTable: foldTable)
    }

    /// How many matches the walk, the skipped-word and the qualifier stages keep: every match
    /// for the country and radius stages, the bias's candidates for the bias.
    var matchLimit: Int {
        if countries != nil || within != nil { return .max }
        return isBiased ? max(limit, LocationBias.candidateCount) : limit
    }

    /// The cities stages 6 and 7 keep, when either runs: the search then finds only those
    /// (`CityIndex.restrictedMatches(of:keeping:)`), and the qualifier's matches are filtered.
    func restriction(in contents: IndexContents) -> SearchRestriction? {
        guard countries != nil || within != nil else { return nil }
        return SearchRestriction(countries: countries, within: near == nil ? nil : within, of: near, contents: contents)
    }

    /// Whether the walk merges stage 3's initialisms itself: an exact word walk has the key's
    /// match at hand.
    var walkMergesInitialisms: Bool {
        guard initialismKey != nil, case .words = walk else { return false }
        return true
    }

    /// Whether stage 8 runs.
    var isBiased: Bool { near != nil && order == .population }

    /// How many matches the walk returns when stages 1 to 3 keep `matchLimit`.
    func walkLimit(forMatchLimit matchLimit: Int) -> Int {
        skippedWordKey == nil ? matchLimit : max(matchLimit, SkippedWords.fallbackThreshold)
    }

    /// Typos (WORDS.md §6), abbreviations and transliterated vowels (§7, §8, word matching)
    /// search several keys at once; a query with none of them takes one exact walk.
    private static func walk(query: String, wordKey: [UInt8], matching: MatchMode, typos: TypoTolerance,
                             foldTable: FoldTable) -> Walk {
        let exact: Walk = matching == .words ? .words(key: wordKey) : .prefix
        guard matching == .words || typos != .none else { return exact }
        let key = matching == .words ? wordKey : Self.key(of: query, matching: .prefix, foldTable: foldTable)
        let mayHaveVariants = matching == .words && (key.contains(0x20) || TransliteratedVowels.collapsed(key) != nil)
        guard !key.isEmpty && (typos != .none || mayHaveVariants) else { return exact }
        // The keys to search and the edits each costs by itself.
        var variants: [(key: [UInt8], cost: Int)] = [(key, 0)]
        if mayHaveVariants {
            variants = WordAbbreviations.variants(of: key).map { ($0, 0) }
            for variant in variants {
                if let collapsed = TransliteratedVowels.collapsed(variant.key),
                   variants.count < WordAbbreviations.maximumVariantCount * 2 {
                    variants.append((collapsed.key, collapsed.count))
                }
            }
        }
        let budget = typos.budget(forLetterCount: CityIndex.scalars(of: key).count { $0 != 0x20 })
        guard budget > 0 || variants.count > 1 else { return exact }
        return .keyVariants(keys: variants.map { (CityIndex.scalars(of: $0.key), $0.cost) }, budget: budget)
    }

    /// The key a search of `matching` walks its trie with: the folded query (SEARCH.md §2) for
    /// `.prefix`, its word key (WORDS.md §2) for `.words`.
    static func key(of query: String, matching: MatchMode, foldTable: FoldTable) -> [UInt8] {
        var bytes: [UInt8] = []
        switch matching {
        case .prefix:
            for scalar in query.scalarsAfterLeadingWhiteSpace {
                _ = foldTable.withFoldedUTF8(of: scalar) { folded in
                    bytes.append(contentsOf: folded)
                    return true
                }
            }
        case .words:
            var encoder = WordKeyEncoder()
            for scalar in query.unicodeScalars {
                _ = foldTable.withFoldedUTF8(of: scalar) { folded in
                    encoder.feed(foldedUTF8: folded) { byte, _ in
                        bytes.append(byte)
                        return true
                    }
                }
            }
            _ = encoder.finishQuery { byte in
                bytes.append(byte)
                return true
            }
        }
        return bytes
    }
}
