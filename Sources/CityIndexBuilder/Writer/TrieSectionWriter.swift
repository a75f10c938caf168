// TrieSectionWriter.swift: encoder twin of TrieSection and TrieNode (FORMAT.md §6): a blind radix trie.
import CityIndex

/// Writes a radix trie (the `NODE` or the `WNOD` section) from its keys given one at a time
/// in increasing byte order, children before parents (post-order), so every child offset is
/// below its parent's (invariant I1). Streaming: memory holds the open path (one node per
/// level of the current key) and, when entries may repeat a city, the last entry of each
/// city; the section's bytes go to a scratch file as they are written.
///
/// Each key owns a run of *entries* (records for `NODE`, postings for `WNOD`), numbered in
/// the order they are added and sorted in population order within the key. A node covers the
/// entries of its subtree, records how many distinct cities they hold and which of them comes
/// first in population order (FORMAT.md §6).
///
/// Distinct cities are counted without revisiting entries: when an entry's city was last
/// seen at entry *p*, the pair is a duplicate in every node that holds both, that is in the
/// deepest open node whose first entry is at most *p* and in all its ancestors; the count is
/// added there and passed up as nodes close.
///
/// Built iteratively from the keys and the lengths of their common prefixes, with an explicit
/// stack of open nodes: no recursion, so a key of any length is safe.
struct TrieSectionWriter {
    /// A node whose subtree is not complete yet.
    private struct OpenNode {
        var depth: Int
        var firstEntry: Int
        var entryEnd: Int
        /// A key of the subtree: its bytes `0 ..< depth` are the node's path.
        var key: [UInt8]
        /// The entry of the subtree that comes first in population order (-1: none yet), and its place.
        var best = -1
        var bestOrder: PopulationOrderKey?
        /// Entries of the subtree whose city an earlier entry of the subtree has.
        var duplicates = 0
        var children: [Child] = []
    }

    /// A child edge: a written node, or (`offset` nil) a bucket to write as a leaf when its
    /// parent is written, or a leaf of one entry, held inline by its parent's ref.
    private struct Child {
        var label: UInt8
        var offset: Int?
        var firstEntry: Int
        var entryEnd: Int
        var best: Int
        var entryCount: Int { entryEnd - firstEntry }
    }

    private let bucketCapacity: Int
    private let header = 8
    private var writer: SpillingByteWriter
    private var stack: [OpenNode]
    private var previousKey: [UInt8] = []
    /// Per city, the last entry added (when entries may repeat a city; `nil`: one per city).
    private var lastEntryOfCity: [Int32]?
    private(set) var nodeCount = 0
    private(set) var keyCount = 0
    private(set) var entryCount = 0

    /// - Parameters:
    ///   - bucketCapacity: most entries a leaf may hold (FORMAT.md §6: a *bucket*, several
    ///     keys' entries of distinct cities); 1 keeps every leaf to one key. Above 1 needs `cityCount`.
    ///   - cityCount: how many cities there are, when several entries may belong to one city.
    init(bucketCapacity: Int = 1, cityCount: Int? = nil, output: ScratchFile) {
        self.bucketCapacity = bucketCapacity
        writer = SpillingByteWriter(file: output, startCount: header)
        stack = [OpenNode(depth: 0, firstEntry: 0, entryEnd: 0, key: [])]
        lastEntryOfCity = cityCount.map { [Int32](repeating: -1, count: $0) }
    }

    /// Adds the next key (greater than every key added before) and its `entryCount` entries,
    /// the first of which comes first in population order at `bestOrder`; `cityOfEntry` gives
    /// each entry's city when entries may repeat a city.
    mutating func add(key: [UInt8], entryCount count: Int, bestOrder: PopulationOrderKey,
                      cityOfEntry: (Int) -> Int = { _ in 0 }) throws(IndexBuildError) {
        let firstEntry = entryCount
        var commonPrefixLength = 0
        if keyCount > 0 {
            let limit = min(previousKey.count, key.count)
            while commonPrefixLength < limit, previousKey[commonPrefixLength] == key[commonPrefixLength] { commonPrefixLength += 1 }
        }
        while stack[stack.count - 1].depth > commonPrefixLength {
            let node = stack.removeLast()
            if stack[stack.count - 1].depth < commonPrefixLength {
                stack.append(OpenNode(depth: commonPrefixLength, firstEntry: node.firstEntry, entryEnd: node.entryEnd, key: node.key))
            }
            try attach(node)
        }
        if key.count == commonPrefixLength {
            // Only the empty key, first in order, ends at an existing node: the root.
            stack[stack.count - 1].entryEnd = firstEntry + count
            stack[stack.count - 1].best = firstEntry
            stack[stack.count - 1].bestOrder = bestOrder
        } else {
            stack.append(OpenNode(depth: key.count, firstEntry: firstEntry, entryEnd: firstEntry + count,
                                  key: key, best: firstEntry, bestOrder: bestOrder))
        }
        if lastEntryOfCity != nil {
            for index in 0 ..< count {
                let entry = firstEntry + index, city = cityOfEntry(index)
                let previous = Int(lastEntryOfCity![city])
                if previous >= 0 {
                    // The deepest open node holding `previous` holds both.
                    var level = stack.count - 1
                    while stack[level].firstEntry > previous { level -= 1 }
                    stack[level].duplicates += 1
                }
                lastEntryOfCity![city] = Int32(truncatingIfNeeded: entry)
            }
        }
        previousKey = key
        keyCount += 1
        entryCount += count
    }

    /// Closes every node and writes the root. Returns the section's first 8 bytes (root
    /// offset, bucket capacity); the rest is in the output file.
    mutating func finish() throws(IndexBuildError) -> [UInt8] {
        while stack.count > 1 { try attach(stack.removeLast()) }
        precondition(stack[0].entryEnd == entryCount, "the trie must cover every entry")
        let rootOffset = try write(stack[0], parentFirstEntry: 0)
        try writer.finish()
        var bytes = ByteWriter(capacity: header)
        // Truncated when the section passes 4 GiB: IndexBuilder then refuses it (BuildLimits).
        bytes.appendUInt32(UInt32(truncatingIfNeeded: rootOffset))
        bytes.appendUInt32(UInt32(bucketCapacity))
        return bytes.bytes
    }

    /// The section's size so far (all of it after `finish`).
    var byteCount: Int { writer.count }

    /// Where the section's bytes after the first 8 go.
    var outputFile: ScratchFile { writer.file }

    private func distinctCities(_ node: OpenNode) -> Int { node.entryEnd - node.firstEntry - node.duplicates }

    private mutating func write(_ node: OpenNode, parentFirstEntry: Int) throws(IndexBuildError) -> Int {
        // Buckets below this node become leaves first (children before parents, I1); a
        // leaf of one entry is not stored at all: its parent's ref holds it (inline).
        var children = node.children
        for index in children.indices where children[index].offset == nil && children[index].entryCount >= 2 {
            let child = children[index]
            children[index].offset = writer.count
            nodeCount += 1
            try writer.appendVarint(UInt32(child.firstEntry - node.firstEntry))
            try writer.appendVarint(UInt32(child.entryCount))
            try writer.appendVarint(0)
            // Its entries are several keys' runs: name the best of them.
            try writer.appendVarint(UInt32(child.best - child.firstEntry))
        }
        nodeCount += children.count { $0.offset == nil }
        let offset = writer.count
        nodeCount += 1
        try writer.appendVarint(UInt32(node.firstEntry - parentFirstEntry))
        let entryCount = node.entryEnd - node.firstEntry
        try writer.appendVarint(UInt32(entryCount))
        guard !children.isEmpty else {
            try writer.appendVarint(0)   // shape: a leaf
            if bucketCapacity > 1 && (2 ... bucketCapacity).contains(entryCount) {
                // A leaf a reader takes for a bucket names its best entry (here: its first).
                try writer.appendVarint(UInt32(max(node.best, node.firstEntry) - node.firstEntry))
            }
            return offset
        }
        // A stored child is referred to by its distance, an inline leaf by its entry.
        let refs = children.map { child in
            child.offset.map { (offset - $0) << 1 } ?? (child.firstEntry - node.firstEntry) << 1 | 1
        }
        let largestRef = refs.max()!
        let width = largestRef < 1 << 8 ? 1 : largestRef < 1 << 16 ? 2 : largestRef < 1 << 24 ? 3 : 4
        try writer.appendVarint(UInt32(((children.count - 1) << 2 | (width - 1)) + 1))
        // The trie is blind: an inner node stores where its path ends, not its label
        // bytes (a search reads them from a key below it). A leaf stores neither path
        // nor summary: it is one key's entries, one per city, best first, or a bucket.
        try writer.appendVarint(UInt32(node.depth))
        try writer.appendVarint(UInt32(entryCount - (lastEntryOfCity == nil ? entryCount : distinctCities(node))))
        try writer.appendVarint(UInt32(max(node.best, node.firstEntry) - node.firstEntry))
        for child in children { try writer.appendUInt8(child.label) }
        // Truncated past 4 bytes (a section over 2 GiB): IndexBuilder refuses the section.
        for ref in refs { try writer.appendLittleEndian(UInt64(truncatingIfNeeded: ref), byteCount: width) }
        return offset
    }

    /// Whether `node`'s subtree fits one bucket: few enough entries, no city twice.
    private func fitsBucket(_ node: OpenNode) -> Bool {
        let entryCount = node.entryEnd - node.firstEntry
        guard bucketCapacity > 1, entryCount <= bucketCapacity, lastEntryOfCity != nil else { return false }
        return distinctCities(node) == entryCount
    }

    /// Writes `node` (or keeps it as a bucket) and records it as the last child of the
    /// node on top of the stack.
    private mutating func attach(_ node: OpenNode) throws(IndexBuildError) {
        let parent = stack[stack.count - 1]
        let isLeafOfOne = node.entryEnd - node.firstEntry == 1 && node.children.isEmpty
        let offset = isLeafOfOne || fitsBucket(node) ? nil : try write(node, parentFirstEntry: parent.firstEntry)
        let label = node.key[parent.depth]
        let top = stack.count - 1
        stack[top].children.append(Child(label: label, offset: offset, firstEntry: node.firstEntry,
                                          entryEnd: node.entryEnd, best: node.best))
        stack[top].entryEnd = node.entryEnd
        stack[top].duplicates += node.duplicates
        if let order = node.bestOrder, stack[top].bestOrder.map({ order < $0 }) ?? true {
            stack[top].best = node.best
            stack[top].bestOrder = order
        }
    }
}
