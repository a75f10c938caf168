// NodeEntryRanksWriter.swift: the `PORD` section (FORMAT.md §7.8), the writing twin of `NodeEntryRanks`.
import CityIndex

/// Lists the `NODE` entries whose rank population order moves: within each run of equal keys,
/// entry `first + i` is the run's *i*-th city in population order, which is rank `first + i`
/// for most runs (one city, or cities already in that order).
///
/// Memory: 8 bytes per moved entry.
struct NodeEntryRanksWriter {
    private var movedEntries: [UInt32] = []
    private var movedRanks: [UInt32] = []

    /// Adds a run of equal keys: its first rank and its ranks in population order.
    mutating func add(runStartingAt first: Int, populationOrder ranks: [Int]) {
        for (index, rank) in ranks.enumerated() where rank != first + index {
            movedEntries.append(UInt32(first + index))
            movedRanks.append(UInt32(rank))
        }
    }

    /// The section: the moved count, then the moved entries, then their ranks.
    var sectionBytes: [UInt8] {
        var bytes = ByteBuffer(capacity: FormatConstants.populationOrderHeaderByteCount + movedEntries.count * 8)
        bytes.appendUInt32(UInt32(movedEntries.count))
        bytes.appendUInt32(0)
        for entry in movedEntries { bytes.appendUInt32(entry) }
        for rank in movedRanks { bytes.appendUInt32(rank) }
        return bytes.bytes
    }
}
