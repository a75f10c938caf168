// FormatConstants.swift: the constants of FORMAT.md shared by the reader and the builder.
// `package`, not `public`: apps never see byte offsets.

/// Byte layout constants of the index file (FORMAT.md §2–§4).
package enum FormatConstants {
    /// "CIDX" read as a little-endian UInt32 (bytes `43 49 44 58`).
    package static let magic: UInt32 = 0x5844_4943
    /// The format version this library writes.
    package static let currentVersion: UInt32 = 8
    /// The format versions this library reads. Versions 1 (no word matching, no ranking
    /// data in the trie), 2 (tries with their label bytes), 3 (every trie leaf stored as a
    /// node, 32-bit alternate-name offsets), 4 (no demoted word postings), 5 (a full name
    /// offset and six-decimal coordinates in every `CITY` record) and 6 (every trie leaf of
    /// several entries stored as a node, every node field stored) are rejected: their files
    /// must be rebuilt. A version 7 file is a version 8 file without the optional sections
    /// version 8 added (`REGN`, `CTRY`, `GEOK`), so it is read as one.
    package static let supportedVersions: ClosedRange<UInt32> = 7...8

    /// Size of the fixed header, before the section table.
    package static let headerByteCount = 32
    /// Size of one section table entry.
    package static let sectionEntryByteCount = 24
    /// Most sections a file may list (bounds the work done before anything is trusted).
    package static let maximumSectionCount: UInt32 = 64
    /// Most distinct regions an index holds (`REGN`'s country index and a city's region are
    /// read as 16-bit values).
    package static let maximumRegionCount = 65_535
    /// Sections start at multiples of this.
    package static let sectionAlignment = 8

    /// Header field offsets.
    package static let magicOffset = 0
    package static let versionOffset = 4
    package static let checksumOffset = 8
    package static let flagsOffset = 12
    package static let fileByteCountOffset = 16
    package static let cityCountOffset = 24
    package static let sectionCountOffset = 28

    /// Section flag bit: a reader that does not know the section must reject the file.
    package static let requiredSectionFlag: UInt32 = 1

    /// `POPL` value meaning "population unknown"; a known population *p* is stored as *p* + 1.
    package static let unknownPopulation: UInt32 = .max

    /// Size of the header before a bit-packed array in `IDIX`, `POPL` and `WPST` (widths, reserved, count).
    package static let packedHeaderByteCount = 8

    /// Size of the `FOLD` section's own header and of one of its entries.
    package static let foldHeaderByteCount = 8
    package static let foldEntryByteCount = 8
    /// Fold entries pack the output offset in the low 24 bits and its byte count above.
    package static let foldOutputOffsetBits: UInt32 = 24

    /// Size of the `PORD` section's own header (moved entry count + reserved).
    package static let populationOrderHeaderByteCount = 8

    /// Size of the `ALTN` section's own header (text byte count + reserved).
    package static let alternateHeaderByteCount = 8
    /// `ALTN` stores a 32-bit text start per block of this many ranks (FORMAT.md §7.5).
    package static let alternateRanksPerBlock = 64

    /// Where `ALTN`'s packed starts begin, after the header and the block starts of
    /// `cityCount + 1` ranks padded to a multiple of 8. O(1).
    package static func alternatePackedStartsOffset(cityCount: Int) -> Int {
        let blockCount = (cityCount + alternateRanksPerBlock) / alternateRanksPerBlock
        return alternateHeaderByteCount + (blockCount * 4 + 7) / 8 * 8
    }

    /// Size of the `NODE` and `WNOD` sections' own header (root offset, bucket capacity,
    /// small-leaf count width, flags, a reserved byte).
    package static let nodeSectionHeaderByteCount = 8
    /// Most entries a `WNOD` leaf holding several keys (a bucket) has, as `build-index`
    /// writes it, and the most any file may declare (bounds a search's scan of a bucket).
    package static let wordBucketCapacity = 8
    /// How many bytes long a `WNOD` node's path must be for `build-index` to make a child of it
    /// a bucket; under a node with a shorter path every subtree is written node by node
    /// (FORMAT.md §6). Every typo-tolerant walk goes through those upper levels and would read
    /// the key of each entry of a bucket there; as nodes, their child labels prune most
    /// entries unread.
    package static let wordBucketShortestParentPath = 4
    package static let maximumBucketCapacity = 64

    /// `NTOP`/`WTOP`: the header (list length, node count), and what `build-index` writes: the
    /// top 20 of every node with at least 1,024 entries.
    package static let topListsHeaderByteCount = 8
    package static let topListLength = 20
    package static let topListMinimumEntryCount = 1024

    /// Hangul syllables are folded by the Unicode decomposition algorithm (FORMAT.md §5.2)
    /// rather than listed in the fold table.
    package static let hangulSyllables: ClosedRange<UInt32> = 0xAC00...0xD7A3
}
