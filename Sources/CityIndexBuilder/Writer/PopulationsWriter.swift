// PopulationsWriter.swift: encoder twin of Populations (FORMAT.md §7.4).

/// Writes `POPL`: each rank's population as given (`0xFFFFFFFF` for unknown). O(*n*).
enum PopulationsWriter {
    static func sectionBytes(collection: CityCollection, order: SearchOrder) -> [UInt8] {
        var section = ByteWriter(capacity: order.recordOfRank.count * 4)
        for recordIndex in order.recordOfRank { section.appendUInt32(collection.records[Int(recordIndex)].population) }
        return section.bytes
    }
}
