// CityIndex+NamedCities.swift: the cities whose primary name is a key whole, the lenders of WORDS.md §13's named-city rule.

extension CityIndex {
    /// The two most populous cities whose primary name's word key (WORDS.md §1) is `key`
    /// whole, most populous first, as (rank, people): the cities an alternate name of that key
    /// names (WORDS.md §13's named-city rule; two, so that the city whose alternate it is can be
    /// left out). Empty when no primary name is the key.
    ///
    /// A key's own postings come first below its node and in population order by weight
    /// (FORMAT.md §7.7), and a primary name weighs its city's people (§6.3), so the first two
    /// primary names of the run are the two largest. O(*m*) for a key of *m* bytes, plus the run's
    /// primary names read (`forEachWholeName(ofKey:in:primaryOnly:_:)`); the meter is charged
    /// for the postings passed.
    func largestCities(namedWhole key: [UInt8], meter: SearchMeter? = nil) throws(IndexFileError) -> [(rank: Int, population: UInt32)] {
        guard !key.isEmpty, let match = try wordMatch(forKey: key, meter: meter) else { return [] }
        var found: [(rank: Int, population: UInt32)] = []
        let passed = forEachWholeName(ofKey: key, in: match, primaryOnly: true) { rank, _, _ in
            found.append((rank, contents.population(ofRank: rank)))
            return found.count < 2
        }
        try meter?.spend(passed)
        return found
    }
}
