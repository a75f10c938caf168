// WordPostingsWriter.swift: encoder twin of WordPostings (FORMAT.md §7.7).
import CityIndex

/// Writes `WPST`: one posting per word-trie entry, `rank << slotWidth | slot << 1 | demoted`
/// in the fewest bits that hold the largest rank and the largest slot field. O(postings).
enum WordPostingsWriter {
    static func sectionBytes(ranks: [UInt32], slots: [UInt16], demoted: [Bool], cityCount: Int) -> [UInt8] {
        let fields = zip(slots, demoted).lazy.map { UInt64($0) << 1 | ($1 ? 1 : 0) }
        let slotWidth = bitWidth(holding: fields.max() ?? 0)
        let rankWidth = bitWidth(holding: UInt64(max(cityCount - 1, 0)))
        return PackedBitsWriter.arraySection(zip(ranks, fields).lazy.map { UInt64($0) << UInt64(slotWidth) | $1 },
                                             width: rankWidth, secondWidth: slotWidth)
    }
}
