// CityIndex+Inspection.swift: what a file holds, for tools (`city-search --inspect`).

extension CityIndex {
    /// One entry of the file's section table (FORMAT.md §3).
    public struct SectionInfo: Sendable, Equatable {
        /// The four-character section name ("NODE", "CITY", …).
        public let name: String
        /// Where the section starts, in bytes from the start of the file.
        public let offset: Int
        /// The section's size in bytes.
        public let byteCount: Int
        /// Whether a reader must understand the section to use the file.
        public let isRequired: Bool
    }

    /// The file's format version (FORMAT.md §2).
    public var formatVersion: UInt32 { contents.formatVersion }

    /// The checksum the file's header states (FORMAT.md §8: the CRC-32 of the file), which
    /// names one build of an index; `verify()` or `verifyChecksum()` checks that it holds. O(1).
    public var checksum: UInt32 { contents.storedChecksum }

    /// The file's sections, in file order. O(sections).
    public var sections: [SectionInfo] {
        contents.sectionEntries.map { entry in
            SectionInfo(name: entry.kind.description, offset: Int(entry.offset), byteCount: Int(entry.byteCount),
                        isRequired: entry.isRequired)
        }
    }
}
