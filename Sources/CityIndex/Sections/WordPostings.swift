// WordPostings.swift: the WPST section, the entries of the word trie (FORMAT.md §7.7).

/// The `WPST` section: one (city rank, name slot) posting per word-trie entry, bit-packed
/// (`PackedArray` with the rank's and the slot's widths): `rank << slotWidth | slot`.
///
/// Invariant (checked by `init(validating:)`): a valid header and whole postings after it,
/// so every read of a position in `0 ..< postingCount` is in bounds. The values are not
/// trusted: `posting(at:)` returns `nil` for a rank outside the city range.
struct WordPostings {
    private let postings: PackedArray
    private let cityCount: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        postings = try PackedArray(validating: section, count: nil, of: .wordPostings)
        self.cityCount = cityCount
    }

    var postingCount: Int { postings.count }

    /// The city rank and name slot of posting `position` (in `0 ..< postingCount`), or `nil`
    /// when a damaged file names a city that does not exist. O(1).
    @inline(__always)
    func posting(at position: Int) -> (rank: Int, slot: Int)? {
        let value = postings[position]
        let slotWidth = UInt64(postings.secondWidth)
        let rank = Int(truncatingIfNeeded: value >> slotWidth)
        let slot = Int(truncatingIfNeeded: value & ((1 << slotWidth) - 1))
        return rank < cityCount ? (rank, slot) : nil
    }
}
