// CityIndex+RestrictedSearch.swift: every match of a search among some cities, without ordering the others.

extension CityIndex {
    /// Every match of `plan`'s walk and skipped-word stage whose city passes `isKept`, in
    /// `plan.order`, one per city, and their number as `totalCount`: the same matches, in the
    /// same order, as running those stages without a limit and then keeping the cities that
    /// pass (what the qualifier stage needs, WORDS.md §10), from one read of each matching
    /// entry instead of a search that orders every match.
    ///
    /// A city's match is the one its search would report: in population order the first by
    /// `PopulationOrderKey` (then the earlier key), in alphabetical order the fewest edits, then
    /// not demoted, then the lowest slot. The skipped-word stage runs when the walk, before
    /// the filter, found fewer than `SkippedWords.fallbackThreshold` cities, as it does then.
    ///
    /// - Complexity: the walk, then O(*p*) for the *p* entries of its matches (every city for
    ///   the empty word key), plus O(*c* log *c*) for the *c* that pass.
    func restrictedMatches(of plan: SearchPlan, keeping isKept: (Int) -> Bool) throws(IndexFileError) -> SearchCandidates {
        let contents = contents
        var starts: [PopulationOrderSearch.Start] = []
        let query: MatchQuery
        let walkTotal: Int
        switch plan.walk {
        case .prefix:
            let (match, foldedScalarCount) = try prefixMatch(for: plan.query, meter: plan.meter)
            if let match { starts = [.init(match: match, edits: 0, variant: 0)] }
            query = .prefix(foldedScalarCount: foldedScalarCount)
            walkTotal = match?.cityCount ?? 0
        case .words(let key):
            query = .words(key: key)
            if key.isEmpty {
                // The empty word key matches every city, by its primary name: the cities that
                // pass, in rank order (alphabetical), then ordered by population when asked.
                // O(n) tests, then O(c log c) for the c kept.
                try plan.meter?.spend(contents.cityCount)
                var kept = (0 ..< contents.cityCount).filter(isKept)
                if plan.order == .population {
                    let keys = kept.map { contents.populationOrderKey(rank: $0, slot: 0, isDemoted: false, edits: 0) }
                    kept = kept.indices.sorted { keys[$0] < keys[$1] }.map { kept[$0] }
                }
                let entries = kept.map { SearchCandidates.Entry(rank: UInt32($0), slot: 0) }
                return SearchCandidates(contents: contents, storage: .entries(entries), query: query, totalCount: entries.count)
            }
            let match = try wordMatch(forKey: key, meter: plan.meter)
            if let match { starts = [.init(match: match, edits: 0, variant: 0)] }
            walkTotal = match?.cityCount ?? 0
        case .keyVariants(let keys, let budget):
            let matches = try variantMatches(keys: keys, budget: budget, matching: plan.matching, meter: plan.meter)
            starts = matches.map { .init(match: $0.match.match, edits: $0.match.edits, variant: $0.variant) }
            query = .typoTolerant(matching: plan.matching, keys: keys.map(\.key), costs: keys.map(\.cost))
            walkTotal = try distinctCityCount(of: matches, matching: plan.matching, keyCount: keys.count, meter: plan.meter)
        }
        try plan.meter?.spend(starts.reduce(0) { $0 + $1.match.entries.count })

        // Every entry that passes, with the start it came from.
        var read: [(entry: SearchCandidates.Entry, start: Int)] = []
        for (start, item) in starts.enumerated() {
            for position in item.match.entries {
                // In `NODE`, entry i is the city of rank i in search order (SEARCH.md §3).
                let (rank, slot, isDemoted) = plan.matching == .prefix ? (position, 0, false)
                    : (contents.postings.posting(at: position) ?? (-1, 0, false))
                guard rank >= 0, rank < contents.cityCount, isKept(rank) else { continue }
                read.append((SearchCandidates.Entry(rank: UInt32(rank), slot: UInt16(clamping: slot), edits: UInt8(clamping: item.edits),
                                               variant: UInt8(clamping: item.variant), isDemoted: isDemoted), start))
            }
        }
        var entries: [SearchCandidates.Entry] = []
        switch plan.order {
        case .population:
            // The first of each city in population order, then by the earlier start.
            let keys = read.map { contents.populationOrderKey(rank: Int($0.entry.rank), slot: Int($0.entry.slot),
                                                              isDemoted: $0.entry.isDemoted, edits: Int($0.entry.edits)) }
            let order = read.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : read[$0].start < read[$1].start }
            var reported = Set<UInt32>()
            for index in order where reported.insert(read[index].entry.rank).inserted { entries.append(read[index].entry) }
        case .alphabetical:
            entries = SearchCandidates.Entry.alphabeticalBest(of: read.map(\.entry))
        }
        let result = SearchCandidates(contents: contents, storage: .entries(entries), query: query, totalCount: entries.count)
        guard let key = plan.skippedWordKey, walkTotal < SkippedWords.fallbackThreshold else { return result }
        return try addingSkippedWordMatches(to: result, queryKey: key, order: plan.order, limit: .max, keeping: isKept, meter: plan.meter)
    }
}
