// IndexFileWriter.swift: header, section table and checksum around the sections (FORMAT.md §2, §3, §8).
import CityIndex

/// Lays sections out after the header and section table, each 8-byte aligned, and stamps
/// the file size and checksum. The file is kept as chunks (header, padding, sections) so
/// it can be written without one more copy of everything in memory.
enum IndexFileWriter {
    struct Section {
        var kind: SectionKind
        var isRequired: Bool
        var bytes: [UInt8]
    }

    /// The order sections are laid out in the file (FORMAT.md §3): the tries first, so that the
    /// nodes a search reads sit together, then the records and the rest.
    static let sectionOrder: [SectionKind] = [
        .foldTable, .nodes, .wordNodes, .nameSymbols, .cities, .names, .alternateNames, .wordPostings, .idIndex, .population, .populationOrder,
        .nodeTopLists, .wordTopLists, .wordAlphabeticalLists,
    ]

    /// The file as consecutive chunks.
    static func fileChunks(cityCount: Int, sections: [Section]) -> [[UInt8]] {
        let tableEnd = IndexLayout.headerByteCount + sections.count * IndexLayout.sectionEntryByteCount
        var offsets: [Int] = []
        var paddings: [Int] = []
        var cursor = tableEnd
        for section in sections {
            let aligned = (cursor + IndexLayout.sectionAlignment - 1) / IndexLayout.sectionAlignment * IndexLayout.sectionAlignment
            paddings.append(aligned - cursor)
            offsets.append(aligned)
            cursor = aligned + section.bytes.count
        }

        var header = ByteWriter()
        header.appendUInt32(IndexLayout.magic)
        header.appendUInt32(IndexLayout.currentVersion)
        header.appendUInt32(0)   // checksum, stamped last
        header.appendUInt32(0)   // flags (reserved)
        header.appendUInt64(UInt64(cursor))
        header.appendUInt32(UInt32(cityCount))
        header.appendUInt32(UInt32(sections.count))
        for (section, offset) in zip(sections, offsets) {
            header.appendUInt32(section.kind.rawValue)
            header.appendUInt32(section.isRequired ? IndexLayout.requiredSectionFlag : 0)
            header.appendUInt64(UInt64(offset))
            header.appendUInt64(UInt64(section.bytes.count))
        }
        var chunks: [[UInt8]] = [header.bytes]
        for (section, padding) in zip(sections, paddings) {
            if padding > 0 { chunks.append([UInt8](repeating: 0, count: padding)) }
            chunks.append(section.bytes)
        }
        // The checksum field is still zero: checksum everything, then stamp it.
        var checksum: UInt32 = 0
        for chunk in chunks { checksum = chunk.withUnsafeBytes { CRC32.update(checksum, with: $0) } }
        for index in 0..<4 {
            chunks[0][IndexLayout.checksumOffset + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(index)))
        }
        return chunks
    }
}
