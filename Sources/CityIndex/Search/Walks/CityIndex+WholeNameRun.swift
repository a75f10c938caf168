// CityIndex+WholeNameRun.swift: the names of the word trie that are a key whole (FORMAT.md §7.7).

extension CityIndex {
    /// Calls `visit` with each posting below `key`'s node whose name's word key (WORDS.md §2)
    /// is `key` whole, in `WPST` order, until it returns `false`; returns how many postings
    /// were passed. A key's own postings (the names whose last words are the key) come first
    /// below its node (FORMAT.md §7.7: sorted by suffix key, each key's run in population
    /// order, buckets too), so the names read are those, and one past them. `primaryOnly`
    /// reads primary names only and passes the alternates' postings unread (a primary name past
    /// the run ends it). `until` ends the scan, unread, at the first primary posting whose
    /// city's rank it holds for. O(the run's postings), plus O(length) for each name read.
    func forEachWholeName(ofKey key: [UInt8], in match: TrieMatch, primaryOnly: Bool, until stops: (_ rank: Int) -> Bool = { _ in false },
                          _ visit: (_ rank: Int, _ slot: Int, _ isDemoted: Bool) -> Bool) -> Int {
        let table = contents.foldTable
        var nameKey: [UInt8] = []
        var wordStarts: [Int] = []
        var passed = 0
        for position in match.entries {
            passed += 1
            guard let (rank, slot, isDemoted) = contents.postings.posting(at: position), !primaryOnly || slot == 0 else { continue }
            if slot == 0 && stops(rank) { break }
            contents.withName(ofRank: rank, slot: slot) { WordKey.encode(utf8: $0, with: table, into: &nameKey, wordStarts: &wordStarts) }
            if nameKey == key {
                guard visit(rank, slot, isDemoted) else { break }
                continue
            }
            // Past the key's own postings: no later one is the key.
            guard wordStarts.contains(where: { nameKey.count - $0 == key.count && nameKey[$0...].elementsEqual(key) }) else { break }
        }
        return passed
    }

    /// The most populous city whose primary name's word key (WORDS.md §1) is `key` whole, as
    /// (rank, people), if it has `minimumPopulation` people or more; `nil` when no primary name
    /// of that many people is the key (WORDS.md §13's named-city rule: the city an alternate
    /// name of that key names; WORDS.md §14's whole name, with 0).
    ///
    /// A key's own postings come first below its node and in population order by weight
    /// (FORMAT.md §7.7), and a primary name weighs its city's people (§6.3), so the first whole
    /// primary name of the run is the largest, and a primary posting of fewer people than
    /// `minimumPopulation` ends the search: none after it in the run has more, and the run
    /// ended before it otherwise. O(*m*) for a key of *m* bytes, plus the postings passed and
    /// the names read of the primary postings of enough people
    /// (`forEachWholeName(ofKey:in:primaryOnly:until:_:)`); the meter is charged for the postings.
    func largestCity(namedWhole key: [UInt8], minimumPopulation: UInt32,
                     meter: SearchMeter? = nil) throws(IndexFileError) -> (rank: Int, population: UInt32)? {
        guard !key.isEmpty, let match = try wordMatch(forKey: key, meter: meter) else { return nil }
        var found: (rank: Int, population: UInt32)?
        let passed = forEachWholeName(ofKey: key, in: match, primaryOnly: true,
                                      until: { contents.population(ofRank: $0) < minimumPopulation }) { rank, _, _ in
            found = (rank, contents.population(ofRank: rank))
            return false
        }
        try meter?.spend(passed)
        return found
    }
}
