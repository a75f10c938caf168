// CityRecordsWriter.swift: encoder twin of CityRecords and NameText (FORMAT.md §7.1–7.2).
import CityIndex

/// Writes the `CITY` records in search order, bit-packed in the fewest bits that hold each
/// field (`CityRecordLayout`), and the `NAME` text they point into (UTF-8, not coded: a search
/// reads primary names on every query). Identical names are stored
/// once: they fold to identical keys, so comparing within a run of equal keys finds every
/// duplicate.
enum CityRecordsWriter {
    /// - Complexity: O(*n* + name bytes), plus the names of each run of equal keys compared
    ///   with each other.
    static func sectionBytes(collection: CityCollection, order: SearchOrder) -> (cities: [UInt8], names: [UInt8]) {
        var names = ByteWriter(capacity: collection.nameArena.count)
        var namesOfCurrentKey: [(name: ArraySlice<UInt8>, offset: UInt32, byteCount: UInt32)] = []
        var nameOffsets: [UInt32] = []
        var nameByteCounts: [UInt32] = []
        nameOffsets.reserveCapacity(order.recordOfRank.count)
        nameByteCounts.reserveCapacity(order.recordOfRank.count)
        var keyIndex = 0
        for (rank, recordIndex) in order.recordOfRank.enumerated() {
            if rank == order.distinctKeys[keyIndex].entryEnd {
                keyIndex += 1
                namesOfCurrentKey.removeAll(keepingCapacity: true)
            }
            let name = collection.name(of: collection.records[Int(recordIndex)])
            if let existing = namesOfCurrentKey.first(where: { $0.name == name }) {
                nameOffsets.append(existing.offset)
                nameByteCounts.append(existing.byteCount)
            } else {
                nameOffsets.append(UInt32(truncatingIfNeeded: names.count))
                nameByteCounts.append(UInt32(name.count))
                namesOfCurrentKey.append((name, UInt32(truncatingIfNeeded: names.count), UInt32(name.count)))
                names.append(name)
            }
        }
        // Read in place, not copied into search order (a copy is 48 bytes per city).
        let records = collection.records
        let countries = Array(Set(records.map(\.countryCode))).sorted()
        let countryIndex = Dictionary(uniqueKeysWithValues: countries.enumerated().map { ($1, $0) })
        let layout = CityRecordLayout(idWidth: bitWidth(holding: UInt64(records.map(\.id).max() ?? 0)),
                                      nameOffsetWidth: bitWidth(holding: UInt64(nameOffsets.max() ?? 0)),
                                      nameByteCountWidth: bitWidth(holding: UInt64(nameByteCounts.max() ?? 0)),
                                      countryWidth: bitWidth(holding: UInt64(max(countries.count - 1, 0))))
        var cities = ByteWriter(capacity: layout.sectionByteCount(cityCount: records.count, countryCount: countries.count))
        for width in [layout.idWidth, layout.nameOffsetWidth, layout.nameByteCountWidth, layout.countryWidth] {
            cities.appendUInt8(UInt8(width))
        }
        cities.appendUInt16(UInt16(countries.count))
        cities.appendUInt16(0)
        for country in countries { cities.appendUInt16(country) }
        cities.pad(toMultipleOf: 8)
        var bits = PackedBitsWriter(capacity: records.count * layout.recordWidth)
        for (rank, recordIndex) in order.recordOfRank.enumerated() {
            let record = records[Int(recordIndex)]
            bits.append(UInt64(record.id), width: layout.idWidth)
            bits.append(UInt64(Int64(record.latitudeMicrodegrees) + CityRecordLayout.latitudeBias), width: CityRecordLayout.latitudeWidth)
            bits.append(UInt64(Int64(record.longitudeMicrodegrees) + CityRecordLayout.longitudeBias), width: CityRecordLayout.longitudeWidth)
            bits.append(UInt64(nameOffsets[rank]), width: layout.nameOffsetWidth)
            bits.append(UInt64(nameByteCounts[rank]), width: layout.nameByteCountWidth)
            bits.append(UInt64(countryIndex[record.countryCode]!), width: layout.countryWidth)
        }
        cities.append(bits.bytes)
        return (cities.bytes, names.bytes)
    }
}
