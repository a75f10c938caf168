// CityIndex+TypoTolerantSearch.swift: searches that forgive typing mistakes (WORDS.md §6).

extension CityIndex {
    /// A search of several query keys at once, each within `budget` edits (WORDS.md §6 and
    /// §7): the key as typed and its abbreviation variants (`WordAbbreviations`), or one key
    /// with a typo budget. A city matches when it matches any key; it is reported once, by its
    /// best match. `budget` may be 0 (variants of an exact search).
    ///
    /// - Population order: a best-first search from every match of every key at once, each
    ///   weighed by its edits (`PopulationOrderKey`).
    /// - Alphabetical order: fewer edits first, then search order; every matching entry is
    ///   read and sorted, and a city reported by its fewest edits, then a match that is not
    ///   demoted, then its lowest slot.
    /// - The total counts distinct cities (`distinctCityCount(of:matching:keyCount:)`).
    ///
    /// - Complexity: one walk per key (`TypoTolerantTrieWalk`), then O(*p*) for the *p*
    ///   entries of the outermost matches (the count, unless there is one) and, in
    ///   alphabetical order, of all matches (plus sorting them), and the best-first search for
    ///   population order.
    /// - Parameter keys: each key and the edits a match of it costs by itself (a transliterated
    ///   key, §8); a match's edits are that cost plus the edits of its typos, which may use
    ///   what the cost leaves of `budget`.
    /// - Parameter walked: the walk's matches (`variantMatches`) from an earlier search of the
    ///   same keys, reused; else walked and stored there (a second page of `SearchPlan`'s
    ///   stage 4 orders more of the same matches).
    func keyVariantSearch(keys: [(key: [UInt32], cost: Int)], budget: Int, matching: MatchMode, order: ResultOrder,
                          limit: Int, walked: inout [(match: TypoMatch, variant: Int)]?,
                          meter: SearchMeter? = nil) throws(IndexFileError) -> SearchCandidates {
        let contents = contents
        let trie = contents.trie(for: matching)
        let matches: [(match: TypoMatch, variant: Int)]
        if let walked {
            matches = walked
        } else {
            matches = try variantMatches(keys: keys, budget: budget, matching: matching, meter: meter)
        }
        walked = matches
        let query = MatchQuery.typoTolerant(matching: matching, keys: keys.map(\.key), costs: keys.map(\.cost))
        func entry(_ position: Int) -> (rank: Int, slot: Int, isDemoted: Bool)? {
            matching == .prefix ? contents.rank(ofNodeEntry: position).map { ($0, 0, false) } : contents.postings.posting(at: position)
        }
        let totalCount = try distinctCityCount(of: matches, matching: matching, keyCount: keys.count, meter: meter)

        switch order {
        case .population:
            let lists = matching == .prefix ? contents.nodeTopLists : contents.wordTopLists
            let starts = matches.map { PopulationOrderSearch.Start(match: $0.match.match, edits: $0.match.edits, variant: $0.variant) }
            // The best-first search holds a frontier entry per start.
            try meter?.spend(starts.count)
            let entries = try PopulationOrderSearch.top(limit, of: starts, in: trie, contents: contents, lists: lists, entry: entry)
            return SearchCandidates(contents: contents, storage: .entries(entries), query: query, totalCount: totalCount)
        case .alphabetical:
            // Every entry with its edits.
            try meter?.spend(matches.reduce(0) { $0 + $1.match.match.entries.count })
            var all: [SearchCandidates.Entry] = []
            for (match, variant) in matches {
                for position in match.match.entries {
                    // In `NODE`, entry i is the city of rank i in search order.
                    let (rank, slot, isDemoted) = matching == .prefix ? (position, 0, false)
                        : (contents.postings.posting(at: position) ?? (-1, 0, false))
                    guard rank >= 0 else { continue }
                    all.append(SearchCandidates.Entry(rank: UInt32(rank), slot: UInt16(clamping: slot),
                                                 edits: UInt8(clamping: match.edits), variant: UInt8(clamping: variant),
                                                 isDemoted: isDemoted))
                }
            }
            return SearchCandidates(contents: contents, storage: .entries(Array(SearchCandidates.Entry.alphabeticalBest(of: all).prefix(limit))),
                               query: query, totalCount: totalCount)
        }
    }

    /// The matches of every key of a `keyVariantSearch` within `budget` edits, each with the
    /// key's own cost added to its edits, and the index of its key: the key as typed first.
    func variantMatches(keys: [(key: [UInt32], cost: Int)], budget: Int,
                        matching: MatchMode, meter: SearchMeter? = nil) throws(IndexFileError) -> [(match: TypoMatch, variant: Int)] {
        var matches: [(match: TypoMatch, variant: Int)] = []
        for (variant, (key, cost)) in keys.enumerated() where !key.isEmpty {
            // A key's own cost comes out of the typo budget (never below an exact search).
            let found = try typoMatches(of: key, budget: max(0, budget - cost), matching: matching, meter: meter)
            matches.reserveCapacity(matches.count + found.count)
            for var match in found {
                match.edits += cost
                matches.append((match, variant))
            }
        }
        return matches
    }

    /// The distinct cities of `matches` (of `keyCount` keys): those of the outermost matches,
    /// which are disjoint subtrees per key. Their entries are counted (`NODE`, one key) or
    /// their postings' cities marked in a bit set (`WNOD`, where a city can be in several,
    /// and several keys). O(1) for one outermost match, else O(*p*) for their *p* entries.
    func distinctCityCount(of matches: [(match: TypoMatch, variant: Int)], matching: MatchMode, keyCount: Int,
                           meter: SearchMeter? = nil) throws(IndexFileError) -> Int {
        let outermost = matches.filter(\.match.isOutermost)
        if outermost.count <= 1 || (matching == .prefix && keyCount == 1) {
            return outermost.reduce(0) { $0 + $1.match.match.cityCount }
        }
        try meter?.spend(outermost.reduce(0) { $0 + $1.match.match.entries.count })
        var totalCount = 0
        var seen = [UInt64](repeating: 0, count: (contents.cityCount + 63) / 64)
        seen.withUnsafeMutableBufferPointer { seen in
            for (match, _) in outermost {
                if matching == .words {
                    totalCount += contents.postings.markCities(ofPostings: match.match.entries, in: seen)
                    continue
                }
                for position in match.match.entries {
                    guard let rank = contents.rank(ofNodeEntry: position), rank < contents.cityCount else { continue }
                    if seen.insertCity(rank: rank) { totalCount += 1 }
                }
            }
        }
        return totalCount
    }

    /// What a walk of the trie finds for `key` within `budget` edits (`TypoTolerantTrieWalk`),
    /// on up to `typoSearchThreads` threads when there are edits to forgive (`ParallelShares`):
    /// the walks share the root's children (`RootChildClaims`, the child of the key's first
    /// byte first), and their matches, which together are one walk's, are sorted so
    /// that the answer never depends on which thread took what. A damaged node found by any of
    /// them makes the search walk again alone, to throw the error one walk meets first.
    private func typoMatches(of key: [UInt32], budget: Int, matching: MatchMode,
                             meter: SearchMeter?) throws(IndexFileError) -> [TypoMatch] {
        let contents = contents
        func walkAlone() throws(IndexFileError) -> [TypoMatch] {
            var walk = TypoTolerantTrieWalk(contents: contents, matching: matching, query: key, budget: budget)
            defer { meter?.countWalk(visiting: walk.visitedNodeCount) }
            try walk.run()
            return walk.matches
        }
        let threads = min(max(typoSearchThreads, 1), 8)
        guard budget > 0 && threads > 1 else { return try walkAlone() }
        // The subtree of the key's first byte (every match whose first letter is right) holds
        // most of the work: handed out first, to the caller (WORDS.md §6, "Threads").
        let trie = contents.trie(for: matching)
        let firstByte = key.first.flatMap(Unicode.Scalar.init).flatMap { UTF8.encode($0)?.first }
        let heaviest = firstByte.flatMap { trie.root.childIndex(startingWith: $0, in: trie.nodes) }
        let claims = RootChildClaims(first: heaviest)
        let results = SharedWalkResults(count: threads)
        let ran = ParallelShares.run(count: threads) { share in
            var walk = TypoTolerantTrieWalk(contents: contents, matching: matching, query: key, budget: budget,
                                            claims: claims, recordsRoot: share == 0)
            // A walk that meets a damaged node stores nothing: the search then walks alone.
            if (try? walk.run()) != nil { results.store(walk.matches, visitedNodeCount: walk.visitedNodeCount, at: share) }
        }
        // A helper cancelled before it started took nothing.
        for (share, didRun) in ran.enumerated() where !didRun { results.store([], visitedNodeCount: 0, at: share) }
        guard let shares = results.all else { return try walkAlone() }
        for share in 0 ..< threads { meter?.countWalk(visiting: results.visitedNodeCount(at: share)) }
        return shares.flatMap { $0 }.sorted { $0.mergeOrder < $1.mergeOrder }
    }
}

extension SearchCandidates.Entry {
    /// One entry per city in alphabetical order with typos (WORDS.md §3, §6): a city's fewest
    /// edits, then not demoted, then the lowest slot; cities by fewest edits, then rank.
    /// O(*e* log *e*) for *e* entries.
    static func alphabeticalBest(of entries: [SearchCandidates.Entry]) -> [SearchCandidates.Entry] {
        let sorted = entries.sorted { a, b in
            (a.rank, a.edits, a.isDemoted ? 1 : 0, a.slot, a.variant) < (b.rank, b.edits, b.isDemoted ? 1 : 0, b.slot, b.variant)
        }
        var best: [SearchCandidates.Entry] = []
        for entry in sorted where best.last?.rank != entry.rank { best.append(entry) }
        best.sort { ($0.edits, $0.rank) < ($1.edits, $1.rank) }
        return best
    }
}
