// SearchPlan.swift: how one search runs, its stages decided from the query and the options before anything is read.

/// The stages of one search (`CityIndex.search(_:options:)`), decided from the query and the
/// options alone, as values; `SearchRun` executes them in order. The stages, in the only order
/// a plan holds them:
///
/// 1. **Walk** (`.walk`, SEARCH.md §2, WORDS.md §2, §6–§8): the trie walk that finds the
///    matches, in the order asked for.
/// 2. **Skipped words** (`.skippedWords`, WORDS.md §9), forgiving word searches only: when
///    the walk found fewer than `SkippedWords.fallbackThreshold` cities, names with words
///    between the query's words join them. The walk then returns at least that many, to know,
///    and to merge with.
/// 3. **Initialisms** (`.initialisms`, WORDS.md §12), word matching in population order with
///    a key of 2 to 5 letters: the query's initialism matches ("SF" for "sf") are merged in by
///    their weight. An exact word walk merges them itself (it has the key's match at hand).
///    **Whole names** (`.wholeNames`, WORDS.md §14), word matching in population order: the
///    matches by a primary name that is the whole query are merged in by their weight.
/// 4. **Overshadowed matches** (`.overshadowing`, WORDS.md §13), word matching in population
///    order: a borrowed name or a district moves after the city it names. When the first
///    matches do not decide the first `matchLimit`, stages 1 to 3 run again for twice as many.
/// 5. **Qualifier** (`.qualifier`, WORDS.md §10): when the query does not name a city as
///    typed, trailing words that name a country or a region ("paris tx", "london, uk") keep
///    the matches of the words before them in that place, merged before the matches so far
///    with a strong weight.
/// 6. **Countries and radius**: with either, stages 1 and 2 are one stage,
///    `.restrictedWalk`, that finds every match these keep (`SearchRestriction`), and the
///    initialisms' and the qualifier's matches are filtered before they merge.
/// 7. **Location bias** (`.bias`, WORDS.md §11), population order with `near`: the first
///    `LocationBias.candidateCount` matches are ordered again by population and nearness.
/// 8. **Page** (`.page`): the first `limit` matches; `totalCount` counts the matches of the
///    stages before it.
/// 9. **Spellings** (`.spellings`, WORDS.md §3), word matching with a query that has letters
///    outside ASCII: each match by an alternate name reports the spelling of it closest to
///    the query as typed ("münchen": "München", not "Munchen").
///
/// Stages 1 to 7 keep `matchLimit` matches: every match with countries or a radius, the
/// bias's candidates with a location, else the page's. Deciding costs the query's folding,
/// O(*m*) for *m* query bytes, and allocates only for the keys of word matching and typo
/// tolerance.
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

    /// One stage, with what it needs to run.
    enum Stage {
        /// Stage 1: the walk, keeping the stage's window of matches.
        case walk(Walk)
        /// Stages 1, 2 and 6 at once: every match of the plan's walk (and of skipped words,
        /// when planned) whose city the restriction keeps.
        case restrictedWalk(SearchRestriction)
        /// Stage 2: names with words between the query's words (`key`: the query's word key).
        case skippedWords(key: [UInt8])
        /// Stage 3: the initialism matches of `key`, the restriction's only when there is one.
        case initialisms(key: [UInt8], keeping: SearchRestriction?)
        /// Stage 3b: the matches by a primary name that is the whole of one of the plan's
        /// `costFreeKeys`, the restriction's only when there is one.
        case wholeNames(keeping: SearchRestriction?)
        /// Stage 4: overshadowed matches after the others; runs the stages before it again
        /// with a larger window when the first matches do not decide.
        case overshadowing
        /// Stage 5: the qualified readings of the query, the restriction's matches only.
        case qualifier(keeping: SearchRestriction?)
        /// Stage 7: ordered again from where the user is.
        case bias(Coordinate)
        /// Stage 8: the first `limit` matches.
        case page(limit: Int)
        /// Stage 9: the spelling of each matched alternate closest to the query's letters.
        case spellings(TypedLetters)

        /// Whether the stage keeps a window of matches (stages 1 to 3, `SearchRun`).
        var keepsWindow: Bool {
            switch self {
            case .walk, .restrictedWalk, .skippedWords, .initialisms, .wholeNames: true
            case .overshadowing, .qualifier, .bias, .page, .spellings: false
            }
        }

        /// The stage's name and the section of WORDS.md (or SEARCH.md) that specifies it.
        var name: (name: String, section: String) {
            switch self {
            case .walk(.prefix): ("prefix walk", "SEARCH.md §2")
            case .walk(.words): ("word walk", "WORDS.md §2")
            case .walk(.keyVariants): ("forgiving walk", "WORDS.md §6–§8")
            case .restrictedWalk: ("restricted walk", "WORDS.md §6–§9")
            case .skippedWords: ("skipped words", "WORDS.md §9")
            case .initialisms: ("initialisms", "WORDS.md §12")
            case .wholeNames: ("whole names", "WORDS.md §14")
            case .overshadowing: ("overshadowed matches", "WORDS.md §13")
            case .qualifier: ("qualifier", "WORDS.md §10")
            case .bias: ("location bias", "WORDS.md §11")
            case .page: ("page", "WORDS.md §5")
            case .spellings: ("spellings", "WORDS.md §3")
            }
        }
    }

    let query: String
    let matching: MatchMode
    let order: ResultOrder
    let typos: TypoTolerance
    let walk: Walk
    /// The stages, in order (the type's comment).
    let stages: [Stage]
    /// How many matches stages 1 to 7 keep: every match for the countries and the radius, the
    /// bias's candidates for the bias, else the page's.
    let matchLimit: Int
    /// The query's word key when stage 2 runs (alone, or in `.restrictedWalk`).
    let skippedWordKey: [UInt8]?
    /// The walk's word keys that cost nothing (`costFreeKeys(of:)`): §14's whole names and
    /// §13's exact names are of these.
    let costFreeKeys: [(key: [UInt8], variant: Int)]
    /// Whether the exact word walk merges stage 3's initialisms itself (it has the key's
    /// match at hand): stage 3 is then not a stage of its own.
    let walkMergesInitialisms: Bool
    /// The meter of the entries the search may still read and of its walks (`SearchMeter`),
    /// shared by the searches this one runs.
    var meter: SearchMeter?

    /// The plan of `query` under `options`; `allowsQualifiers` false leaves out stage 5 (the
    /// qualifier's own searches, and what WORDS.md §2–§9 specify alone).
    init(query: String, options: SearchOptions, allowsQualifiers: Bool = true, contents: IndexContents) {
        self.query = query
        matching = options.matching
        order = options.order
        typos = options.typos
        let foldTable = contents.foldTable
        // The word key, folded once: word matching always needs it (WORDS.md §2).
        let wordKey = matching == .words ? Self.key(of: query, matching: .words, foldTable: foldTable) : []
        walk = Self.walk(query: query, wordKey: wordKey, matching: matching, typos: typos, foldTable: foldTable)
        let near = options.near, within = options.near == nil ? nil : options.within
        let countries = options.countries.map { Set($0.compactMap(CityIndex.countryCodeValue)) }
        let restriction = countries != nil || within != nil
            ? SearchRestriction(countries: countries, within: within, of: near, contents: contents) : nil
        let isBiased = near != nil && order == .population
        matchLimit = restriction != nil ? .max : isBiased ? max(options.limit, LocationBias.candidateCount) : options.limit

        var stages: [Stage] = []
        stages.reserveCapacity(9)   // one allocation: a plan has at most 9 stages
        let skipsWords = matching == .words && typos != .none
        skippedWordKey = skipsWords ? wordKey : nil
        if let restriction {
            stages.append(.restrictedWalk(restriction))
        } else {
            stages.append(.walk(walk))
            if skipsWords { stages.append(.skippedWords(key: wordKey)) }
        }
        var walkMergesInitialisms = false
        if matching == .words && order == .population && Initialisms.canBeInitialism(wordKey) {
            if case .words = walk, restriction == nil {
                walkMergesInitialisms = true
            } else {
                stages.append(.initialisms(key: wordKey, keeping: restriction))
            }
        }
        self.walkMergesInitialisms = walkMergesInitialisms
        costFreeKeys = Self.costFreeKeys(of: walk)
        if matching == .words && order == .population && !costFreeKeys.isEmpty { stages.append(.wholeNames(keeping: restriction)) }
        if matching == .words && order == .population && matchLimit > 0 { stages.append(.overshadowing) }
        if allowsQualifiers { stages.append(.qualifier(keeping: restriction)) }
        if isBiased, let near { stages.append(.bias(near)) }
        stages.append(.page(limit: options.limit))
        if matching == .words {
            let typed = TypedLetters(query: query)
            if !typed.scalars.isEmpty { stages.append(.spellings(typed)) }
        }
        self.stages = stages
    }

    /// How many matches the walk keeps when stages 1 to 3 keep `window`: at least
    /// `SkippedWords.fallbackThreshold` when stage 2 runs, to know whether it falls back.
    func walkLimit(window: Int) -> Int {
        skippedWordKey == nil ? window : max(window, SkippedWords.fallbackThreshold)
    }

    /// The word keys of `walk` that cost nothing (UTF-8), each with its position among the
    /// walk's keys: the key as typed and its abbreviation variants (WORDS.md §7), not empty and
    /// not ending in a space (the start of another word).
    static func costFreeKeys(of walk: Walk) -> [(key: [UInt8], variant: Int)] {
        let keys: [(key: [UInt8], variant: Int)]
        switch walk {
        case .prefix: return []
        case .words(let key): keys = [(key, 0)]
        case .keyVariants(let variants, _):
            keys = variants.indices.filter { variants[$0].cost == 0 }.map { variant in
                var key: [UInt8] = []
                for value in variants[variant].key { if let scalar = Unicode.Scalar(value) { key.append(contentsOf: String(scalar).utf8) } }
                return (key, variant)
            }
        }
        return keys.filter { !$0.key.isEmpty && $0.key.last != 0x20 }
    }

    /// Whether the walk forgives typos (a budget above 0).
    var forgivesTypos: Bool {
        if case .keyVariants(_, let budget) = walk { return budget > 0 }
        return false
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
