// CityIndex+ExactNames.swift: the cities a query names exactly, the condition of WORDS.md §13's forgiven rule.

extension CityIndex {
    /// The people of the most populous city `plan`'s query names exactly, or `nil` when it
    /// names none (or forgives nothing). A city is named exactly when its name in `WPST` for a
    /// key of the query that costs nothing (the key as typed and its abbreviation variants,
    /// WORDS.md §7) is that whole key and not demoted (FORMAT.md §7.7: the primary name when
    /// one of its suffix keys is the key, else an alternate the index keeps, §7.5, that is not
    /// machine-made, WORDS.md §5).
    ///
    /// A key's own postings (names whose last words are the key) come first below its node
    /// (`WPST` is sorted by key, then by population; buckets too), so the names read are
    /// those, and one more. O(*v*·(*m* + *p*)) for *v* keys of *m* bytes with *p* such names.
    func largestExactNamePopulation(of plan: SearchPlan) throws(IndexFileError) -> UInt32? {
        guard case .keyVariants = plan.walk else { return nil }
        let table = contents.foldTable
        var nameKey: [UInt8] = []
        var wordStarts: [Int] = []
        var largest: UInt32?
        for (key, _) in SearchPlan.costFreeKeys(of: plan.walk) {
            guard let match = try wordMatch(forKey: key) else { continue }
            for position in match.entries {
                guard let (rank, slot, isDemoted) = contents.postings.posting(at: position) else { continue }
                contents.withName(ofRank: rank, slot: slot) { WordKey.encode(utf8: $0, with: table, into: &nameKey, wordStarts: &wordStarts) }
                if nameKey == key {
                    // In population order: the first one not demoted is the key's largest.
                    if !isDemoted {
                        largest = max(largest ?? 0, contents.population(ofRank: rank))
                        break
                    }
                    continue
                }
                // Past the key's own postings: no later one is the key.
                guard wordStarts.contains(where: { nameKey.count - $0 == key.count && nameKey[$0...].elementsEqual(key) }) else { break }
            }
        }
        return largest
    }
}
