// WordIndexPass.swift: the third pass of a build: the word postings sorted into `WNOD` and `WPST`.
import CityIndex

/// Reads the word postings in sorted order, keeps one per (suffix key, city), that of its best
/// name (WORDS.md §3: not demoted first, then the lowest slot), orders each key's postings by
/// population (FORMAT.md §7.7) and writes the `WNOD` trie over the keys and the `WPST` postings.
///
/// Memory: the postings of one key, the trie's open path and the last posting of each city
/// (4 bytes per city, to count distinct cities per node).
struct WordIndexPass {
    /// A trie leaf whose inline child ref would be larger is stored (`BuildLimits`).
    var largestInlineChildReference = Int(UInt32.max)
    private(set) var keyCount = 0
    private(set) var postingCount = 0
    private(set) var nodeCount = 0

    mutating func write(_ postings: SortedRecords, cityCount: Int, directory: String,
                        add: (SectionKind, Bool, [SectionPart]) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        var trie = TrieSectionWriter(bucketCapacity: FormatConstants.wordBucketCapacity,
                                     shortestBucketParentPath: FormatConstants.wordBucketShortestParentPath, cityCount: cityCount,
                                     largestInlineReference: largestInlineChildReference,
                                     output: try ScratchFile(directory: directory))
        var postingsWriter = try WordPostingsWriter(directory: directory)
        var key: [UInt8] = []
        var group: [PopulationOrderKey] = []
        var lastRank = -1

        func closeGroup() throws(IndexBuildError) {
            group.sort()
            try trie.add(key: key, entryCount: group.count, bestOrder: group[0], cityOfEntry: { group[$0].rank })
            for posting in group { try postingsWriter.add(posting) }
            group.removeAll(keepingCapacity: true)
        }

        while let bytes = try postings.next() {
            let posting = WordPostingBlob.Fields(bytes)
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

        try add(.wordPostings, true, try postingsWriter.finish(cityCount: cityCount))
    }
}
