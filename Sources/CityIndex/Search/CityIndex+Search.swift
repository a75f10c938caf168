// CityIndex+Search.swift: search(_:matching:order:limit:), the entry point of every mode.

extension CityIndex {
    /// Returns the cities matching `query` under `matching`, in `order`, at most `limit` of
    /// them; `totalCount` of the result counts all matches.
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
    /// ```swift
    /// let top = try index.search("wien", matching: .words, order: .population, limit: 10)
    /// print(top.totalCount, top[0].name, top[0].matchedAlternateName ?? "-")   // 23 Vienna Wien
    /// ```
    /// - Parameters:
    ///   - query: what the user typed; folded like the names (case, accents, width).
    ///   - matching: `.prefix` of the primary name, or `.words` of every name.
    ///   - order: `.alphabetical` or `.population`.
    ///   - limit: the most matches returned; `totalCount` still counts all.
    ///   - typos: the typing mistakes forgiven.
    /// - Throws: `IndexFileError.corruptNode` when a walk meets a damaged node.
    public func search(_ query: String, matching: MatchMode, order: ResultOrder = .alphabetical,
                       limit: Int = .max, typos: TypoTolerance = .none) throws(IndexFileError) -> CityMatches {
        precondition(limit >= 0, "limit must not be negative")
        try Self.checkLength(of: query)
        return try run(SearchPlan(query: query, matching: matching, order: order, limit: limit, typos: typos,
                                  countries: nil, foldTable: contents.foldTable))
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
        try run(SearchPlan(query: query, matching: matching, order: order, limit: limit, typos: typos, countries: nil,
                           allowsQualifiers: false, foldTable: contents.foldTable))
    }

    /// Runs the stages of `plan` in order (`SearchPlan`).
    func run(_ plan: SearchPlan) throws(IndexFileError) -> CityMatches {
        var plan = plan
        if plan.budget == nil, let limit = searchEntryLimit { plan.budget = EntryBudget(limit: limit) }
        let restriction = plan.restriction(in: contents)
        // The typo-tolerant walk's matches, kept for a longer run of stage 4.
        var walked: [(match: TypoMatch, variant: Int)]?
        var result = try rankedMatches(of: plan, limit: plan.matchLimit, restriction: restriction, walked: &walked)
        if plan.movesOvershadowedMatches && plan.matchLimit > 0 {
            // The first matches decide the first `matchLimit` unless too many of them move:
            // then twice as many are searched, until they do or all are held.
            var window = plan.matchLimit
            let hasExactName = plan.forgivesTypos ? try someNameIsWhole(of: plan) : false
            while true {
                let holdsAll = result.count < window || result.count >= result.totalCount
                if let moved = result.movingOvershadowedMatches(needed: plan.matchLimit, holdsAll: holdsAll, hasExactName: hasExactName) {
                    result = moved.limited(to: plan.matchLimit)
                    break
                }
                window = window > Int.max / 2 ? .max : 2 * window
                // Another window reads about that many more entries.
                try plan.budget?.spend(min(window, result.totalCount))
                result = try rankedMatches(of: plan, limit: window, restriction: restriction, walked: &walked)
            }
        }
        if plan.allowsQualifiers, var qualified = try qualifiedMatches(of: plan) {
            if let restriction { qualified = qualified.filtered(restriction.contains(rank:)) }
            result = qualified.merged(with: result, order: plan.order).limited(to: plan.matchLimit)
        }
        if plan.isBiased, let near = plan.near {
            result = result.biased(toward: near)
        }
        return result.limited(to: plan.limit)
    }

    /// Stages 1 to 3 of `plan` (with 6 and 7 when they run), at most `limit` matches
    /// (`plan.matchLimit`, or more when stage 4 needs more).
    private func rankedMatches(of plan: SearchPlan, limit: Int, restriction: SearchRestriction?,
                               walked: inout [(match: TypoMatch, variant: Int)]?) throws(IndexFileError) -> CityMatches {
        var result: CityMatches
        if let restriction {
            // Stages 1, 2, 6 and 7 at once: every match that passes, without ordering the others.
            result = try restrictedMatches(of: plan, keeping: restriction.contains(rank:))
        } else {
            result = try walk(plan, limit: plan.walkLimit(forMatchLimit: limit), walked: &walked)
            if let key = plan.skippedWordKey {
                result = try addingSkippedWordMatches(to: result, queryKey: key, order: plan.order, limit: limit)
            }
        }
        // The exact word walk merges its initialisms itself (it has the key's match).
        if let key = plan.initialismKey, restriction != nil || !plan.walkMergesInitialisms {
            var initialisms = try initialismEntries(forKey: key)
            if let restriction { initialisms = initialisms.filter { restriction.contains(rank: Int($0.rank)) } }
            result = result.promoting(initialisms).limited(to: limit)
        }
        return result
    }

    /// The matches of `plan`'s walk, at most `limit` of them, in `plan.order`; `walked` keeps a
    /// typo-tolerant walk's matches for the next call.
    private func walk(_ plan: SearchPlan, limit: Int, walked: inout [(match: TypoMatch, variant: Int)]?) throws(IndexFileError) -> CityMatches {
        let order = plan.order
        switch plan.walk {
        case .keyVariants(let keys, let budget):
            return try keyVariantSearch(keys: keys, budget: budget, matching: plan.matching, order: order, limit: limit,
                                        walked: &walked, entryBudget: plan.budget)
        case .prefix:
            let (match, foldedScalarCount) = try prefixMatch(for: plan.query)
            let ranks = match?.entries ?? 0..<0
            let prefixQuery = MatchQuery.prefix(foldedScalarCount: foldedScalarCount)
            guard order == .population, let match, !ranks.isEmpty else {
                return CityMatches(contents: contents, storage: .ranks(ranks), query: prefixQuery, totalCount: ranks.count)
                    .limited(to: limit)
            }
            let entries = try contents.topEntries(limit, of: match, in: .nodes, useLists: true)
            return CityMatches(contents: contents, storage: .entries(entries), query: prefixQuery, totalCount: ranks.count)
        case .words(let key):
            let match = try wordMatch(forKey: key)
            guard let match else { return CityMatches(contents: contents, storage: .ranks(0..<0), query: .words(key: key), totalCount: 0) }
            if key.isEmpty {
                // The empty query matches every city, by its primary name.
                let all = try search("", matching: .prefix, order: order, limit: limit)
                return CityMatches(contents: contents, storage: all.storage, query: .words(key: []), totalCount: all.totalCount)
            }
            switch order {
            case .alphabetical:
                if let node = match.node, let listed = contents.wordAlphabeticalLists?.top(limit, ofNodeAt: node.offset) {
                    return CityMatches(contents: contents, storage: .entries(listed), query: .words(key: key), totalCount: match.cityCount)
                }
                // A short page: the first `limit` in one pass, without sorting every posting.
                if limit > FormatConstants.topListLength { try plan.budget?.spend(match.entries.count) }
                let entries = limit <= FormatConstants.topListLength ? WordMatchCollector.firstEntries(limit, of: match, contents: contents)
                    : WordMatchCollector.entries(of: match, contents: contents)
                return CityMatches(contents: contents, storage: .entries(entries), query: .words(key: key), totalCount: match.cityCount)
                    .limited(to: limit)
            case .population:
                let entries = try contents.topEntries(limit, of: match, in: .wordNodes, useLists: true)
                let result = CityMatches(contents: contents, storage: .entries(entries), query: .words(key: key), totalCount: match.cityCount)
                guard plan.walkMergesInitialisms else { return result }
                return result.promoting(try initialismEntries(forKey: key, in: match)).limited(to: limit)
            }
        }
    }

    /// The scalars of a key's UTF-8.
    static func scalars(of key: [UInt8]) -> [UInt32] {
        key.withUnsafeBytes { Array(UTF8Decoding.scalars(of: $0).map(\.value)) }
    }

    /// Walks the `WNOD` trie with a query's word key (WORDS.md §2, `SearchPlan.key(of:matching:foldTable:)`). Returns
    /// the postings that match, or `nil` when none do. O(*m*) plus the word key of one stored
    /// name when the blind walk skipped bytes (FORMAT.md §6.1), or of each posting of the bucket
    /// it reached (at most the section's bucket capacity): the key matches the postings below a
    /// node exactly when it starts a suffix key of the name of the node's first posting.
    func wordMatch(forKey key: [UInt8]) throws(IndexFileError) -> TrieMatch? {
        var walk = TrieWalk(nodes: contents.wordTrie.nodes, node: contents.wordTrie.root)
        let foldTable = contents.foldTable
        var matched = true
        for byte in key where matched { matched = walk.advance(by: byte) }
        if let error = walk.error { throw error }
        guard matched else { return nil }
        let match = contents.wordTrie.matches(of: walk) { [contents] position in
            guard let (rank, slot, _) = contents.postings.posting(at: position) else { return false }
            return contents.withName(ofRank: rank, slot: slot) { WordKey.name($0, hasSuffixKeyStartingWith: key, table: foldTable) }
        }
        return match
    }
}

extension CityMatches {
    /// The first `limit` matches, same total count.
    func limited(to limit: Int) -> CityMatches {
        switch storage {
        case .ranks(let ranks) where ranks.count > limit:
            return CityMatches(contents: contents, storage: .ranks(ranks.lowerBound ..< ranks.lowerBound + limit), query: query, totalCount: totalCount)
        case .entries(let entries) where entries.count > limit:
            return holding(Array(entries.prefix(limit)), totalCount: totalCount)
        default:
            return self
        }
    }
}
