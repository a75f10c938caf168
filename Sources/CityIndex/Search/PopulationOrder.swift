// PopulationOrder.swift: the order of population ranking, shared by the builder and the reader.

/// Population order of matches (WORDS.md §5, FORMAT.md §1): by weight descending, then rank
/// (search order), then name slot. A match of the primary name weighs the city's population;
/// a match of an alternate name a tenth of it, so that a big city's many alternate spellings
/// do not push smaller cities' own names out of the top ("tian" → Tianjin, not Chengdu by its
/// alternate "Tianfu"). Unknown populations weigh 0.
package enum PopulationOrder {
    /// An alternate-name match counts as a city this many times smaller.
    package static let alternateNameDivisor: UInt32 = 10

    /// The weight of a match of name `slot` (0 = primary) of a city of `population`.
    @inline(__always)
    package static func weight(population: UInt32, slot: Int) -> UInt32 {
        slot == 0 ? population : population / alternateNameDivisor
    }

    /// Whether match `a` comes before match `b`.
    @inline(__always)
    package static func precedes(_ a: (rank: Int, slot: Int, population: UInt32),
                                 _ b: (rank: Int, slot: Int, population: UInt32)) -> Bool {
        let weightA = weight(population: a.population, slot: a.slot), weightB = weight(population: b.population, slot: b.slot)
        if weightA != weightB { return weightA > weightB }
        return a.rank != b.rank ? a.rank < b.rank : a.slot < b.slot
    }
}
