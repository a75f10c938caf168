// IDIndexWriter.swift: encoder twin of IDIndex (FORMAT.md §7.3).

/// Writes `IDIX`: the rank of each city, by increasing id. O(*n*).
enum IDIndexWriter {
    static func sectionBytes(order: SearchOrder) -> [UInt8] {
        var rankOfRecord = [UInt32](repeating: 0, count: order.recordOfRank.count)
        for (rank, recordIndex) in order.recordOfRank.enumerated() { rankOfRecord[Int(recordIndex)] = UInt32(rank) }
        var section = ByteWriter(capacity: rankOfRecord.count * 4)
        for recordIndex in order.recordsByID { section.appendUInt32(rankOfRecord[Int(recordIndex)]) }
        return section.bytes
    }
}
