// TrieSection+StructureWalk.swift: one walk over every node of a trie, checking its shape
// (FORMAT.md I1–I3, I6).

extension TrieSection {
    /// Walks every node once (iteratively), checking its structure: child labels increase,
    /// child entry ranges partition their parent's after its own entries, no node is reached
    /// twice, and the node's best entry is the best of its own first entry and its children's.
    /// Works out each node's path (the trie is blind, FORMAT.md §6.1) from the key of its first
    /// entry and checks that it continues its parent's path with the child's label. Calls
    /// `visit` with each node, its path (for a leaf: the whole key; for a bucket: its parent's
    /// path and label, which its entries' keys start with) and its own entries.
    ///
    /// - Parameters:
    ///   - precedes: population order of two entries.
    ///   - keysOfEntry: the keys an entry may stand for: the one folded name of a `NODE`
    ///     entry, every suffix key of the name of a `WNOD` posting. The node's path is the
    ///     one that starts with the parent's path and the label, which must be unambiguous.
    ///   - disagreement: the error for an entry whose keys do not fit the trie.
    /// - Complexity: O(nodes + path bytes + key bytes of each node's first entry); one bit
    ///   per section byte.
    func walkCheckingStructure(precedes: (Int, Int) -> Bool,
                               keysOfEntry: (Int) -> [[UInt8]],
                               disagreement: (Int) -> IndexFileError,
                               visit: (TrieNode, [UInt8], Range<Int>) throws(IndexFileError) -> Void) throws(IndexFileError) {
        var visited = [UInt64](repeating: 0, count: nodes.count / 64 + 1)
        var path: [UInt8] = []
        // Pending nodes: where to find them, and the path length and byte that lead to them.
        var pending: [(node: TrieNode, pathLength: Int, label: UInt8?)] = [(root, 0, nil)]
        while let (node, pathLength, label) = pending.popLast() {
            // An inline leaf exists only in its parent's ref: it cannot be reached twice.
            if !node.isInline {
                let bit = node.offset
                guard visited[bit / 64] & (1 << UInt64(bit % 64)) == 0 else {
                    throw .corruptNode(nodeOffset: node.offset, reason: .reachedTwice)
                }
                visited[bit / 64] |= 1 << UInt64(bit % 64)
            }
            path.removeSubrange(pathLength...)
            if let label { path.append(label) }
            // A bucket's entries have different keys: its path is what leads to it.
            if node.entryCount > 0 && !isBucket(node) {
                path = try Self.path(of: node, continuing: path, keys: keysOfEntry(node.firstEntry),
                                     disagreement: disagreement(node.firstEntry))
            }

            var children: [TrieNode] = []
            children.reserveCapacity(node.childCount)
            for index in 0..<node.childCount {
                if index > 0 && node.childLabel(at: index, in: nodes) <= node.childLabel(at: index - 1, in: nodes) {
                    throw .corruptNode(nodeOffset: node.offset, reason: .childLabelsNotIncreasing)
                }
                children.append(try node.child(at: index, in: nodes))
            }
            var entryEnd = node.entries.upperBound
            for child in children.reversed() {
                guard child.entries.upperBound == entryEnd, child.entryCount > 0 else {
                    throw .corruptNode(nodeOffset: child.byteOffset,
                                       reason: .entryRangeOutsideParent(firstEntry: child.firstEntry, entryCount: child.entryCount))
                }
                entryEnd = child.firstEntry
            }
            let own = node.firstEntry ..< entryEnd
            // On ties the earliest entry is the best: own entries come before the children's.
            // A bucket is not in population order: its stored best entry must be the best of all.
            let candidates = isBucket(node) ? Array(node.entries) : (own.isEmpty ? [] : [own.lowerBound]) + children.map(\.bestEntry)
            if let best = candidates.min(by: precedes), best != node.bestEntry {
                throw .invariantViolated(.nodeSummaryWrong(nodeOffset: node.offset))
            }
            try visit(node, path, own)
            let childPathLength = path.count
            for (index, child) in children.enumerated().reversed() {
                pending.append((child, childPathLength, node.childLabel(at: index, in: nodes)))
            }
        }
    }

    /// The path of `node` whose parent's path followed by the node's label is `prefix`: the
    /// first `node.pathLength` bytes (for a leaf: all) of the one key in `keys` that starts
    /// with `prefix`. Throws `disagreement` when no key fits, or several that differ there.
    private static func path(of node: TrieNode, continuing prefix: [UInt8], keys: [[UInt8]],
                             disagreement: IndexFileError) throws(IndexFileError) -> [UInt8] {
        var path: [UInt8]?
        for key in keys where key.starts(with: prefix) && (node.isLeaf || key.count >= node.pathLength) {
            let candidate = node.isLeaf ? key : Array(key[0 ..< node.pathLength])
            guard path == nil || path == candidate else { throw disagreement }
            path = candidate
        }
        guard let path else { throw disagreement }
        return path
    }
}
