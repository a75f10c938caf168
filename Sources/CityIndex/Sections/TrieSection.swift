// TrieSection.swift: a NODE or WNOD section and its root (FORMAT.md §6).

/// A radix-trie section (`NODE` over folded names, `WNOD` over word suffix keys) and its
/// root node, whose entries are `0 ..< entryCount`: city ranks for `NODE`, posting positions
/// for `WNOD`.
///
/// Invariant (checked by `init(validating:kind:entryCount:)`): the root offset lies inside the
/// section after its header, and the root parses, covers every entry and has an empty path.
/// Every other node is checked as a walk reaches it (`TrieNode`).
struct TrieSection {
    let nodes: ByteView
    let root: TrieNode

    /// - Complexity: O(1).
    init(validating section: ByteView, kind: SectionKind, entryCount: Int) throws(IndexFileError) {
        guard let rootOffset = section.uint32(at: 0), section.count >= IndexLayout.nodeSectionHeaderByteCount else {
            throw .sectionSizeMismatch(section: kind, byteCount: UInt64(section.count),
                                       expectedByteCount: UInt64(IndexLayout.nodeSectionHeaderByteCount))
        }
        guard Int(rootOffset) >= IndexLayout.nodeSectionHeaderByteCount, Int(rootOffset) < section.count else {
            throw .corruptNode(nodeOffset: Int(rootOffset), reason: .invalidRootOffset)
        }
        let root = try TrieNode(at: Int(rootOffset), in: section, parentFirstEntry: 0, parentEntries: 0..<entryCount,
                                parentPathLength: -1)
        guard root.isLeaf || root.pathLength == 0 else {
            throw .corruptNode(nodeOffset: Int(rootOffset), reason: .pathNotLongerThanParent(pathLength: root.pathLength))
        }
        guard root.firstEntry == 0, root.entryCount == entryCount else {
            throw .corruptNode(nodeOffset: Int(rootOffset),
                               reason: .entryRangeOutsideParent(firstEntry: root.firstEntry, entryCount: root.entryCount))
        }
        nodes = section
        self.root = root
    }
}
