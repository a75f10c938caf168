// CityIndex.swift: the index type, its stored parts, and opening.

/// A memory-mapped, immutable city index: prefix search over folded names (SEARCH.md) and
/// lookup by id.
///
/// Opening validates the header, the section table, the fold table and the root node:
/// work that does not grow with the number of cities. Deeper damage is caught while
/// searching (every read is bounds-checked and every walk terminates; see `TrieNode`) or by
/// `verify()`, which checks the whole file.
///
/// The file it maps is never written; the value is `Sendable`: any number of threads may search
/// it at once. Its one setting, `typoSearchThreads`, belongs to each copy.
///
/// ```swift
/// let index = try CityIndex(path: "cities.cidx")
/// let matches = try index.search("san jo")
/// print(matches.count, matches.first?.name ?? "-")     // every match; the first in search order
/// ```
public struct CityIndex: Sendable {
    let contents: IndexContents

    /// On how many threads one typo-tolerant search may walk the trie (WORDS.md §6): the
    /// search's own and up to `typoSearchThreads − 1` others of the system's pool, sharing the
    /// root's subtrees (a pool thread that comes after the search's own has taken them all is
    /// not waited for); clamped to 1…8. The answers do not depend on it. The default, 2, shortens
    /// a long typo-tolerant search by up to half on a machine with two free cores; 1 keeps every search on the caller's thread, which a server answering many
    /// searches at once, each on its own thread, may prefer.
    public var typoSearchThreads = 2

    /// The most index entries one search may read, or `nil` (the default) for no limit. A
    /// search that matches a large part of the index reads every matching entry in some modes:
    /// restricted to countries or a radius, alphabetical order with typos forgiven, and the
    /// count of a typo-tolerant search's cities. A short query with many typos forgiven can
    /// then read millions. With a limit, such a search throws `.searchTooCostly` before it reads
    /// past it (`SearchMeter`), so a server bounds the work of one request; searches that read
    /// few entries (any exact search in population order, a top *k*) answer as without it.
    public var searchEntryLimit: Int?

    /// Maps the index file at `path` read-only and validates its structure.
    ///
    /// The file stays mapped while the index or any value read from it lives; no descriptor
    /// stays open (a process may hold thousands of indexes within its open-file limit).
    /// Replace an index that may be open by renaming a new file over it, never by writing
    /// into it; a file changed in place anyway never crashes the reader (see
    /// `checkFileUnchanged()` and FORMAT.md §1).
    /// - Throws: `IndexFileError`: `.notARegularFile` for a directory, FIFO or device (never
    ///   blocking on a FIFO), `.cannotOpenFile`, or what is wrong with the file.
    /// - Complexity: O(1) in the number of cities (O(*f*) for a fold table of *f* entries).
    public init(path: String) throws(IndexFileError) {
        contents = try IndexContents(storage: IndexFileBytes(mappingFileAt: path))
    }

    /// Opens an index from bytes in memory (copied once, aligned for reading).
    public init(bytes: some Collection<UInt8>) throws(IndexFileError) {
        contents = try IndexContents(storage: IndexFileBytes(copying: bytes))
    }

    /// Opens the concatenation of `chunks` (for `build-index`, which searches the file it is
    /// writing), copying it once.
    package init(chunks: [[UInt8]]) throws(IndexFileError) {
        contents = try IndexContents(storage: IndexFileBytes(copyingChunks: chunks))
    }

    /// Changes byte `offset` of an index opened from bytes, after its open-time checks, as a
    /// file rewritten underneath would (FORMAT.md §1.1). For the fuzzer and tests only: the
    /// reader must stay in bounds whatever the bytes become.
    @_spi(Testing) public func overwriteByteForTesting(at offset: Int, with value: UInt8) {
        contents.storage.overwriteForTesting(at: offset, with: value)
    }

    /// How many cities the index holds.
    public var cityCount: Int { contents.cityCount }

    /// Throws `IndexFileError.fileChangedWhileOpen` when the file this index maps was changed
    /// in place since it was opened: rewritten, truncated or appended to (a new file renamed
    /// over the path is not a change: this index keeps reading the file it opened). Searches
    /// of a changed file stay in bounds and never crash, but their results may be wrong or
    /// missing: call this where results are shown (the search session does, before every
    /// search) and open the path again when it throws. Indexes opened from bytes never change.
    /// - Complexity: O(1), one `fstat`.
    public func checkFileUnchanged() throws(IndexFileError) {
        try contents.storage.checkUnchanged()
    }

    /// The size of the file in bytes.
    public var fileByteCount: Int { contents.storage.byteCount }

    /// Whether the file has a population section.
    public var hasPopulation: Bool { contents.populations != nil }
}

/// The validated sections of an open index, shared by every value that reads it.
///
/// Opening checks the header and section table (`IndexHeader`), then lets each section type
/// check itself once (`init(validating:)`, O(1) each but the fold table's fast path of 592 words);
/// after that, every read a section offers for a valid rank, position or entry is in bounds.
/// The values read are still not trusted where a damaged file could make them name something
/// that does not exist: those reads return `nil` or an empty span, and `verify()` finds them.
final class IndexContents: Sendable {
    let storage: IndexFileBytes
    let formatVersion: UInt32
    let storedChecksum: UInt32
    let cityCount: Int
    /// The section table, as validated at open.
    let sectionEntries: [SectionEntry]
    /// `FOLD`: how queries fold.
    let foldTable: FoldTable
    /// The memory of `foldTable`'s fast path (scalars below U+0250), which the table does not retain.
    private let foldFastPathStorage: IndexFileBytes
    /// `CITY`: one record per city, in search order.
    let records: CityRecords
    /// `NAME`: the primary names.
    let names: NameText
    /// `SYMB`: the symbol table the alternate names are coded with.
    let nameSymbols: NameSymbols
    /// `IDIX`: ranks by city id.
    let idIndex: IDIndex
    /// `POPL`, if present: populations in search order.
    let populations: Populations?
    /// `PORD` (present with `POPL`): the city each `NODE` entry stands for in population order.
    let nodeEntryRanks: NodeEntryRanks?
    /// `NODE`: the trie over folded primary names; entry *i* is the city of rank *i*.
    let trie: TrieSection
    /// `WNOD`: the trie over word suffix keys; its entries are `postings`.
    let wordTrie: TrieSection

    /// The trie a search of `matching` walks: `trie` for prefix matching, `wordTrie` for words.
    func trie(for matching: MatchMode) -> TrieSection { matching == .prefix ? trie : wordTrie }
    /// `WPST`: (rank, name slot) per word-trie entry.
    let postings: WordPostings
    /// `ALTN`: each city's alternate names.
    let alternates: AlternateNames
    /// `NTOP`, `WTOP` if present: the top cities of the widest nodes of `NODE` and `WNOD`;
    /// `WALP`: the first cities in alphabetical order of the widest `WNOD` nodes.
    let nodeTopLists: TopLists?
    let wordTopLists: TopLists?
    let wordAlphabeticalLists: TopLists?
    /// `REGN`, if present: the first-level regions and each city's.
    let regions: Regions?
    /// `CTRY`, if present: the countries' names.
    let countryNames: CountryNames?
    /// `GEOK`, if present: the cities as a k-d tree over their coordinates.
    let spatialIndex: SpatialIndex?
    /// The names of the countries and regions, by word key: built by the first qualified query.
    let placeNames = PlaceNameIndex.Cache()

    /// - Complexity: O(1) in the number of cities (O(*f*) for a fold table of *f* entries).
    init(storage: IndexFileBytes) throws(IndexFileError) {
        let file = storage.bytes
        let header = try IndexHeader(reading: file)
        let cityCount = Int(header.cityCount)
        func section(_ kind: SectionKind) throws(IndexFileError) -> ByteView {
            guard let entry = header.section(kind) else { throw .missingSection(kind) }
            // The header checked that every listed section lies inside the file.
            return file.slice(uncheckedOffset: Int(entry.offset), length: Int(entry.byteCount))
        }
        self.storage = storage
        formatVersion = header.formatVersion
        storedChecksum = header.storedChecksum
        self.cityCount = cityCount
        sectionEntries = header.sections
        (foldTable, foldFastPathStorage) = try FoldTable.validating(section(.foldTable))
        records = try CityRecords(validating: section(.cities), cityCount: cityCount)
        names = NameText(validating: try section(.names))
        nameSymbols = try NameSymbols(validating: section(.nameSymbols))
        idIndex = try IDIndex(validating: section(.idIndex), cityCount: cityCount)
        if header.section(.population) != nil {
            populations = try Populations(validating: section(.population), cityCount: cityCount)
            nodeEntryRanks = try NodeEntryRanks(validating: section(.populationOrder), cityCount: cityCount)
        } else {
            (populations, nodeEntryRanks) = (nil, nil)
        }
        trie = try TrieSection(validating: section(.nodes), kind: .nodes, entryCount: cityCount)
        postings = try WordPostings(validating: section(.wordPostings), cityCount: cityCount)
        wordTrie = try TrieSection(validating: section(.wordNodes), kind: .wordNodes, entryCount: postings.postingCount)
        alternates = try AlternateNames(validating: section(.alternateNames), cityCount: cityCount)
        nodeTopLists = try header.section(.nodeTopLists).map { _ throws(IndexFileError) in
            try TopLists(validating: section(.nodeTopLists), kind: .nodeTopLists, cityCount: cityCount)
        }
        wordTopLists = try header.section(.wordTopLists).map { _ throws(IndexFileError) in
            try TopLists(validating: section(.wordTopLists), kind: .wordTopLists, cityCount: cityCount)
        }
        wordAlphabeticalLists = try header.section(.wordAlphabeticalLists).map { _ throws(IndexFileError) in
            try TopLists(validating: section(.wordAlphabeticalLists), kind: .wordAlphabeticalLists, cityCount: cityCount)
        }
        regions = try header.section(.regions).map { _ throws(IndexFileError) in
            try Regions(validating: section(.regions), cityCount: cityCount)
        }
        let countryCount = records.countryCount
        countryNames = try header.section(.countryNames).map { _ throws(IndexFileError) in
            try CountryNames(validating: section(.countryNames), countryCount: countryCount)
        }
        spatialIndex = try header.section(.spatialIndex).map { _ throws(IndexFileError) in
            try SpatialIndex(validating: section(.spatialIndex), cityCount: cityCount)
        }
    }

    /// The city rank `NODE` entry `entry` stands for in population order (itself without
    /// `PORD`); `nil` on a damaged file. O(log of the moved entries).
    @inline(__always)
    func rank(ofNodeEntry entry: Int) -> Int? {
        guard let nodeEntryRanks else { return entry }
        return nodeEntryRanks.rank(ofEntry: entry)
    }

    /// The population population order weighs for `rank`: 0 when unknown or absent. O(1).
    @inline(__always)
    func population(ofRank rank: Int) -> UInt32 { populations?.population(ofRank: rank) ?? 0 }

    /// The place in population order of name `slot` of the city at `rank`. O(1).
    @inline(__always)
    func populationOrderKey(rank: Int, slot: Int, isDemoted: Bool = false, edits: Int = 0) -> PopulationOrderKey {
        PopulationOrderKey(population: population(ofRank: rank), rank: rank, slot: slot, isDemoted: isDemoted, edits: edits)
    }

    /// The UTF-8 of the primary name of the city at `rank`; empty when its record points
    /// outside `NAME` (a damaged file). O(1).
    @inline(__always)
    func primaryName(ofRank rank: Int) -> ByteView { names.name(at: records.nameLocation(ofRank: rank)) }
}
