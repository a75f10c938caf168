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
    /// The query has more UTF-8 bytes than a search takes (`CityIndex.maximumQueryByteCount`):
    /// a typo-tolerant walk's work grows with the query's length.
    case queryTooLong(byteCount: Int, limit: Int)
    /// The search would read more index entries than `CityIndex.searchEntryLimit` allows: its
    /// query matches too much of the index for its options (a typo-tolerant search of a short
    /// query over a whole radius or in alphabetical order). Nothing is wrong with the file.
    case searchTooCostly(entryCount: Int, limit: Int)
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
    /// The entry's scalar is not greater than the previous entry's (the table must be sorted).
    case scalarsNotIncreasing
    /// The entry names a value that is not a Unicode scalar, or a Hangul syllable (folded by arithmetic, never listed).
    case invalidScalar(UInt32)
    /// The entry's output lies outside the output area.
    case outputOutOfBounds
    /// The entry's output is not valid UTF-8.
    case outputNotUTF8
}

/// What is wrong with a trie node.
public enum NodeDefect: Equatable, Sendable {
    /// The node's header or child table runs past the end of its section.
    case truncated
    /// A varint is longer than 5 bytes or exceeds 32 bits (FORMAT.md §1).
    case malformedVarint
    /// The section header's root offset does not point at a node inside the section.
    case invalidRootOffset
    /// The node claims more children than there are byte values (or than fit in the section).
    case tooManyChildren(Int)
    /// The children's first key bytes are not strictly increasing.
    case childLabelsNotIncreasing
    /// A child is not stored before its parent (children precede parents, so every walk ends).
    case childNotBeforeParent(childOffset: Int)
    /// Two parents name this node as their child (found by `verify()`): the trie is not a tree.
    case reachedTwice
    /// A child's entries do not lie within its parent's.
    case entryRangeOutsideParent(firstEntry: Int, entryCount: Int)
    /// An inner node's path is not longer than its parent's (FORMAT.md §6.2).
    case pathNotLongerThanParent(pathLength: Int)
    /// The section header's bucket capacity is not 1 (`NODE`) or 1…64 (`WNOD`).
    case invalidBucketCapacity(Int)
    /// The section header's small-leaf count width is above 8, or its flags or reserved byte
    /// hold bits FORMAT.md §6 does not define.
    case invalidSectionHeader
    /// More repeated entries than entries, or a best entry outside the node's entries.
    case invalidCounts(repeatCount: Int, bestDelta: Int)
    /// Siblings' entries overlap, or a node's best entry ranks after one of its subtree's.
    case entriesOutOfOrder
}

/// A rule of FORMAT.md §9 that `verify()` found broken.
public enum InvariantViolation: Equatable, Sendable {
    /// The city's name location lies outside `NAME`.
    case nameOutOfBounds(rank: Int)
    /// The city's name is not valid UTF-8.
    case nameNotUTF8(rank: Int)
    /// The city's country is not two ASCII capitals (or not in the country table).
    case invalidCountryCode(rank: Int)
    /// The city's latitude is outside −90…90 or its longitude outside −180…180.
    case coordinateOutOfRange(rank: Int)
    /// `CITY`'s id exceptions are not in increasing rank order, name a rank outside
    /// `0 ..< cityCount` or one whose record does not hold the escape value, hold an id that
    /// fits the record, or miss a record that holds it (the rank is the first one wrong).
    case idExceptionWrong(rank: Int)
    /// `IDIX` does not list ranks by increasing city id.
    case idIndexNotSorted(position: Int)
    /// An `IDIX` entry names a rank outside `0 ..< cityCount`.
    case idIndexRankOutOfBounds(position: Int)
    /// The record at `rank` does not come after the one before it in search order (SEARCH.md §3).
    case recordsNotInSearchOrder(rank: Int)
    /// The `NODE` trie's key for `rank` is not the folded name of its record.
    case trieDisagreesWithRecords(rank: Int)
    /// A `WNOD` posting's path is not a suffix key of the name it points to (FORMAT.md §7).
    case wordTrieDisagreesWithNames(posting: Int)
    /// A posting or the population order names a city or name slot that does not exist.
    case postingOutOfBounds(position: Int)
    /// `WPST` holds a different number of postings than there are distinct (city, suffix key)
    /// pairs over the stored names: some are missing or repeated (FORMAT.md I9).
    case postingCountWrong(found: Int, expected: Int)
    /// `WPST`'s rank field is not ⌈log₂ cityCount⌉ bits wide, or its slot field is wider than
    /// the 17 bits the largest slot (65,535) and its demoted bit take (FORMAT.md §7.7): checked
    /// at open, so that a count of postings cannot be made to fit a file by narrowing them.
    case postingWidthWrong(rankWidth: Int, slotWidth: Int, expectedRankWidth: Int)
    /// An alternate name lies outside `NAME`, is not UTF-8, or the `ALTN` table is not increasing.
    case alternateNameOutOfBounds(rank: Int)
    /// A node's city count or best entry disagrees with its entries.
    case nodeSummaryWrong(nodeOffset: Int)
    /// `PORD` is not a permutation of each run of equal names in population order.
    case populationOrderWrong(position: Int)
    /// An `NTOP` or `WTOP` list names no node of its trie, is not what the best-first search
    /// returns for it, or the listed offsets do not increase (FORMAT.md §7.9).
    case topListWrong(nodeOffset: Int)
    /// A `REGN` region is out of (country, code) order, in no country of `CITY`'s table, or
    /// its names are malformed (FORMAT.md §7.10).
    case regionWrong(region: Int)
    /// A city's `REGN` value names no region, or a region of another country.
    case cityRegionWrong(rank: Int)
    /// A `CTRY` list is malformed (FORMAT.md §7.11).
    case countryNamesWrong(country: Int)
    /// `GEOK` names a rank twice or none, or breaks the k-d tree's order at this position, or
    /// the split of the node whose median is at this position is not its coordinate
    /// (FORMAT.md §7.12).
    case spatialIndexWrong(position: Int)
    /// A `GEOK` split slot that is no node's holds a value (FORMAT.md §7.12).
    case spatialSplitWrong(node: Int)
}
