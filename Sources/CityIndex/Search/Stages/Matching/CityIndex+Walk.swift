// CityIndex+Walk.swift: stage 1 of a search, the walk that finds the matches (SEARCH.md §2, WORDS.md §2).

extension CityIndex {
    /// Stage 1 of `plan` (`SearchPlan.Stage.walk`): the matches of `walk`, at most `limit` of
    /// them, in `plan.order`; `walked` keeps a typo-tolerant walk's matches for the next call.
    func walkMatches(_ walk: SearchPlan.Walk, of plan: SearchPlan, limit: Int,
                     walked: inout [(match: TypoMatch, variant: Int)]?) throws(IndexFileError) -> SearchCandidates {
        let order = plan.order
        switch walk {
        case .keyVariants(let keys, let budget):
            return try keyVariantSearch(keys: keys, budget: budget, matching: plan.matching, order: order, limit: limit,
                                        walked: &walked, meter: plan.meter)
        case .prefix:
            let (match, foldedScalarCount) = try prefixMatch(for: plan.query, meter: plan.meter)
            let ranks = match?.entries ?? 0..<0
            let prefixQuery = MatchQuery.prefix(foldedScalarCount: foldedScalarCount)
            guard order == .population, let match, !ranks.isEmpty else {
                return SearchCandidates(contents: contents, storage: .ranks(ranks), query: prefixQuery, totalCount: ranks.count)
                    .limited(to: limit)
            }
            let entries = try contents.topEntries(limit, of: match, in: .nodes, useLists: true)
            return SearchCandidates(contents: contents, storage: .entries(entries), query: prefixQuery, totalCount: ranks.count)
        case .words(let key):
            let match = try wordMatch(forKey: key, meter: plan.meter)
            guard let match else { return SearchCandidates(contents: contents, storage: .ranks(0..<0), query: .words(key: key), totalCount: 0) }
            if key.isEmpty {
                // The empty query matches every city, by its primary name.
                let all = try run(SearchPlan(query: "", options: SearchOptions(order: order, limit: limit), allowsQualifiers: false,
                                             contents: contents))
                return SearchCandidates(contents: contents, storage: all.storage, query: .words(key: []), totalCount: all.totalCount)
            }
            switch order {
            case .alphabetical:
                if let node = match.node, let listed = contents.wordAlphabeticalLists?.top(limit, ofNodeAt: node.offset) {
                    return SearchCandidates(contents: contents, storage: .entries(listed), query: .words(key: key), totalCount: match.cityCount)
                }
                // A short page: the first `limit` in one pass, without sorting every posting.
                if limit > FormatConstants.topListLength { try plan.meter?.spend(match.entries.count) }
                let entries = limit <= FormatConstants.topListLength ? WordMatchCollector.firstEntries(limit, of: match, contents: contents)
                    : WordMatchCollector.entries(of: match, contents: contents)
                return SearchCandidates(contents: contents, storage: .entries(entries), query: .words(key: key), totalCount: match.cityCount)
                    .limited(to: limit)
            case .population:
                let entries = try contents.topEntries(limit, of: match, in: .wordNodes, useLists: true)
                let result = SearchCandidates(contents: contents, storage: .entries(entries), query: .words(key: key), totalCount: match.cityCount)
                guard plan.walkMergesInitialisms else { return result }
                return result.promoting(try initialismEntries(forKey: key, in: match, meter: plan.meter)).limited(to: limit)
            }
        }
    }
}
