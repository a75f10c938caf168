// TrieSection.swift: a NODE or WNOD section and its root (FORMAT.md §6).

/// A blind radix-trie section (`NODE` over folded names, `WNOD` over word suffix keys) and
/// its root node, whose entries are `0 ..< entryCount`: city ranks for `NODE`, posting
/// positions for `WNOD`.
///
/// A leaf with at most `bucketCapacity` entries is a **bucket**: the entries of one or more
/// keys, of distinct cities, sorted by key and then in population order. A leaf with more
/// entries holds one key. (`NODE`'s capacity is 1: every leaf is one key.)
///
/// Invariant (checked by `init(validating:kind:entryCount:)`): the root offset lies inside the
/// section after its header, the bucket capacity is 1 for `NODE` and 1…64 for `WNOD`, the
/// rest of the header is a valid `TrieEncoding`, and the root parses, covers every entry and
/// has an empty path. Every other node is checked as a
/// walk reaches it (`TrieNode`).
struct TrieSection {
    let nodes: ByteView
    let root: TrieNode
    let encoding: TrieEncoding
    var bucketCapacity: Int { encoding.bucketCapacity }

    /// - Complexity: O(1).
    init(validating section: ByteView, kind: SectionKind, entryCount: Int) throws(IndexFileError) {
        guard let rootOffset = section.uint32(at: 0), let capacity = section.uint8(at: 4),
              let countWidth = section.uint8(at: 5), let flags = section.uint8(at: 6), let reserved = section.uint8(at: 7),
              section.count >= FormatConstants.nodeSectionHeaderByteCount else {
            throw .sectionSizeMismatch(section: kind, byteCount: UInt64(section.count),
                                       expectedByteCount: UInt64(FormatConstants.nodeSectionHeaderByteCount))
        }
        let validCapacity = kind == .nodes ? 1...1 : 1...UInt8(FormatConstants.maximumBucketCapacity)
        guard validCapacity.contains(capacity) else {
            throw .corruptNode(nodeOffset: 4, reason: .invalidBucketCapacity(Int(capacity)))
        }
        guard reserved == 0, let encoding = TrieEncoding(bucketCapacity: Int(capacity), smallLeafCountWidth: Int(countWidth),
                                                         flags: flags) else {
            throw .corruptNode(nodeOffset: 5, reason: .invalidSectionHeader)
        }
        guard Int(rootOffset) >= FormatConstants.nodeSectionHeaderByteCount, Int(rootOffset) < section.count else {
            throw .corruptNode(nodeOffset: Int(rootOffset), reason: .invalidRootOffset)
        }
        let root = try TrieNode(at: Int(rootOffset), in: section, parentFirstEntry: 0, parentEntries: 0..<entryCount,
                                parentPathLength: -1, encoding: encoding)
        guard root.isLeaf || root.pathLength == 0 else {
            throw .corruptNode(nodeOffset: Int(rootOffset), reason: .pathNotLongerThanParent(pathLength: root.pathLength))
        }
        guard root.firstEntry == 0, root.entryCount == entryCount else {
            throw .corruptNode(nodeOffset: Int(rootOffset),
                               reason: .entryRangeOutsideParent(firstEntry: root.firstEntry, entryCount: root.entryCount))
        }
        nodes = section
        self.root = root
        self.encoding = encoding
    }

    /// Whether `node` is a bucket: a leaf whose entries may belong to several keys.
    @inline(__always)
    func isBucket(_ node: TrieNode) -> Bool { node.isBucket }

    /// Finishes a blind walk (FORMAT.md §6.1): the entries whose key starts with the query, as
    /// the node the walk reached or a part of a bucket, or `nil` when none.
    /// - Parameter startsWithQuery: whether the query starts the key of an entry (folding the
    ///   stored name); called once, or once per entry of a bucket.
    /// - Complexity: O(1) calls of `startsWithQuery`, at most `bucketCapacity` for a bucket.
    func matches(of walk: TrieWalk, startsWithQuery: (Int) -> Bool) -> TrieMatch? {
        let node = walk.node
        guard walk.skippedBytes else { return TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount) }
        guard node.entryCount > 0 else { return nil }
        guard isBucket(node) else {
            return startsWithQuery(node.firstEntry) ? TrieMatch(node: node, entries: node.entries, cityCount: node.cityCount) : nil
        }
        // A bucket's keys are sorted, so the matching entries are contiguous.
        guard let first = node.entries.first(where: startsWithQuery) else { return nil }
        var end = first + 1
        while end < node.entries.upperBound && startsWithQuery(end) { end += 1 }
        let entries = first ..< end
        return TrieMatch(node: entries == node.entries ? node : nil, entries: entries, cityCount: entries.count)
    }
}

/// The entries a search matched in a trie: a whole node's, or part of a bucket's (`node` nil).
struct TrieMatch {
    var node: TrieNode?
    var entries: Range<Int>
    /// Distinct cities among the entries (a bucket's entries are of distinct cities).
    var cityCount: Int
}
