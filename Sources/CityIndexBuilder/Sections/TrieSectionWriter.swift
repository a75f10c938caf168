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

    /// A child edge: a written node, or (`offset` nil) a leaf its parent writes: inline in
    /// its child ref (always for one entry; for a few, when that takes fewer bytes), or
    /// stored just before the parent.
    private struct Child {
        var label: UInt8
        var offset: Int?
        var firstEntry: Int
        var entryEnd: Int
        var best: Int
        var entryCount: Int { entryEnd - firstEntry }
    }

    private let encoding: TrieEncoding
    private let largestInlineReference: Int
    private var bucketCapacity: Int { encoding.bucketCapacity }
    private let shortestBucketParentPath: Int
    private let header = FormatConstants.nodeSectionHeaderByteCount
    private var writer: SpillingByteBuffer
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
    ///   - shortestBucketParentPath: a subtree becomes a bucket only when its parent's path
    ///     is at least this many bytes long; above, it is written node by node.
    ///   - cityCount: how many cities there are, when several entries may belong to one city
    ///     (the nodes then store how many entries repeat a city).
    ///   - storesBestDelta: whether the nodes name their best entry in population order;
    ///     `false` only when population order is entry order (no populations, one entry per city).
    ///   - largestInlineReference: a leaf whose inline child ref would be larger is stored.
    init(bucketCapacity: Int = 1, shortestBucketParentPath: Int = 0, cityCount: Int? = nil,
         storesBestDelta: Bool = true, largestInlineReference: Int = Int(UInt32.max), output: ScratchFile) {
        // Small inline leaves: every bucket (2 … capacity entries), or, in a trie of one key
        // per leaf, leaves of 2 or 3 entries (names that 2 or 3 cities share).
        let countWidth = bucketCapacity > 2 ? bitWidth(holding: UInt64(bucketCapacity - 2)) : 1
        let flags = (cityCount == nil ? 0 : TrieEncoding.repeatCountFlag) | (storesBestDelta ? TrieEncoding.bestDeltaFlag : 0)
        encoding = TrieEncoding(bucketCapacity: bucketCapacity, smallLeafCountWidth: countWidth, flags: flags)!
        precondition(encoding.largestSmallLeaf >= bucketCapacity, "every bucket must fit a small inline leaf")
        self.largestInlineReference = largestInlineReference
        self.shortestBucketParentPath = shortestBucketParentPath
        writer = SpillingByteBuffer(file: output, startCount: header)
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
    /// offset, bucket capacity, small-leaf count width, flags, reserved); the rest is in the
    /// output file.
    mutating func finish() throws(IndexBuildError) -> [UInt8] {
        while stack.count > 1 { try attach(stack.removeLast()) }
        precondition(stack[0].entryEnd == entryCount, "the trie must cover every entry")
        let rootOffset = try write(stack[0], parentFirstEntry: 0)
        try writer.finish()
        var bytes = ByteBuffer(capacity: header)
        // Truncated when the section passes 4 GiB: IndexBuilder then refuses it (BuildLimits).
        bytes.appendUInt32(UInt32(truncatingIfNeeded: rootOffset))
        bytes.appendUInt8(UInt8(bucketCapacity))
        bytes.appendUInt8(UInt8(encoding.smallLeafCountWidth))
        bytes.appendUInt8(encoding.flags)
        bytes.appendUInt8(0)
        return bytes.bytes
    }

    /// The section's size so far (all of it after `finish`).
    var byteCount: Int { writer.count }

    /// Where the section's bytes after the first 8 go.
    var outputFile: ScratchFile { writer.file }

    private func distinctCities(_ node: OpenNode) -> Int { node.entryEnd - node.firstEntry - node.duplicates }

    /// Whether a leaf of `entryCount` entries names its best one: a bucket of several entries
    /// (not in population order), when the section stores best entries.
    private func namesBest(entryCount: Int) -> Bool {
        encoding.storesBestDelta && bucketCapacity > 1 && (2 ... bucketCapacity).contains(entryCount)
    }

    /// The bytes of `leaf`, a child of the node whose first entry is `parentFirstEntry`, stored.
    private func storedLeafByteCount(_ leaf: Child, parentFirstEntry: Int) -> Int {
        varintByteCount(leaf.firstEntry - parentFirstEntry) + varintByteCount(leaf.entryCount) + 1
            + (namesBest(entryCount: leaf.entryCount) ? varintByteCount(max(leaf.best, leaf.firstEntry) - leaf.firstEntry) : 0)
    }

    /// The child refs of `node` written at `offset` (FORMAT.md §6): a stored child by its
    /// distance, any other (a leaf of one entry or a few) inline.
    private func childRefs(_ node: OpenNode, _ children: [Child], offset: Int) -> [Int] {
        children.map { child in child.offset.map { (offset - $0) << 1 } ?? inlineRef(of: child, below: node) }
    }

    /// The ref that holds `child`, a leaf of one entry or a few, inline in `node`.
    private func inlineRef(of child: Child, below node: OpenNode) -> Int {
        let entryDelta = child.firstEntry - node.firstEntry
        if child.entryCount == 1 { return entryDelta << 2 | 1 }
        return encoding.smallLeafRef(entryDelta: entryDelta, entryCount: child.entryCount,
                                     bestDelta: max(child.best, child.firstEntry) - child.firstEntry)
    }

    private static func refWidth(_ refs: [Int]) -> Int {
        let largestRef = refs.max()!
        return largestRef < 1 << 8 ? 1 : largestRef < 1 << 16 ? 2 : largestRef < 1 << 24 ? 3 : 4
    }

    private mutating func write(_ node: OpenNode, parentFirstEntry: Int) throws(IndexBuildError) -> Int {
        // Leaves of several entries below this node are held inline by its refs when that
        // takes fewer bytes (their count and best entry widen every ref of the node), else
        // stored just before it (children before parents, I1). A leaf of one entry is
        // inline. A leaf whose inline ref would not fit 4 bytes (far from the node's first
        // entry, in a trie of hundreds of millions of entries) is stored.
        var children = node.children
        let kept = children.indices.filter { children[$0].offset == nil }
        let tooFar = Set(kept.filter { inlineRef(of: children[$0], below: node) > largestInlineReference })
        let small = Set(kept.filter { children[$0].entryCount >= 2 && !tooFar.contains($0) })
        func storing(_ leaves: [Int]) -> (children: [Child], refs: [Int], leafBytes: Int) {
            var stored = children
            var offset = writer.count
            for index in leaves {
                stored[index].offset = offset
                offset += storedLeafByteCount(children[index], parentFirstEntry: node.firstEntry)
            }
            return (stored, childRefs(node, stored, offset: offset), offset - writer.count)
        }
        let inline = storing(kept.filter(tooFar.contains))
        let stored = storing(kept.filter { tooFar.contains($0) || small.contains($0) })
        let storesSmall = !small.isEmpty && stored.leafBytes + children.count * Self.refWidth(stored.refs)
            < inline.leafBytes + children.count * Self.refWidth(inline.refs)
        let chosen = storesSmall ? stored : inline
        for index in kept where chosen.children[index].offset != nil {
            let child = children[index]
            nodeCount += 1
            try writer.appendVarint(UInt32(child.firstEntry - node.firstEntry))
            try writer.appendVarint(UInt32(child.entryCount))
            try writer.appendVarint(0)
            if namesBest(entryCount: child.entryCount) {
                // Its entries are several keys' runs: name the best of them.
                try writer.appendVarint(UInt32(max(child.best, child.firstEntry) - child.firstEntry))
            }
        }
        children = chosen.children
        let refs = chosen.refs
        nodeCount += children.count { $0.offset == nil }
        let offset = writer.count
        nodeCount += 1
        try writer.appendVarint(UInt32(node.firstEntry - parentFirstEntry))
        let entryCount = node.entryEnd - node.firstEntry
        try writer.appendVarint(UInt32(entryCount))
        guard !children.isEmpty else {
            try writer.appendVarint(0)   // shape: a leaf
            if namesBest(entryCount: entryCount) {
                // A leaf a reader takes for a bucket names its best entry (here: its first).
                try writer.appendVarint(UInt32(max(node.best, node.firstEntry) - node.firstEntry))
            }
            return offset
        }
        let width = Self.refWidth(refs)
        try writer.appendVarint(UInt32(((children.count - 1) << 2 | (width - 1)) + 1))
        // The trie is blind: an inner node stores where its path ends, not its label
        // bytes (a search reads them from a key below it). A leaf stores neither path
        // nor summary: it is one key's entries, one per city, best first, or a bucket.
        try writer.appendVarint(UInt32(node.depth))
        if encoding.storesRepeatCount {
            try writer.appendVarint(UInt32(entryCount - (lastEntryOfCity == nil ? entryCount : distinctCities(node))))
        }
        if encoding.storesBestDelta {
            try writer.appendVarint(UInt32(max(node.best, node.firstEntry) - node.firstEntry))
        }
        for child in children { try writer.appendUInt8(child.label) }
        // Truncated past 4 bytes (a section over 2 GiB): IndexBuilder refuses the section.
        for ref in refs { try writer.appendLittleEndian(UInt64(truncatingIfNeeded: ref), byteCount: width) }
        return offset
    }

    /// Whether `node`'s subtree, a child of a node whose path is `parentPath` bytes long,
    /// becomes one bucket: few enough entries, no city twice, a parent path long enough.
    private func fitsBucket(_ node: OpenNode, parentPath: Int) -> Bool {
        let entryCount = node.entryEnd - node.firstEntry
        guard bucketCapacity > 1, entryCount <= bucketCapacity, parentPath >= shortestBucketParentPath,
              lastEntryOfCity != nil else { return false }
        return distinctCities(node) == entryCount
    }

    /// Writes `node` (or keeps it as a bucket) and records it as the last child of the
    /// node on top of the stack.
    private mutating func attach(_ node: OpenNode) throws(IndexBuildError) {
        let parent = stack[stack.count - 1]
        // A leaf of one key small enough to be inline, or a subtree that fits a bucket, is
        // written by its parent.
        let isSmallLeaf = node.children.isEmpty && node.entryEnd - node.firstEntry <= encoding.largestSmallLeaf
        let offset = isSmallLeaf || fitsBucket(node, parentPath: parent.depth) ? nil : try write(node, parentFirstEntry: parent.firstEntry)
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
