// WordPostingsWriter.swift: encoder twin of WordPostings (FORMAT.md §7.7).
import CityIndex

/// Writes `WPST`: one posting per word-trie entry, `rank << slotWidth | slot` in the fewest
/// bits that hold the largest rank and the largest slot. O(postings).
enum WordPostingsWriter {
    static func sectionBytes(ranks: [UInt32], slots: [UInt16], cityCount: Int) -> [UInt8] {
        let slotWidth = bitWidth(holding: UInt64(slots.max() ?? 0))
        let rankWidth = bitWidth(holding: UInt64(max(cityCount - 1, 0)))
        return PackedBitsWriter.arraySection(zip(ranks, slots).lazy.map { UInt64($0) << UInt64(slotWidth) | UInt64($1) },
                                             width: rankWidth, secondWidth: slotWidth)
    }
}
