// TrieSection+StructureWalk.swift: one walk over every node of a trie, checking its shape
// (FORMAT.md I1–I3, I6).

extension TrieSection {
    /// Walks every node once (iteratively), checking its structure: child labels increase,
    /// child entry ranges partition their parent's after its own entries, no node is reached
    /// twice, and the node's best entry is the best of its own first entry and its children's.
    /// Calls `visit` with each node, its path (the key it spells) and its own entries.
    ///
    /// - Parameter precedes: population order of two entries.
    /// - Complexity: O(nodes + path bytes); one bit per section byte.
    func walkCheckingStructure(precedes: (Int, Int) -> Bool,
                               visit: (TrieNode, [UInt8], Range<Int>) throws(IndexFileError) -> Void) throws(IndexFileError) {
        var visited = [UInt64](repeating: 0, count: nodes.count / 64 + 1)
        var path: [UInt8] = []
        // Pending nodes: where to find them, and the path length and byte that lead to them.
        var pending: [(node: TrieNode, pathLength: Int, label: UInt8?)] = [(root, 0, nil)]
        while let (node, pathLength, label) = pending.popLast() {
            let bit = node.offset
            guard visited[bit / 64] & (1 << UInt64(bit % 64)) == 0 else {
                throw .corruptNode(nodeOffset: node.offset, reason: .reachedTwice)
            }
            visited[bit / 64] |= 1 << UInt64(bit % 64)
            path.removeSubrange(pathLength...)
            if let label { path.append(label) }
            path.append(contentsOf: node.labelTail.buffer)

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
                    throw .corruptNode(nodeOffset: child.offset,
                                       reason: .entryRangeOutsideParent(firstEntry: child.firstEntry, entryCount: child.entryCount))
                }
                entryEnd = child.firstEntry
            }
            let own = node.firstEntry ..< entryEnd
            // On ties the earliest entry is the best: own entries come before the children's.
            let candidates = (own.isEmpty ? [] : [own.lowerBound]) + children.map(\.bestEntry)
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
}
