// SearchCandidates+Promoting.swift: matches that weigh more than their walk gave them, merged in by weight.

extension SearchCandidates {
    /// The matches with `promoted` (initialisms, WORDS.md §12, or whole names, §14, heaviest
    /// first) merged in by weight (`weight(of:)`), each replacing its city's match; the other
    /// matches keep their order and the total is unchanged (a promoted match's city matches the
    /// query anyway). O(*M* + *i*) for *M* matches held and *i* promoted.
    func promoting(_ promoted: [Entry]) -> SearchCandidates {
        guard !promoted.isEmpty else { return self }
        let promotedRanks = Set(promoted.map(\.rank))
        let others = entries.filter { !promotedRanks.contains($0.rank) }
        var merged: [Entry] = []
        merged.reserveCapacity(others.count + promoted.count)
        var next = promoted.makeIterator()
        var pending = next.next()
        for entry in others {
            let entryWeight = weight(of: entry)
            while let match = pending, comesFirst(match, before: entry, weighing: entryWeight) {
                merged.append(match)
                pending = next.next()
            }
            merged.append(entry)
        }
        while let match = pending {
            merged.append(match)
            pending = next.next()
        }
        return SearchCandidates(contents: contents, storage: .entries(merged), query: query, totalCount: totalCount)
    }

    /// Whether the promoted match (no edits) comes before `entry`, which weighs `entryWeight`:
    /// heavier first; on a tie, fewer edits, then alphabetical order (WORDS.md §5, §6).
    private func comesFirst(_ promoted: Entry, before entry: Entry, weighing entryWeight: Double) -> Bool {
        let promotedWeight = weight(of: promoted)
        if promotedWeight != entryWeight { return promotedWeight > entryWeight }
        if entry.totalEdits > 0 || entry.skipsWords { return true }
        return promoted.rank < entry.rank
    }
}
