// IndexFileError.swift: why an index file was rejected.

/// Why an index file was rejected. Cases say what was expected, what was found and where
/// (byte offsets from the start of the file, or from the start of a section where they say
/// so), so that `xxd -s <offset>` shows the culprit. Every case means the file must be
/// rebuilt with `build-index`; `description` says so in words.
public enum IndexFileError: Error, Equatable, Sendable {
    /// The file could not be opened or inspected (`errno` from the C library).
    case cannotOpenFile(path: String, errno: Int32)
    /// The file could not be memory-mapped (`errno` from `mmap`).
    case cannotMapFile(path: String, errno: Int32)
    /// The path names a directory, FIFO, socket or device, not a regular file (refused before
    /// it is opened for reading, so a FIFO cannot block).
    case notARegularFile(path: String)
    /// The mapped file was changed in place (rewritten, truncated or appended to) after it was
    /// opened; found by `checkFileUnchanged()`. Replace an open index by renaming a new file
    /// over it, never by writing into it (FORMAT.md §1), then open it again.
    case fileChangedWhileOpen(path: String)
    /// The file is shorter than the fixed header plus its section table.
    case fileTooSmall(byteCount: Int, minimumByteCount: Int)
    /// The first four bytes are not "CIDX".
    case notAnIndexFile(foundMagic: UInt32)
    /// The file was written in a format version this reader does not read.
    case unsupportedFormatVersion(found: UInt32, supported: ClosedRange<UInt32>)
    /// A reserved header field is not zero.
    case unsupportedFlags(found: UInt32)
    /// The header records a different size than the file has: truncated or appended to.
    case fileSizeMismatch(recordedByteCount: UInt64, actualByteCount: Int)
    /// The section count is zero or above the limit of FORMAT.md §3.
    case invalidSectionCount(found: UInt32, maximum: UInt32)
    /// A section does not lie inside the file, after the section table.
    case sectionOutOfBounds(section: SectionKind, offset: UInt64, byteCount: UInt64, fileByteCount: Int)
    /// A section does not start at a multiple of 8.
    case sectionMisaligned(section: SectionKind, offset: UInt64)
    /// Sections are not listed in increasing, non-overlapping order.
    case sectionsOverlap(first: SectionKind, second: SectionKind)
    /// A section kind is listed twice.
    case duplicateSection(SectionKind)
    /// A section this reader needs is absent.
    case missingSection(SectionKind)
    /// The file has a section marked required that this reader does not know.
    case unknownRequiredSection(SectionKind)
    /// A section's size does not fit the city count or its own header.
    case sectionSizeMismatch(section: SectionKind, byteCount: UInt64, expectedByteCount: UInt64)
    /// The fold table breaks a rule of FORMAT.md §5 at the given entry.
    case corruptFoldTable(entryIndex: Int, reason: FoldTableDefect)
    /// A trie node breaks a rule of FORMAT.md §6 (offset from the start of the `NODE` section).
    case corruptNode(nodeOffset: Int, reason: NodeDefect)
    /// The stored checksum does not match the bytes (found by `verify()`).
    case checksumMismatch(stored: UInt32, computed: UInt32)
    /// A structural rule checked by `verify()` is broken (FORMAT.md §9).
    case invariantViolated(InvariantViolation)
}

/// What is wrong with a fold table entry.
public enum FoldTableDefect: Equatable, Sendable {
    case scalarsNotIncreasing
    case invalidScalar(UInt32)
    case outputOutOfBounds
    case outputNotUTF8
}

/// What is wrong with a trie node.
public enum NodeDefect: Equatable, Sendable {
    case truncated
    case malformedVarint
    case invalidRootOffset
    case tooManyChildren(Int)
    case invalidOffsetWidth(UInt8)
    case childLabelsNotIncreasing
    case childNotBeforeParent(childOffset: Int)
    /// Two parents name this node as their child (found by `verify()`): the trie is not a tree.
    case reachedTwice
    case entryRangeOutsideParent(firstEntry: Int, entryCount: Int)
    /// An inner node's path is not longer than its parent's (FORMAT.md §6.2).
    case pathNotLongerThanParent(pathLength: Int)
    /// The section header's bucket capacity is not 1 (`NODE`) or 1…64 (`WNOD`).
    case invalidBucketCapacity(Int)
    /// More repeated entries than entries, or a best entry outside the node's entries.
    case invalidCounts(repeatCount: Int, bestDelta: Int)
    /// Siblings' entries overlap, or a node's best entry ranks after one of its subtree's.
    case entriesOutOfOrder
}

/// A rule of FORMAT.md §9 that `verify()` found broken.
public enum InvariantViolation: Equatable, Sendable {
    case nameOutOfBounds(rank: Int)
    case nameNotUTF8(rank: Int)
    case invalidCountryCode(rank: Int)
    case coordinateOutOfRange(rank: Int)
    case idIndexNotSorted(position: Int)
    case idIndexRankOutOfBounds(position: Int)
    case recordsNotInSearchOrder(rank: Int)
    case trieDisagreesWithRecords(rank: Int)
    /// A `WNOD` posting's path is not a suffix key of the name it points to (FORMAT.md §7).
    case wordTrieDisagreesWithNames(posting: Int)
    /// A posting or the population order names a city or name slot that does not exist.
    case postingOutOfBounds(position: Int)
    /// `WPST` holds a different number of postings than there are distinct (city, suffix key)
    /// pairs over the stored names: some are missing or repeated (FORMAT.md I9).
    case postingCountWrong(found: Int, expected: Int)
    /// An alternate name lies outside `NAME`, is not UTF-8, or the `ALTN` table is not increasing.
    case alternateNameOutOfBounds(rank: Int)
    /// A node's city count or best entry disagrees with its entries.
    case nodeSummaryWrong(nodeOffset: Int)
    /// `PORD` is not a permutation of each run of equal names in population order.
    case populationOrderWrong(position: Int)
    /// An `NTOP` or `WTOP` list names no node of its trie, is not what the best-first search
    /// returns for it, or the listed offsets do not increase (FORMAT.md §7.9).
    case topListWrong(nodeOffset: Int)
}
