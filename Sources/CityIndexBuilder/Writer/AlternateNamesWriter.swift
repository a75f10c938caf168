// AlternateNamesWriter.swift: encoder twin of AlternateNames (FORMAT.md §7.5).
import CityIndex

/// Writes `ALTN`: a header, where each rank's names start in the text (and where the text
/// ends) as a 32-bit start per block of 64 ranks plus a bit-packed distance from it per
/// rank, then each city's alternate names as (length varint, coded name) runs, coded with
/// the name symbol table. O(*n* + alternate name bytes).
enum AlternateNamesWriter {
    static func sectionBytes(collection: CityCollection, order: SearchOrder, symbols: NameSymbolsWriter) -> [UInt8] {
        let cityCount = order.recordOfRank.count
        var text = ByteWriter()
        var starts: [Int] = []
        starts.reserveCapacity(cityCount + 1)
        for recordIndex in order.recordOfRank {
            starts.append(text.count)
            let record = collection.records[Int(recordIndex)]
            for alternate in 0 ..< Int(record.alternateCount) {
                let name = symbols.encoded(collection.text(of: collection.names[Int(record.firstName) + 1 + alternate]))
                text.appendVarint(UInt32(name.count))
                text.append(name)
            }
        }
        starts.append(text.count)
        let blockLength = IndexLayout.alternateRanksPerBlock
        let blockStarts = stride(from: 0, to: starts.count, by: blockLength).map { starts[$0] }
        let distances = starts.indices.map { UInt64(starts[$0] - blockStarts[$0 / blockLength]) }
        var section = ByteWriter(capacity: IndexLayout.alternatePackedStartsOffset(cityCount: cityCount))
        // Truncated when the text passes 4 GiB: IndexBuilder then refuses the section (BuildLimits).
        section.appendUInt32(UInt32(truncatingIfNeeded: text.count))
        section.appendUInt32(0)
        for start in blockStarts { section.appendUInt32(UInt32(truncatingIfNeeded: start)) }
        section.pad(toMultipleOf: 8)   // the header is 8 bytes: this ends at alternatePackedStartsOffset
        section.append(PackedBitsWriter.arraySection(distances, width: bitWidth(holding: distances.max() ?? 0))[...])
        section.append(text.bytes[...])
        return section.bytes
    }
}
