// IndexFileWriter.swift: header, section table and checksum around the sections (FORMAT.md §2, §3, §8).
import CityIndex

/// Lays sections out after the header and section table, each 8-byte aligned, and stamps
/// the file size and checksum. The in-memory form keeps the file as chunks (header, padding,
/// sections) so it can be written without one more copy of everything in memory;
/// `SpooledIndexFile` writes the same layout into a file section by section.
enum IndexFileWriter {
    struct Section {
        var kind: SectionKind
        var isRequired: Bool
        var bytes: [UInt8]
    }

    /// A section's place in the file: what the section table lists.
    struct Placement {
        var kind: SectionKind
        var isRequired: Bool
        var offset: Int
        var byteCount: Int
    }

    /// The order sections are laid out in the file (FORMAT.md §3): the tries first, so that the
    /// nodes a search reads sit together, then the records and the rest.
    static let sectionOrder: [SectionKind] = [
        .foldTable, .nodes, .wordNodes, .nameSymbols, .cities, .names, .alternateNames, .wordPostings, .idIndex, .population, .populationOrder,
        .regions, .countryNames, .spatialIndex,
        .nodeTopLists, .wordTopLists, .wordAlphabeticalLists,
    ]

    /// Sorts sections into `sectionOrder`.
    static func sortedInFileOrder<T>(_ sections: [T], kind: (T) -> SectionKind) -> [T] {
        sections.sorted { sectionOrder.firstIndex(of: kind($0))! < sectionOrder.firstIndex(of: kind($1))! }
    }

    /// Where sections of these sizes go, in this order, after a section table of
    /// `tableEntryCount` entries (at least the sections listed), starting at `start` (the end
    /// of the table when nil): each at the next multiple of 8. Returns the placements and the
    /// end of the last section. O(sections).
    static func place(_ sections: [(kind: SectionKind, isRequired: Bool, byteCount: Int)], tableEntryCount: Int,
                      after start: Int? = nil) -> (placements: [Placement], end: Int) {
        var cursor = start ?? FormatConstants.headerByteCount + tableEntryCount * FormatConstants.sectionEntryByteCount
        var placements: [Placement] = []
        for section in sections {
            let aligned = (cursor + FormatConstants.sectionAlignment - 1) / FormatConstants.sectionAlignment * FormatConstants.sectionAlignment
            placements.append(Placement(kind: section.kind, isRequired: section.isRequired, offset: aligned, byteCount: section.byteCount))
            cursor = aligned + section.byteCount
        }
        return (placements, cursor)
    }

    /// The header and section table listing `placements`, with a zero checksum.
    static func headerBytes(cityCount: Int, placements: [Placement], fileByteCount: Int) -> [UInt8] {
        var header = ByteBuffer()
        header.appendUInt32(FormatConstants.magic)
        header.appendUInt32(FormatConstants.currentVersion)
        header.appendUInt32(0)   // checksum, stamped last
        header.appendUInt32(0)   // flags (reserved)
        header.appendUInt64(UInt64(fileByteCount))
        header.appendUInt32(UInt32(cityCount))
        header.appendUInt32(UInt32(placements.count))
        for placement in placements {
            header.appendUInt32(placement.kind.rawValue)
            header.appendUInt32(placement.isRequired ? FormatConstants.requiredSectionFlag : 0)
            header.appendUInt64(UInt64(placement.offset))
            header.appendUInt64(UInt64(placement.byteCount))
        }
        return header.bytes
    }

    /// The file as consecutive chunks, `sections` in the order given.
    static func fileChunks(cityCount: Int, sections: [Section]) -> [[UInt8]] {
        let (placements, end) = place(sections.map { ($0.kind, $0.isRequired, $0.bytes.count) }, tableEntryCount: sections.count)
        var chunks: [[UInt8]] = [headerBytes(cityCount: cityCount, placements: placements, fileByteCount: end)]
        var cursor = chunks[0].count
        for (section, placement) in zip(sections, placements) {
            if placement.offset > cursor { chunks.append([UInt8](repeating: 0, count: placement.offset - cursor)) }
            chunks.append(section.bytes)
            cursor = placement.offset + placement.byteCount
        }
        // The checksum field is still zero: checksum everything, then stamp it.
        var checksum: UInt32 = 0
        for chunk in chunks { checksum = chunk.withUnsafeBytes { CRC32.update(checksum, with: $0) } }
        for index in 0..<4 {
            chunks[0][FormatConstants.checksumOffset + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(index)))
        }
        return chunks
    }
}
