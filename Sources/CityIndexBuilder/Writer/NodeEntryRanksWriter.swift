// NodeEntryRanksWriter.swift: encoder twin of NodeEntryRanks (FORMAT.md §7.8).
import CityIndex

/// Writes `PORD`: only the `NODE` entries whose rank in population order differs from the
/// entry itself, as increasing positions, then their ranks. O(*n*).
enum NodeEntryRanksWriter {
    static func sectionBytes(order: SearchOrder) -> [UInt8] {
        let ranks = order.rankOfNodeEntry
        let moved = ranks.indices.filter { ranks[$0] != UInt32($0) }
        var section = ByteWriter(capacity: IndexLayout.populationOrderHeaderByteCount + moved.count * 8)
        section.appendUInt32(UInt32(moved.count))
        section.appendUInt32(0)
        for entry in moved { section.appendUInt32(UInt32(entry)) }
        for entry in moved { section.appendUInt32(ranks[entry]) }
        return section.bytes
    }
}
