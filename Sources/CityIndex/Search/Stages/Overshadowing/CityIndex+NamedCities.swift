// CityIndex+NamedCities.swift: the largest city whose primary name is a key whole, the lender of WORDS.md §13's named-city rule.

extension CityIndex {
    /// The most populous city whose primary name's word key (WORDS.md §1) is `key` whole, as
    /// (rank, people), if it has `minimumPopulation` people or more; `nil` when no primary name
    /// of that many people is the key (WORDS.md §13's named-city rule: the city an alternate
    /// name of that key names).
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
