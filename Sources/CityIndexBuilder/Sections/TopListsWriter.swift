// TopListsWriter.swift: encoder twin of TopLists (FORMAT.md §7.9).
import CityIndex

/// Writes `NTOP` or `WTOP`: the list length, the listed nodes' offsets (increasing), then each
/// node's top cities as (rank u32, slot << 1 | demoted u32), a short list ending with rank
/// `0xFFFFFFFF`.
/// O(nodes × length).
enum TopListsWriter {
    static func sectionBytes(lists: [(nodeOffset: Int, entries: [(rank: UInt32, slot: UInt16, isDemoted: Bool)])], length: Int) -> [UInt8] {
        var section = ByteBuffer(capacity: FormatConstants.topListsHeaderByteCount + lists.count * (4 + 8 * length))
        section.appendUInt32(UInt32(length))
        section.appendUInt32(UInt32(lists.count))
        for list in lists { section.appendUInt32(UInt32(list.nodeOffset)) }
        for list in lists {
            for position in 0 ..< length {
                if position < list.entries.count {
                    section.appendUInt32(list.entries[position].rank)
                    let entry = list.entries[position]
                    section.appendUInt32(UInt32(entry.slot) << 1 | (entry.isDemoted ? 1 : 0))
                } else {
                    section.appendUInt32(.max)
                    section.appendUInt32(0)
                }
            }
        }
        return section.bytes
    }
}
