// WordPostings.swift: the WPST section, the entries of the word trie (FORMAT.md §7.7).

/// The `WPST` section: one (city rank, name slot) posting per word-trie entry, packed in 4
/// bytes (`rank << slotBitCount | slot`) or written in 6 (rank u32, slot u16).
///
/// Invariant (checked by `init(validating:)`): a valid header and whole postings after it,
/// so every read of a position in `0 ..< postingCount` is in bounds. The values are not
/// trusted: `posting(at:)` returns `nil` for a rank outside the city range.
struct WordPostings {
    private let postings: ByteView
    let postingCount: Int
    private let postingByteCount: Int
    private let slotBitCount: Int
    private let cityCount: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let slotBitCount = Int(section.uint8(at: 0) ?? 0)
        let postingByteCount = Int(section.uint8(at: 1) ?? 0)
        let headerByteCount = IndexLayout.postingHeaderByteCount
        let validWidth = postingByteCount == IndexLayout.packedPostingByteCount ? slotBitCount <= 16
            : postingByteCount == IndexLayout.widePostingByteCount && slotBitCount == 16
        guard section.count >= headerByteCount, validWidth, (section.count - headerByteCount) % postingByteCount == 0 else {
            let width = validWidth ? postingByteCount : IndexLayout.packedPostingByteCount
            let whole = max(0, section.count - headerByteCount) / width
            throw .sectionSizeMismatch(section: .wordPostings, byteCount: UInt64(section.count),
                                       expectedByteCount: UInt64(headerByteCount + whole * width))
        }
        postings = section.slice(uncheckedOffset: headerByteCount, length: section.count - headerByteCount)
        postingCount = postings.count / postingByteCount
        self.postingByteCount = postingByteCount
        self.slotBitCount = slotBitCount
        self.cityCount = cityCount
    }

    /// The city rank and name slot of posting `position` (in `0 ..< postingCount`), or `nil`
    /// when a damaged file names a city that does not exist. O(1).
    @inline(__always)
    func posting(at position: Int) -> (rank: Int, slot: Int)? {
        let offset = position * postingByteCount
        let rank: Int, slot: Int
        if postingByteCount == IndexLayout.packedPostingByteCount {
            let packed = postings.uint32(uncheckedAt: offset)
            rank = Int(packed >> UInt32(slotBitCount))
            slot = Int(packed & ((1 << UInt32(slotBitCount)) - 1))
        } else {
            (rank, slot) = (Int(postings.uint32(uncheckedAt: offset)), Int(postings.uint16(uncheckedAt: offset + 4)))
        }
        return rank < cityCount ? (rank, slot) : nil
    }
}
