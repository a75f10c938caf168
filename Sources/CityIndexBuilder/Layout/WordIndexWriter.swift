// WordIndexWriter.swift: the third pass of a build: the word postings sorted into `WNOD` and `WPST`.
import CityIndex

/// One word posting as the build sorts it: `u32` suffix key length, the suffix key, `u32`
/// rank, `u8` demoted, `u16` name slot, `u32` population weight. Sorted by key bytes, then
/// rank, then not demoted first, then slot: a strict total order (a name's suffix keys are
/// distinct, and one (rank, slot) is one name).
enum WordPostingRecord {
    static func encode(suffixKey: ArraySlice<UInt8>, rank: UInt32, slot: UInt16, isDemoted: Bool, weight: UInt32,
                       into record: inout [UInt8]) {
        record.removeAll(keepingCapacity: true)
        record.appendLittleEndian(UInt32(suffixKey.count))
        record.append(contentsOf: suffixKey)
        record.appendLittleEndian(rank)
        record.append(isDemoted ? 1 : 0)
        record.appendLittleEndian(slot)
        record.appendLittleEndian(weight)
    }

    struct Fields {
        let key: UnsafeRawBufferPointer
        let rank: UInt32
        let isDemoted: Bool
        let slot: UInt16
        let weight: UInt32

        init(_ bytes: UnsafeRawBufferPointer) {
            let keyCount = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
            key = UnsafeRawBufferPointer(rebasing: bytes[4 ..< 4 + keyCount])
            rank = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 + keyCount, as: UInt32.self))
            isDemoted = bytes[8 + keyCount] != 0
            slot = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 9 + keyCount, as: UInt16.self))
            weight = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 11 + keyCount, as: UInt32.self))
        }

        var order: PopulationOrderKey { PopulationOrderKey(population: weight, rank: Int(rank), slot: Int(slot), isDemoted: isDemoted) }
    }

    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let first = Fields(a), second = Fields(b)
        let order = compareKeys(first.key, second.key)
        if order != 0 { return order < 0 }
        return (first.rank, first.isDemoted ? 1 : 0, first.slot) < (second.rank, second.isDemoted ? 1 : 0, second.slot)
    }
}

/// Reads the word postings in sorted order, keeps one per (suffix key, city), that of its best
/// name (WORDS.md §3: not demoted first, then the lowest slot), orders each key's postings by
/// population (FORMAT.md §7.7) and writes the `WNOD` trie over the keys and the `WPST` postings.
///
/// Memory: the postings of one key, the trie's open path and the last posting of each city
/// (4 bytes per city, to count distinct cities per node).
struct WordIndexWriter {
    /// A trie leaf whose inline child ref would be larger is stored (`BuildLimits`).
    var largestInlineChildReference = Int(UInt32.max)
    private(set) var keyCount = 0
    private(set) var postingCount = 0
    private(set) var nodeCount = 0

    mutating func write(_ postings: SortedRecords, cityCount: Int, directory: String,
                        add: (SectionKind, Bool, [SectionPart]) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        var trie = TrieSectionWriter(bucketCapacity: IndexLayout.wordBucketCapacity,
                                     shortestBucketParentPath: IndexLayout.wordBucketShortestParentPath, cityCount: cityCount,
                                     largestInlineReference: largestInlineChildReference,
                                     output: try ScratchFile(directory: directory))
        var values = try PackedValuesFile(directory: directory)
        var largestField: UInt64 = 0
        var key: [UInt8] = []
        var group: [PopulationOrderKey] = []
        var lastRank = -1

        func closeGroup() throws(IndexBuildError) {
            group.sort()
            try trie.add(key: key, entryCount: group.count, bestOrder: group[0], cityOfEntry: { group[$0].rank })
            for posting in group {
                let field = UInt64(posting.slot) << 1 | (posting.isDemoted ? 1 : 0)
                largestField = max(largestField, field)
                try values.append(UInt64(posting.rank) << 32 | field)
            }
            group.removeAll(keepingCapacity: true)
        }

        while let bytes = try postings.next() {
            let posting = WordPostingRecord.Fields(bytes)
            if !group.isEmpty, key.withUnsafeBytes({ compareKeys(posting.key, $0) }) == 0 {
                // The same key: a city's later postings (adjacent: the sort puts rank second) lose
                // to its first, its best name.
                if Int(posting.rank) == lastRank { continue }
            } else {
                if !group.isEmpty { try closeGroup() }
                key = Array(posting.key)
            }
            group.append(posting.order)
            lastRank = Int(posting.rank)
        }
        if !group.isEmpty { try closeGroup() }

        let header = try trie.finish()
        keyCount = trie.keyCount
        postingCount = trie.entryCount
        nodeCount = trie.nodeCount
        try add(.wordNodes, true, [.bytes(header), .file(trie.outputFile)])

        let slotWidth = bitWidth(holding: largestField)
        let rankWidth = bitWidth(holding: UInt64(max(cityCount - 1, 0)))
        var bits = try PackedBitsFileWriter(directory: directory)
        try values.forEachValue { value throws(IndexBuildError) in
            try bits.append((value >> 32) << UInt64(slotWidth) | (value & 0xFFFF_FFFF), width: rankWidth + slotWidth)
        }
        try add(.wordPostings, true, [.bytes(PackedBitsFileWriter.arrayHeader(width: rankWidth, secondWidth: slotWidth, count: values.count)),
                                      .file(try bits.finish())])
    }
}
