// CityRecordsWriter.swift: encoder twin of CityRecords and NameText (FORMAT.md §7.1–7.2).
import CityIndex

/// Writes the `CITY` records in search order and the `NAME` text they point into. Identical
/// names are stored once: they fold to identical keys, so comparing within a run of equal
/// keys finds every duplicate.
enum CityRecordsWriter {
    /// - Complexity: O(*n* + name bytes), plus the names of each run of equal keys compared
    ///   with each other.
    static func sectionBytes(collection: CityCollection, order: SearchOrder) -> (cities: [UInt8], names: [UInt8]) {
        var cities = ByteWriter(capacity: order.recordOfRank.count * IndexLayout.cityRecordByteCount)
        var names = ByteWriter(capacity: collection.nameArena.count)
        var namesOfCurrentKey: [(name: ArraySlice<UInt8>, offset: UInt32)] = []
        var keyIndex = 0
        for (rank, recordIndex) in order.recordOfRank.enumerated() {
            if rank == order.distinctKeys[keyIndex].entryEnd {
                keyIndex += 1
                namesOfCurrentKey.removeAll(keepingCapacity: true)
            }
            let record = collection.records[Int(recordIndex)]
            let name = collection.name(of: record)
            let nameOffset: UInt32
            if let existing = namesOfCurrentKey.first(where: { $0.name == name }) {
                nameOffset = existing.offset
            } else {
                nameOffset = UInt32(names.count)
                namesOfCurrentKey.append((name, nameOffset))
                names.append(name)
            }
            cities.appendUInt32(record.id)
            cities.appendUInt32(UInt32(bitPattern: record.latitudeMicrodegrees))
            cities.appendUInt32(UInt32(bitPattern: record.longitudeMicrodegrees))
            cities.appendUInt32(nameOffset)
            cities.appendUInt16(record.nameByteCount)
            cities.appendUInt16(record.countryCode)
        }
        return (cities.bytes, names.bytes)
    }
}
