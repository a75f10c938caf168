// PopulationOrderKey.swift: the order of population ranking, shared by the builder and the reader.

/// A match's place in population order (WORDS.md §5 and §6, FORMAT.md §6.3): by weight
/// descending, then fewer edits, then the weight before the edits' division (descending),
/// then rank (search order), then a match that is not demoted, then name slot. `a < b` means
/// that `a` comes first. (So one city's matches compare as WORDS.md §3 reports them: by
/// weight, then not demoted, then lowest slot.)
///
/// A match of the primary name (slot 0) weighs the city's population; a match of an
/// alternate name a tenth of it, so that a big city's many alternate spellings do not push
/// smaller cities' own names out of the top ("tian" → Tianjin, not Chengdu by its alternate
/// "Tianfu"). A **demoted** alternate-name match (WORDS.md §5: on a later word of the
/// alternate, or an alternate that looks like a machine transliteration) weighs a tenth of
/// that again, so "york" gives York before Jakarta by "New York Van Java". Each edit a
/// typo-tolerant match needed divides the weight by 10 again, so a big city one typo away
/// still beats a hamlet that matches exactly ("bogata": Bogotá, 7.7 million, before a village
/// of 1,900), while comparable cities keep exact matches first. Unknown populations weigh 0.
/// Ties of the divided weight fall back on the undivided one, so that among one match's
/// entries (same edits) the order is the exact order, in which each trie node knows its best
/// entry. This is the only definition of the order: the builder sorts with it, the ranked
/// search pops with it and `verify()` checks with it.
package struct PopulationOrderKey: Comparable, Sendable {
    /// An alternate-name match counts as a city this many times smaller.
    package static let alternateNameDivisor: UInt32 = 10
    /// A demoted alternate-name match counts as a city this many times smaller again.
    package static let demotedDivisor: UInt32 = 10
    /// Each edit of a typo-tolerant match counts as a city this many times smaller.
    package static let editDivisor: UInt32 = 10

    package let weight: UInt32
    /// The weight before the edits divided it.
    package let undividedWeight: UInt32
    package let edits: Int
    package let rank: Int
    package let slot: Int
    /// Whether the match is demoted (only an alternate name's can be).
    package let isDemoted: Bool

    /// The key of a match of name `slot` (0 = primary) of the city at `rank`, whose
    /// population is `population` (0 when unknown), demoted or not, `edits` away from the query.
    @inline(__always)
    package init(population: UInt32, rank: Int, slot: Int, isDemoted: Bool = false, edits: Int = 0) {
        var weight = slot == 0 ? population : population / Self.alternateNameDivisor
        let isDemoted = isDemoted && slot > 0
        if isDemoted { weight /= Self.demotedDivisor }
        undividedWeight = weight
        self.isDemoted = isDemoted
        for _ in 0 ..< edits { weight /= Self.editDivisor }
        self.weight = weight
        self.edits = edits
        self.rank = rank
        self.slot = slot
    }

    @inline(__always)
    package static func < (a: PopulationOrderKey, b: PopulationOrderKey) -> Bool {
        if a.weight != b.weight { return a.weight > b.weight }
        if a.edits != b.edits { return a.edits < b.edits }
        if a.undividedWeight != b.undividedWeight { return a.undividedWeight > b.undividedWeight }
        if a.rank != b.rank { return a.rank < b.rank }
        if a.isDemoted != b.isDemoted { return b.isDemoted }
        return a.slot < b.slot
    }
}
