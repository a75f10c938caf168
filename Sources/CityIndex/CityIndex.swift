// CityIndex.swift: the index type, its stored parts, and opening.

/// A memory-mapped, immutable city index: prefix search over folded names (SEARCH.md) and
/// lookup by id.
///
/// Opening validates the header, the section table, the fold table and the root node:
/// work that does not grow with the number of cities. Deeper damage is caught while
/// searching (every read is bounds-checked and every walk terminates; see `TrieNode`) or by
/// `verify()`, which checks the whole file.
///
/// The value is immutable and `Sendable`: any number of threads may search it at once.
public struct CityIndex: Sendable {
    let contents: IndexContents

    /// Maps the index file at `path` read-only and validates its structure.
    /// - Complexity: O(1) in the number of cities (O(*f*) for a fold table of *f* entries).
    public init(path: String) throws(IndexFileError) {
        contents = try IndexContents(storage: IndexStorage(mappingFileAt: path))
    }

    /// Opens an index from bytes in memory (copied once, aligned for reading).
    public init(bytes: some Collection<UInt8>) throws(IndexFileError) {
        contents = try IndexContents(storage: IndexStorage(copying: bytes))
    }

    /// How many cities the index holds.
    public var cityCount: Int { contents.cityCount }

    /// The format version of the file.
    public var formatVersion: UInt32 { contents.formatVersion }

    /// The size of the file in bytes.
    public var fileByteCount: Int { contents.storage.byteCount }

    /// Whether the file has a population section.
    public var hasPopulation: Bool { contents.population != nil }
}

/// The validated parts of an open index, shared by every value that reads it.
final class IndexContents: Sendable {
    let storage: IndexStorage
    let formatVersion: UInt32
    let storedChecksum: UInt32
    let cityCount: Int
    let foldTable: FoldTable
    /// The `NODE` section, offsets relative to its start.
    let nodes: ByteView
    let root: TrieNode
    /// The `CITY` section: `cityCount` records of 20 bytes, in search order.
    let records: ByteView
    let names: ByteView
    /// The `IDIX` section: `cityCount` ranks sorted by city id.
    let idIndex: ByteView
    /// The `POPL` section, if present: `cityCount` populations in search order.
    let population: ByteView?

    init(storage: IndexStorage) throws(IndexFileError) {
        let file = storage.bytes
        let header = try IndexHeader(reading: file)
        let cityCount = Int(header.cityCount)

        func section(_ kind: SectionKind) throws(IndexFileError) -> ByteView {
            guard let entry = header.section(kind) else { throw .missingSection(kind) }
            return file.slice(offset: Int(entry.offset), length: Int(entry.byteCount))!
        }
        func fixedSizeSection(_ kind: SectionKind, bytesPerCity: Int) throws(IndexFileError) -> ByteView {
            let view = try section(kind)
            let expected = UInt64(cityCount) * UInt64(bytesPerCity)
            guard UInt64(view.count) == expected else {
                throw .sectionSizeMismatch(section: kind, byteCount: UInt64(view.count), expectedByteCount: expected)
            }
            return view
        }

        self.storage = storage
        formatVersion = header.formatVersion
        storedChecksum = header.storedChecksum
        self.cityCount = cityCount
        foldTable = try FoldTable(validating: section(.foldTable))
        records = try fixedSizeSection(.cities, bytesPerCity: IndexLayout.cityRecordByteCount)
        idIndex = try fixedSizeSection(.idIndex, bytesPerCity: 4)
        if header.section(.population) != nil {
            population = try fixedSizeSection(.population, bytesPerCity: 4)
        } else {
            population = nil
        }
        names = try section(.names)
        nodes = try section(.nodes)
        guard let rootOffset = nodes.uint32(at: 0), nodes.count >= IndexLayout.nodeSectionHeaderByteCount else {
            throw .sectionSizeMismatch(section: .nodes, byteCount: UInt64(nodes.count),
                                       expectedByteCount: UInt64(IndexLayout.nodeSectionHeaderByteCount))
        }
        guard Int(rootOffset) >= IndexLayout.nodeSectionHeaderByteCount, Int(rootOffset) < nodes.count else {
            throw .corruptNode(nodeOffset: Int(rootOffset), reason: .invalidRootOffset)
        }
        root = try TrieNode(at: Int(rootOffset), in: nodes, parentFirstRank: 0, parentRanks: 0..<cityCount)
        guard root.firstRank == 0, root.rankCount == cityCount, root.labelTail.count == 0 else {
            throw .corruptNode(nodeOffset: Int(rootOffset),
                               reason: .rankRangeOutsideParent(firstRank: root.firstRank, rankCount: root.rankCount))
        }
    }
}
