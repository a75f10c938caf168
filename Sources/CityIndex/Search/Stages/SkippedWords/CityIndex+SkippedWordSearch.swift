// CityIndex+SkippedWordSearch.swift: the skipped-word fallback of forgiving word search (WORDS.md §9).

extension CityIndex {
    /// `result`, a forgiving word search (WORDS.md §6–§8) run with a limit of at least
    /// `SkippedWords.fallbackThreshold`, with the skipped-word matches of §9 added when it found
    /// fewer cities than that threshold; cut to `limit`.
    ///
    /// The candidates are the cities of the postings of the query word whose trie key is in the
    /// names of the fewest cities (every matching name has a posting under each word's key); each
    /// candidate is tested name by name, primary name first, and matches by its best matching
    /// name (§3: not demoted first, then the lowest slot). A skipped-word match weighs as one
    /// edit (§6), so it merges with the other matches by the same order (a city `result` has
    /// keeps the better of its two matches), and its `editCount` stays 0. Only candidates that
    /// pass `isKept` are tested (`restrictedMatches(of:keeping:)`).
    ///
    /// - Complexity: one trie walk per query word, then O(*p* log *p*) for the *p* postings of
    ///   the least common word (of at most `SkippedWords.maximumCandidateCities` cities), plus
    ///   the word keys of the candidates' names up to their first match. Nothing when the
    ///   threshold is reached, the query has one word, a word matches nothing, or the least
    ///   common word is in more cities than that maximum.
    func addingSkippedWordMatches(to result: SearchCandidates, queryKey key: [UInt8], order: ResultOrder, limit: Int,
                                  keeping isKept: (Int) -> Bool = { _ in true },
                                  meter: SearchMeter? = nil) throws(IndexFileError) -> SearchCandidates {
        guard result.totalCount < SkippedWords.fallbackThreshold, let skipped = SkippedWords(queryKey: key) else {
            return result.limited(to: limit)
        }
        var anchor: TrieMatch?
        for trieKey in skipped.trieKeys {
            guard let match = try wordMatch(forKey: trieKey, meter: meter) else { return result.limited(to: limit) }
            if anchor == nil || match.cityCount < anchor!.cityCount { anchor = match }
        }
        guard let anchor, anchor.cityCount <= SkippedWords.maximumCandidateCities else { return result.limited(to: limit) }

        var entries: [SearchCandidates.Entry]
        switch result.storage {
        case .entries(let held): entries = held
        case .ranks(let ranks): entries = ranks.map { SearchCandidates.Entry(rank: UInt32($0), slot: 0) }
        }
        // Where each city of `result` is in `entries`.
        var found: [UInt32: Int] = [:]
        for (position, entry) in entries.enumerated() { found[entry.rank] = position }
        // A skipped-word match weighs as one edit more.
        func orderEdits(_ entry: SearchCandidates.Entry) -> Int { Int(entry.edits) + (entry.skipsWords ? 1 : 0) }
        func orderKey(_ entry: SearchCandidates.Entry) -> PopulationOrderKey {
            contents.populationOrderKey(rank: Int(entry.rank), slot: Int(entry.slot), isDemoted: entry.isDemoted, edits: orderEdits(entry))
        }
        /// Whether `a` is a better match of its city than `b` in `order`.
        func isBetter(_ a: SearchCandidates.Entry, than b: SearchCandidates.Entry) -> Bool {
            switch order {
            case .population: return orderKey(a) < orderKey(b)
            case .alphabetical:
                return (orderEdits(a), a.isDemoted ? 1 : 0, Int(a.slot)) < (orderEdits(b), b.isDemoted ? 1 : 0, Int(b.slot))
            }
        }
        var candidates = anchor.entries.compactMap { contents.postings.posting(at: $0).map { UInt32($0.rank) } }
        candidates.sort()
        var previous: UInt32?
        let nameKeys = NameKeyBuffer(contents: contents)
        let foldTable = contents.foldTable
        /// `nil` when name `slot` does not match, else whether its match is demoted (WORDS.md §5).
        func demotionOfMatch(_ name: UnsafeRawBufferPointer, slot: Int) -> Bool? {
            nameKeys.loadWordKey(ofName: name)
            guard let wordIndex = skipped.firstMatchingWord(in: nameKeys) else { return nil }
            return slot > 0 && AlternateDemotion.isDemoted(alternateName: name, wordIndex: wordIndex, foldTable: foldTable)
        }
        var addedCount = 0, changedCount = 0
        for rank in candidates where rank != previous {
            previous = rank
            guard isKept(Int(rank)) else { continue }
            // The first match that is not demoted, else the first demoted one.
            var best: (slot: Int, isDemoted: Bool)?
            if contents.withName(ofRank: Int(rank), slot: 0, { demotionOfMatch($0, slot: 0) }) != nil {
                best = (0, false)
            } else {
                contents.alternates.forEach(ofRank: Int(rank)) { slot, coded in
                    if let isDemoted = contents.withDecoded(coded, { demotionOfMatch($0, slot: slot) }), best == nil || !isDemoted {
                        best = (slot, isDemoted)
                    }
                    return best?.isDemoted != false
                }
            }
            guard let best else { continue }
            let match = SearchCandidates.Entry(rank: rank, slot: UInt16(clamping: best.slot), skipsWords: true, isDemoted: best.isDemoted)
            if let position = found[rank] {
                // A city `result` has keeps the better of its two matches.
                if isBetter(match, than: entries[position]) {
                    entries[position] = match
                    changedCount += 1
                }
            } else {
                entries.append(match)
                addedCount += 1
            }
        }
        guard addedCount + changedCount > 0 else { return result.limited(to: limit) }
        switch order {
        case .population:
            // Distinct cities: the keys are distinct.
            let keys = entries.map(orderKey)
            entries = entries.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
        case .alphabetical:
            entries.sort { (orderEdits($0), $0.rank) < (orderEdits($1), $1.rank) }
        }
        return SearchCandidates(contents: contents, storage: .entries(Array(entries.prefix(limit))), query: result.query,
                           totalCount: result.totalCount + addedCount)
    }
}
