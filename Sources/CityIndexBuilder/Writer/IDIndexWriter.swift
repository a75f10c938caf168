// IDIndexWriter.swift: encoder twin of IDIndex (FORMAT.md §7.3).
import CityIndex

/// Writes `IDIX`: the rank of each city, by increasing id, in ⌈log₂ *n*⌉ bits. O(*n*).
enum IDIndexWriter {
    static func sectionBytes(order: SearchOrder) -> [UInt8] {
        var rankOfRecord = [UInt32](repeating: 0, count: order.recordOfRank.count)
        for (rank, recordIndex) in order.recordOfRank.enumerated() { rankOfRecord[Int(recordIndex)] = UInt32(rank) }
        return PackedBitsWriter.arraySection(order.recordsByID.lazy.map { UInt64(rankOfRecord[Int($0)]) },
                                             width: bitWidth(holding: UInt64(max(rankOfRecord.count - 1, 0))))
    }
}
