// AlternateNamesWriter.swift: encoder twin of AlternateNames (FORMAT.md §7.5).
import CityIndex

/// Writes `ALTN`: a header, each rank's offset into the text (and the end), then each city's
/// alternate names as (length varint, coded name) runs, coded with the name symbol table. O(*n* + alternate name bytes).
enum AlternateNamesWriter {
    static func sectionBytes(collection: CityCollection, order: SearchOrder, symbols: NameSymbolsWriter) -> [UInt8] {
        let cityCount = order.recordOfRank.count
        var text = ByteWriter()
        var section = ByteWriter(capacity: IndexLayout.alternateHeaderByteCount + (cityCount + 1) * 4)
        section.appendUInt32(0)   // text byte count, patched below
        section.appendUInt32(0)
        for recordIndex in order.recordOfRank {
            section.appendUInt32(UInt32(truncatingIfNeeded: text.count))
            let record = collection.records[Int(recordIndex)]
            for alternate in 0 ..< Int(record.alternateCount) {
                let name = symbols.encoded(collection.text(of: collection.names[Int(record.firstName) + 1 + alternate]))
                text.appendVarint(UInt32(name.count))
                text.append(name)
            }
        }
        section.appendUInt32(UInt32(truncatingIfNeeded: text.count))
        section.overwriteUInt32(UInt32(truncatingIfNeeded: text.count), at: 0)
        section.append(text.bytes[...])
        return section.bytes
    }
}
