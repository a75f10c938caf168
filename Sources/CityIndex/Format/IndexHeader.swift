// IndexHeader.swift: the fixed header and the section table (FORMAT.md §2, §3).

/// One entry of the section table.
struct SectionEntry: Equatable {
    let kind: SectionKind
    let flags: UInt32
    let offset: UInt64
    let byteCount: UInt64

    var isRequired: Bool { flags & FormatConstants.requiredSectionFlag != 0 }
}

/// The header fields and section table, read but not yet trusted (see `+Validation`).
struct IndexHeader {
    let magic: UInt32
    let formatVersion: UInt32
    let storedChecksum: UInt32
    let flags: UInt32
    let recordedFileByteCount: UInt64
    let cityCount: UInt32
    let sections: [SectionEntry]

    /// Reads the header and section table of `file`, validating each field as it goes so
    /// that no later step reads a byte it has not checked. The reads themselves are unchecked
    /// once the file is known to hold the header (then the table) they read.
    /// O(sections), never O(cities).
    init(reading file: ByteView) throws(IndexFileError) {
        guard file.count >= FormatConstants.headerByteCount else {
            throw .fileTooSmall(byteCount: file.count, minimumByteCount: FormatConstants.headerByteCount)
        }
        magic = file.uint32(uncheckedAt: FormatConstants.magicOffset)
        formatVersion = file.uint32(uncheckedAt: FormatConstants.versionOffset)
        storedChecksum = file.uint32(uncheckedAt: FormatConstants.checksumOffset)
        flags = file.uint32(uncheckedAt: FormatConstants.flagsOffset)
        recordedFileByteCount = file.uint64(uncheckedAt: FormatConstants.fileByteCountOffset)
        cityCount = file.uint32(uncheckedAt: FormatConstants.cityCountOffset)
        let sectionCount = file.uint32(uncheckedAt: FormatConstants.sectionCountOffset)
        try Self.validateFixedFields(magic: magic, formatVersion: formatVersion, flags: flags,
                                     recordedFileByteCount: recordedFileByteCount,
                                     sectionCount: sectionCount, fileByteCount: file.count)
        let tableEnd = FormatConstants.headerByteCount + Int(sectionCount) * FormatConstants.sectionEntryByteCount
        guard file.count >= tableEnd else { throw .fileTooSmall(byteCount: file.count, minimumByteCount: tableEnd) }
        var sections: [SectionEntry] = []
        sections.reserveCapacity(Int(sectionCount))
        for index in 0..<Int(sectionCount) {
            let entryOffset = FormatConstants.headerByteCount + index * FormatConstants.sectionEntryByteCount
            sections.append(SectionEntry(kind: SectionKind(rawValue: file.uint32(uncheckedAt: entryOffset)),
                                         flags: file.uint32(uncheckedAt: entryOffset + 4),
                                         offset: file.uint64(uncheckedAt: entryOffset + 8),
                                         byteCount: file.uint64(uncheckedAt: entryOffset + 16)))
        }
        self.sections = sections
        try Self.validateSections(sections, tableEnd: tableEnd, fileByteCount: file.count)
    }

    /// The entry of `kind`, if listed.
    func section(_ kind: SectionKind) -> SectionEntry? { sections.first { $0.kind == kind } }
}
