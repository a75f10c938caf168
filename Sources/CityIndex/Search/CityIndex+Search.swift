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
        // The word key, read once: word matching always needs it (§2).
        let wordKey = matching == .words ? queryKeyBytes(query, matching: .words) : []
        guard matching == .words && typos != .none else {
            return try searchWithoutSkippedWords(query, wordKey: wordKey, matching: matching, order: order, limit: limit,
                                                 typos: typos)
        }
        // A forgiving word search falls back on skipped words when it finds few cities (§9):
        // it needs all of them to know, and to merge with.
        let found = try searchWithoutSkippedWords(query, wordKey: wordKey, matching: matching, order: order,
                                                  limit: max(limit, SkippedWords.fallbackThreshold), typos: typos)
        return try addingSkippedWordMatches(to: found, queryKey: wordKey, order: order, limit: limit)
    }

    /// `search(_:matching:order:limit:typos:)` without the skipped-word fallback (WORDS.md
    /// §2–§8); `wordKey` is the query's word key for `.words`, else empty.
    private func searchWithoutSkippedWords(_ query: String, wordKey: [UInt8], matching: MatchMode, order: ResultOrder,
                                           limit: Int, typos: TypoTolerance) throws(IndexFileError) -> CityMatches {
        if matching == .words || typos != .none {
            // Typos (WORDS.md §6), abbreviations and transliterated vowels (§7, §8, word
            // matching) search several keys; a query with none of them takes the path below.
            let key = matching == .words ? wordKey : queryKeyBytes(query, matching: matching)
            let mayHaveVariants = matching == .words && (key.contains(0x20) || TransliteratedVowels.collapsed(key) != nil)
            if !key.isEmpty && (typos != .none || mayHaveVariants) {
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
                let budget = typos.budget(forLetterCount: Self.scalars(of: key).count { $0 != 0x20 })
                if budget > 0 || variants.count > 1 {
                    return try keyVariantSearch(keys: variants.map { (Self.scalars(of: $0.key), $0.cost) }, budget: budget,
                                                matching: matching, order: order, limit: limit)
                }
            }
        }
        switch matching {
        case .prefix:
            let (match, foldedScalarCount) = try prefixMatch(for: query)
            let ranks = match?.entries ?? 0..<0
            let prefixQuery = MatchQuery.prefix(foldedScalarCount: foldedScalarCount)
            guard order == .population, let match, !ranks.isEmpty else {
                return CityMatches(contents: contents, storage: .ranks(ranks), query: prefixQuery, totalCount: ranks.count)
                    .limited(to: limit)
            }
            let entries = try contents.topEntries(limit, of: match, in: .nodes, useLists: true)
            return CityMatches(contents: contents, storage: .entries(entries), query: prefixQuery, totalCount: ranks.count)
        case .words:
            let key = wordKey
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
                let entries = limit <= IndexLayout.topListLength ? WordMatchCollector.firstEntries(limit, of: match, contents: contents)
                    : WordMatchCollector.entries(of: match, contents: contents)
                return CityMatches(contents: contents, storage: .entries(entries), query: .words(key: key), totalCount: match.cityCount)
                    .limited(to: limit)
            case .population:
                let entries = try contents.topEntries(limit, of: match, in: .wordNodes, useLists: true)
                return CityMatches(contents: contents, storage: .entries(entries), query: .words(key: key), totalCount: match.cityCount)
            }
        }
    }

    /// The key a search of `matching` walks its trie with: the folded query (SEARCH.md §2) for
    /// `.prefix`, its word key (WORDS.md §2) for `.words`.
    func queryKeyBytes(_ query: String, matching: MatchMode) -> [UInt8] {
        var bytes: [UInt8] = []
        let foldTable = contents.foldTable
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

    /// The scalars of a key's UTF-8.
    static func scalars(of key: [UInt8]) -> [UInt32] {
        key.withUnsafeBytes { Array(UTF8Decoding.scalars(of: $0).map(\.value)) }
    }

    /// Walks the `WNOD` trie with a query's word key (WORDS.md §2, `queryKeyBytes`). Returns
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
            return CityMatches(contents: contents, storage: .entries(Array(entries.prefix(limit))), query: query, totalCount: totalCount)
        default:
            return self
        }
    }
}
