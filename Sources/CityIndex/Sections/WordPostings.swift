// WordPostings.swift: the WPST section, the entries of the word trie (FORMAT.md §7.7).

/// The `WPST` section: one (city rank, name slot, demoted) posting per word-trie entry,
/// bit-packed (`PackedArray` with the rank's and the slot field's widths):
/// `rank << slotWidth | slot << 1 | demoted`.
///
/// Invariant (checked by `init(validating:)`): a valid header and whole postings after it,
/// so every read of a position in `0 ..< postingCount` is in bounds; the rank field is
/// ⌈log₂ cityCount⌉ bits and the slot field at most 17, so the count is bounded by the
/// section's bytes at the width the city count sets (2³² − 1 postings of a 234,908-city list
/// take 14 GB, not 512 MB at one bit). The values are not trusted: `posting(at:)` returns `nil`
/// for a rank outside the city range.
struct WordPostings {
    private let postings: PackedArray
    private let cityCount: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        postings = try PackedArray(validating: section, count: nil, of: .wordPostings)
        self.cityCount = cityCount
        let rankWidth = cityCount > 1 ? Int.bitWidth - (cityCount - 1).leadingZeroBitCount : 0
        guard postings.width == rankWidth, postings.secondWidth <= Self.largestSlotWidth else {
            throw .invariantViolated(.postingWidthWrong(rankWidth: postings.width, slotWidth: postings.secondWidth,
                                                        expectedRankWidth: rankWidth))
        }
    }

    var postingCount: Int { postings.count }

    /// The widest slot field: the largest slot, 65,535 (FORMAT.md §10), shifted for the demoted bit.
    static let largestSlotWidth = 17

    /// Starts loading posting `position` (a hint; any position). O(1).
    @inline(__always)
    func prefetch(_ position: Int) { if position >= 0 && position < postings.count { postings.prefetch(position) } }

    /// The city rank, name slot and demotion (WORDS.md §5) of posting `position` (in
    /// `0 ..< postingCount`), or `nil` when a damaged file names a city that does not exist. O(1).
    @inline(__always)
    func posting(at position: Int) -> (rank: Int, slot: Int, isDemoted: Bool)? {
        let value = postings[position]
        let slotWidth = UInt64(postings.secondWidth)
        let rank = Int(truncatingIfNeeded: value >> slotWidth)
        let field = value & ((1 << slotWidth) - 1)
        return rank < cityCount ? (rank, Int(truncatingIfNeeded: field >> 1), field & 1 == 1) : nil
    }

    /// Sets the bit of the city of each posting in `positions` in `cities` (`insertCity(rank:)`)
    /// and returns how many of those bits were clear: the distinct cities the postings add to
    /// those already marked. A position outside the postings or a rank outside the city range
    /// (a damaged file) marks nothing. `cities` must hold `cityCount` bits. The count of a
    /// typo-tolerant word search reads every posting of its matches this way (WORDS.md §6).
    /// - Complexity: O(*k*) for *k* positions, a few instructions each: one pass over the
    ///   packed postings, nothing decoded but the rank.
    func markCities(ofPostings positions: Range<Int>, in cities: UnsafeMutableBufferPointer<UInt64>) -> Int {
        let shift = UInt64(postings.secondWidth)
        let limit = min(cityCount, cities.count &* 64)
        var added = 0
        postings.forEach(in: positions.clamped(to: 0 ..< postings.count)) { value in
            let rank = Int(truncatingIfNeeded: value &>> shift)
            guard rank < limit else { return }
            added &+= cities.insertCity(rank: rank) ? 1 : 0
        }
        return added
    }
}
