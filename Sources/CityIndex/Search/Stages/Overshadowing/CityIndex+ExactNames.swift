// CityIndex+ExactNames.swift: the cities a query names exactly, the condition of WORDS.md §13's forgiven rule.

extension CityIndex {
    /// The people of the most populous city `plan`'s query names exactly, or `nil` when it
    /// names none (or forgives nothing). A city is named exactly when its name in `WPST` for a
    /// key of the query that costs nothing (the key as typed and its abbreviation variants,
    /// WORDS.md §7) is that whole key and not demoted (FORMAT.md §7.7: the primary name when
    /// one of its suffix keys is the key, else an alternate the index keeps, §7.5, that is not
    /// machine-made, WORDS.md §5).
    ///
    /// The key's run is in population order by weight (FORMAT.md §6.3: an alternate weighs a
    /// tenth of its city's people, rounded down), so the scan stops at a whole name whose
    /// weight plus one, times `PopulationOrderKey.alternateNameDivisor`, is no more than the
    /// people found: no later city named exactly has more. O(*v*·*m*) for *v* keys of *m* bytes, plus the run's names
    /// read (`forEachWholeName(ofKey:in:primaryOnly:until:_:)`).
    func largestExactNamePopulation(of plan: SearchPlan) throws(IndexFileError) -> UInt32? {
        guard case .keyVariants = plan.walk else { return nil }
        var largest: UInt32?
        for (key, _) in plan.costFreeKeys {
            guard let match = try wordMatch(forKey: key) else { continue }
            _ = forEachWholeName(ofKey: key, in: match, primaryOnly: false) { rank, slot, isDemoted in
                let population = contents.population(ofRank: rank)
                let weight = PopulationOrderKey(population: population, rank: rank, slot: slot, isDemoted: isDemoted).weight
                if let found = largest, (UInt64(weight) + 1) * UInt64(PopulationOrderKey.alternateNameDivisor) <= UInt64(found) {
                    return false
                }
                if !isDemoted { largest = max(largest ?? 0, population) }
                return true
            }
        }
        return largest
    }
}
