// IndexHeader+Validation.swift: the rules of FORMAT.md §2 and §3, in table order.

extension IndexHeader {
    /// The sections this reader knows; any other section marked required is rejected.
    static let knownSections: Set<SectionKind> = [
        .foldTable, .nodes, .cities, .names, .idIndex, .population, .wordNodes, .wordPostings, .alternateNames, .populationOrder,
        .nodeTopLists, .wordTopLists, .wordAlphabeticalLists, .nameSymbols,
    ]

    /// Checks the fixed header fields before any other byte is trusted. O(1).
    static func validateFixedFields(magic: UInt32, formatVersion: UInt32, flags: UInt32,
                                    recordedFileByteCount: UInt64, sectionCount: UInt32,
                                    fileByteCount: Int) throws(IndexFileError) {
        guard magic == FormatConstants.magic else { throw .notAnIndexFile(foundMagic: magic) }
        guard FormatConstants.supportedVersions.contains(formatVersion) else {
            throw .unsupportedFormatVersion(found: formatVersion, supported: FormatConstants.supportedVersions)
        }
        guard flags == 0 else { throw .unsupportedFlags(found: flags) }
        guard recordedFileByteCount == UInt64(fileByteCount) else {
            throw .fileSizeMismatch(recordedByteCount: recordedFileByteCount, actualByteCount: fileByteCount)
        }
        guard (1...FormatConstants.maximumSectionCount).contains(sectionCount) else {
            throw .invalidSectionCount(found: sectionCount, maximum: FormatConstants.maximumSectionCount)
        }
    }

    /// Checks that sections are aligned, inside the file, after the table, in increasing
    /// order without overlap, listed once each, and that every required one is known.
    /// O(sections²) with at most 64 sections.
    static func validateSections(_ sections: [SectionEntry], tableEnd: Int,
                                 fileByteCount: Int) throws(IndexFileError) {
        var previous: SectionEntry?
        for (index, section) in sections.enumerated() {
            guard section.offset >= UInt64(tableEnd), section.byteCount <= UInt64(fileByteCount),
                  section.offset <= UInt64(fileByteCount) - section.byteCount else {
                throw .sectionOutOfBounds(section: section.kind, offset: section.offset,
                                          byteCount: section.byteCount, fileByteCount: fileByteCount)
            }
            guard section.offset % UInt64(FormatConstants.sectionAlignment) == 0 else {
                throw .sectionMisaligned(section: section.kind, offset: section.offset)
            }
            if let previous, section.offset < previous.offset + previous.byteCount {
                throw .sectionsOverlap(first: previous.kind, second: section.kind)
            }
            if sections[..<index].contains(where: { $0.kind == section.kind }) {
                throw .duplicateSection(section.kind)
            }
            if section.isRequired && !knownSections.contains(section.kind) {
                throw .unknownRequiredSection(section.kind)
            }
            previous = section
        }
    }
}
