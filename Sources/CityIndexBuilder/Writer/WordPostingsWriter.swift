// WordPostingsWriter.swift: encoder twin of WordPostings (FORMAT.md §7.7).
import CityIndex

/// Writes `WPST`: a header, then one posting per word-trie entry, packed in 4 bytes
/// (`rank << slotBitCount | slot`) when the bits of the largest rank and slot fit in 32,
/// else rank u32 + slot u16. O(postings).
enum WordPostingsWriter {
    static func sectionBytes(ranks: [UInt32], slots: [UInt16], cityCount: Int) -> [UInt8] {
        func bitCount(_ value: Int) -> Int { value == 0 ? 0 : Int.bitWidth - value.leadingZeroBitCount }
        let slotBits = bitCount(Int(slots.max() ?? 0))
        let packed = bitCount(max(cityCount - 1, 0)) + slotBits <= 32
        var section = ByteWriter(capacity: IndexLayout.postingHeaderByteCount + ranks.count * IndexLayout.widePostingByteCount)
        section.appendUInt8(UInt8(packed ? slotBits : 16))
        section.appendUInt8(UInt8(packed ? IndexLayout.packedPostingByteCount : IndexLayout.widePostingByteCount))
        section.append([UInt8](repeating: 0, count: IndexLayout.postingHeaderByteCount - 2))
        for (rank, slot) in zip(ranks, slots) {
            if packed {
                section.appendUInt32(rank << UInt32(slotBits) | UInt32(slot))
            } else {
                section.appendUInt32(rank)
                section.appendUInt16(slot)
            }
        }
        return section.bytes
    }
}
