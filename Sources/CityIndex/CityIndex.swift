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
    /// The `PORD` section (present with `POPL`) after its header: `movedEntryCount` sorted
    /// positions of `NODE` entries, then the ranks they stand for in population order.
    let populationOrder: ByteView?
    let movedEntryCount: Int
    /// The `WNOD` section and its root: the trie over word suffix keys.
    let wordNodes: ByteView
    let wordRoot: TrieNode
    /// The `WPST` postings (after the section header): `postingCount` of `postingByteCount`
    /// bytes, packed with `slotBitCount` bits of slot when 4 bytes.
    let postings: ByteView
    let postingCount: Int
    let postingByteCount: Int
    let slotBitCount: Int
    /// The `ALTN` section: the header, `cityCount + 1` offsets into the text, then the text:
    /// each city's alternate names as (length varint, UTF-8) runs.
    let alternates: ByteView
    /// The text part of `ALTN`.
    let alternateText: ByteView

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
        if header.section(.population) != nil {
            let order = try section(.populationOrder)
            let moved = Int(order.uint32(at: 0) ?? 0)
            let expected = 8 + UInt64(moved) * 8
            guard UInt64(order.count) == expected, moved <= cityCount else {
                throw .sectionSizeMismatch(section: .populationOrder, byteCount: UInt64(order.count), expectedByteCount: expected)
            }
            populationOrder = order.slice(offset: 8, length: moved * 8)!
            movedEntryCount = moved
        } else {
            populationOrder = nil
            movedEntryCount = 0
        }
        names = try section(.names)
        nodes = try section(.nodes)
        root = try Self.root(of: nodes, kind: .nodes, entryCount: cityCount)

        let postingSection = try section(.wordPostings)
        let slotBitCount = Int(postingSection.uint8(at: 0) ?? 0)
        let postingByteCount = Int(postingSection.uint8(at: 1) ?? 0)
        let validWidth = postingByteCount == IndexLayout.packedPostingByteCount ? slotBitCount <= 16
            : postingByteCount == IndexLayout.widePostingByteCount && slotBitCount == 16
        guard postingSection.count >= IndexLayout.postingHeaderByteCount, validWidth,
              (postingSection.count - IndexLayout.postingHeaderByteCount) % postingByteCount == 0 else {
            let entries = max(0, postingSection.count - IndexLayout.postingHeaderByteCount) / max(postingByteCount, 1)
            throw .sectionSizeMismatch(section: .wordPostings, byteCount: UInt64(postingSection.count),
                                       expectedByteCount: UInt64(IndexLayout.postingHeaderByteCount + entries * max(postingByteCount, 4)))
        }
        postings = postingSection.slice(offset: IndexLayout.postingHeaderByteCount,
                                        length: postingSection.count - IndexLayout.postingHeaderByteCount)!
        self.slotBitCount = slotBitCount
        self.postingByteCount = postingByteCount
        postingCount = postings.count / postingByteCount
        wordNodes = try section(.wordNodes)
        wordRoot = try Self.root(of: wordNodes, kind: .wordNodes, entryCount: postingCount)

        alternates = try section(.alternateNames)
        let textByteCount = UInt64(alternates.uint32(at: 0) ?? 0)
        let textStart = IndexLayout.alternateHeaderByteCount + (cityCount + 1) * 4
        let expected = UInt64(textStart) + textByteCount
        guard UInt64(alternates.count) == expected else {
            throw .sectionSizeMismatch(section: .alternateNames, byteCount: UInt64(alternates.count), expectedByteCount: expected)
        }
        alternateText = alternates.slice(offset: textStart, length: Int(textByteCount))!
    }

    /// The root node of a trie section, which must cover all its `entryCount` entries. O(1).
    private static func root(of nodes: ByteView, kind: SectionKind, entryCount: Int) throws(IndexFileError) -> TrieNode {
        guard let rootOffset = nodes.uint32(at: 0), nodes.count >= IndexLayout.nodeSectionHeaderByteCount else {
            throw .sectionSizeMismatch(section: kind, byteCount: UInt64(nodes.count),
                                       expectedByteCount: UInt64(IndexLayout.nodeSectionHeaderByteCount))
        }
        guard Int(rootOffset) >= IndexLayout.nodeSectionHeaderByteCount, Int(rootOffset) < nodes.count else {
            throw .corruptNode(nodeOffset: Int(rootOffset), reason: .invalidRootOffset)
        }
        let root = try TrieNode(at: Int(rootOffset), in: nodes, parentFirstRank: 0, parentRanks: 0..<entryCount)
        guard root.firstRank == 0, root.rankCount == entryCount, root.labelTail.count == 0 else {
            throw .corruptNode(nodeOffset: Int(rootOffset),
                               reason: .rankRangeOutsideParent(firstRank: root.firstRank, rankCount: root.rankCount))
        }
        return root
    }

    /// The city rank and name slot of posting `position` (in `0 ..< postingCount`), or `nil`
    /// when a damaged file names a city that does not exist. O(1).
    @inline(__always)
    func posting(at position: Int) -> (rank: Int, slot: Int)? {
        let offset = position * postingByteCount
        let rank: Int, slot: Int
        if postingByteCount == IndexLayout.packedPostingByteCount {
            guard let packed = postings.uint32(at: offset) else { return nil }
            rank = Int(packed >> UInt32(slotBitCount))
            slot = Int(packed & ((1 << UInt32(slotBitCount)) - 1))
        } else {
            guard let wideRank = postings.uint32(at: offset), let wideSlot = postings.uint16(at: offset + 4) else { return nil }
            (rank, slot) = (Int(wideRank), Int(wideSlot))
        }
        guard rank < cityCount else { return nil }
        return (rank, slot)
    }

    /// The city rank of `NODE` entry `position` in population order: the rank `PORD` gives
    /// it, else `position` itself. `nil` on a damaged file. O(log of the moved entries).
    @inline(__always)
    func rankOfNodeEntry(_ position: Int) -> Int? {
        guard let populationOrder else { return position }
        // Binary search among the moved positions; any other position stands for itself.
        var low = 0, high = movedEntryCount
        while low < high {
            let middle = (low + high) / 2
            let moved = Int(populationOrder.uint32(at: middle * 4)!)
            if moved < position { low = middle + 1 } else if moved > position { high = middle } else {
                let rank = Int(populationOrder.uint32(at: (movedEntryCount + middle) * 4)!)
                return rank < cityCount ? rank : nil
            }
        }
        return position
    }

    /// The population of `rank` for population order: 0 when unknown or absent.
    @inline(__always)
    func population(ofRank rank: Int) -> UInt32 {
        guard let population, let value = population.uint32(at: rank * 4), value != IndexLayout.unknownPopulation else { return 0 }
        return value
    }

    /// The bytes of `ALTN`'s text holding the alternate names of the city at `rank`; empty
    /// on a damaged table. O(1).
    func alternateBlock(ofRank rank: Int) -> ByteView {
        let base = IndexLayout.alternateHeaderByteCount
        guard let first = alternates.uint32(at: base + rank * 4), let end = alternates.uint32(at: base + rank * 4 + 4),
              first <= end, let block = alternateText.slice(offset: Int(first), length: Int(end - first)) else {
            return ByteView(base: alternateText.base, count: 0)
        }
        return block
    }

    /// Calls `body` with each alternate name of the city at `rank` (slots 1, 2, …) until it
    /// returns false. Stops at the first malformed entry (a damaged file). O(block size).
    func forEachAlternate(ofRank rank: Int, _ body: (_ slot: Int, _ name: ByteView) -> Bool) {
        let block = alternateBlock(ofRank: rank)
        var offset = 0
        var slot = 1
        while offset < block.count {
            guard let (length, next) = block.varint(at: offset), let name = block.slice(offset: next, length: Int(length)) else { return }
            guard body(slot, name) else { return }
            offset = next + Int(length)
            slot += 1
        }
    }

    /// The bytes of name `slot` of the city at `rank`: 0 is the primary name, 1... its
    /// alternates. Empty when the slot does not exist (a damaged file).
    /// - Complexity: O(1) for the primary name, O(size of the city's alternates) otherwise.
    func nameBytes(ofRank rank: Int, slot: Int) -> ByteView {
        if slot == 0 { return City(contents: self, rank: rank).nameBytes }
        var found = ByteView(base: alternateText.base, count: 0)
        forEachAlternate(ofRank: rank) { index, name in
            if index == slot { found = name }
            return index < slot
        }
        return found
    }

    /// How many alternate names the city at `rank` has. O(size of its alternates).
    func alternateCount(ofRank rank: Int) -> Int {
        var count = 0
        forEachAlternate(ofRank: rank) { _, _ in
            count += 1
            return true
        }
        return count
    }
}
