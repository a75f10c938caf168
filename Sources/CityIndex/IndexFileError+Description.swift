// IndexFileError+Description.swift: what each error means and what to do about it.

extension IndexFileError: CustomStringConvertible {
    /// One sentence on what is wrong and where, then what to do.
    public var description: String { "\(problem). \(advice)" }

    private var advice: String {
        switch self {
        case .cannotOpenFile, .cannotMapFile:
            return "Check the path and permissions, or build the index with build-index."
        case .notARegularFile:
            return "Pass the path of an index file written by build-index."
        case .queryTooLong:
            return "Search with a shorter query: no city's name is that long."
        case .searchTooCostly:
            return "Search with a longer query, fewer typos forgiven, population order or a smaller radius."
        case .fileChangedWhileOpen:
            return "Open it again; to replace an index that may be open, rename a new file over it (as build-index does) instead of writing into it."
        case .unsupportedFormatVersion(let found, let supported) where found > supported.upperBound:
            return "Upgrade CityIndex, or rebuild the index with this version's build-index."
        case .unsupportedFormatVersion(let found, let supported) where found < supported.lowerBound:
            return "Rebuild the index with this version's build-index (version 8 adds the regions, country names and spatial index; version 7 holds trie leaves of a few entries in their parents and stores only the node fields a trie uses; version 6 locates the primary names by blocks of records and stores coordinates at the precision the input has; version 5 marks demoted alternate-name matches in the word postings; version 4 holds one-entry trie leaves in their parents and packs the alternate names' offsets; version 3 stored the tries without their label bytes; version 2 added word matching and population order)."
        default:
            return "The file is damaged or not a CityIndex file: rebuild it with build-index."
        }
    }

    /// What is wrong and where, without the advice (for callers with their own advice).
    public var problem: String {
        switch self {
        case .cannotOpenFile(let path, let errno):
            return "cannot open '\(path)': \(CErrorText.message(for: errno))"
        case .cannotMapFile(let path, let errno):
            return "cannot map '\(path)' into memory: \(CErrorText.message(for: errno))"
        case .notARegularFile(let path):
            return "'\(path)' is not a regular file (a directory, FIFO, socket or device)"
        case .queryTooLong(let byteCount, let limit):
            return "the query has \(byteCount) bytes, more than the \(limit) a search takes"
        case .searchTooCostly(let entryCount, let limit):
            return "the search would read more than its limit of \(limit) index entries (\(entryCount) so far)"
        case .fileChangedWhileOpen(let path):
            return "'\(path)' was changed in place while it was open: its results since then may be wrong or missing"
        case .fileTooSmall(let byteCount, let minimumByteCount):
            return "the file has \(byteCount) bytes, fewer than the \(minimumByteCount) of its header and section table"
        case .notAnIndexFile(let foundMagic):
            return "the file does not start with \"CIDX\" (found 0x\(hex(foundMagic)) at offset 0)"
        case .unsupportedFormatVersion(let found, let supported) where found < supported.lowerBound:
            return "the file has format version \(found), which this reader no longer reads (it reads \(supported.lowerBound)...\(supported.upperBound))"
        case .unsupportedFormatVersion(let found, let supported):
            return "the file has format version \(found); this reader reads \(supported.lowerBound)...\(supported.upperBound)"
        case .unsupportedFlags(let found):
            return "the header's reserved field at offset 12 is 0x\(hex(found)), not 0"
        case .fileSizeMismatch(let recorded, let actual):
            return "the header records \(recorded) bytes but the file has \(actual): it was truncated or appended to"
        case .invalidSectionCount(let found, let maximum):
            return "the header lists \(found) sections; a file has 1...\(maximum)"
        case .sectionOutOfBounds(let section, let offset, let byteCount, let fileByteCount):
            return "section \(section) (offset \(offset), \(byteCount) bytes) does not lie within the \(fileByteCount)-byte file after the section table"
        case .sectionMisaligned(let section, let offset):
            return "section \(section) starts at offset \(offset), not a multiple of 8"
        case .sectionsOverlap(let first, let second):
            return "section \(second) starts before section \(first) ends"
        case .duplicateSection(let section):
            return "section \(section) is listed twice"
        case .missingSection(let section):
            return "the file has no \(section) section"
        case .unknownRequiredSection(let section):
            return "the file needs section \(section), which this reader does not know"
        case .sectionSizeMismatch(let section, let byteCount, let expectedByteCount):
            return "section \(section) has \(byteCount) bytes where \(expectedByteCount) are expected"
        case .corruptFoldTable(let entryIndex, let reason):
            return "fold table entry \(entryIndex) is invalid (\(reason))"
        case .corruptNode(let nodeOffset, let reason):
            return "the trie node at offset \(nodeOffset) of its trie section (NODE or WNOD) is invalid (\(reason))"
        case .checksumMismatch(let stored, let computed):
            return "the checksum is 0x\(hex(stored)) in the header but 0x\(hex(computed)) over the bytes"
        case .invariantViolated(let violation):
            return "the index breaks an invariant (\(violation))"
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
