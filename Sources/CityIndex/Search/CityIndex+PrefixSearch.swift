// CityIndex+PrefixSearch.swift: search(_:) and the trie walk.

extension CityIndex {
    /// Returns the cities whose folded name starts with the folded `query` (SEARCH.md §2),
    /// in search order (§3). Leading whitespace of the query is ignored, trailing whitespace
    /// is kept; the empty query matches every city.
    ///
    /// Never traps on a damaged file: every read is bounds-checked, and every step moves to
    /// a node at a strictly smaller offset (FORMAT.md I1).
    ///
    /// - Complexity: O(*m*): *m* = the folded query's length in bytes, independent of the
    ///   number of cities and of matches. Allocates nothing.
    /// - Throws: `IndexFileError.corruptNode` when the walk meets a damaged node.
    public func search(_ query: String) throws(IndexFileError) -> CityMatches {
        let (node, foldedScalarCount) = try prefixNode(for: query)
        let ranks = node?.entries ?? 0..<0
        return CityMatches(contents: contents, storage: .ranks(ranks), query: .prefix(foldedScalarCount: foldedScalarCount),
                           totalCount: ranks.count)
    }

    /// Walks the `NODE` trie with the folded query (SEARCH.md §2). Returns the node below
    /// which the matching cities lie (`nil` when none match) and the folded query's length in
    /// scalars (for highlights). O(*m*), allocates nothing.
    func prefixNode(for query: String) throws(IndexFileError) -> (node: TrieNode?, foldedScalarCount: Int) {
        var walk = TrieWalk(nodes: contents.trie.nodes, node: contents.trie.root)
        var foldedScalarCount = 0
        let foldTable = contents.foldTable
        for scalar in query.scalarsAfterLeadingWhiteSpace {
            let matched = foldTable.withFoldedUTF8(of: scalar) { bytes in
                for byte in bytes {
                    if byte & 0xC0 != 0x80 { foldedScalarCount += 1 }
                    if !walk.advance(by: byte) { return false }
                }
                return true
            }
            if !matched {
                if let error = walk.error { throw error }
                return (nil, foldedScalarCount)
            }
        }
        return (walk.node, foldedScalarCount)
    }
}

/// A position in the trie: a node, and how much of its label tail has been matched.
struct TrieWalk {
    let nodes: ByteView
    private(set) var node: TrieNode
    private var labelPosition = 0
    /// Set when a step met a damaged node.
    private(set) var error: IndexFileError?

    init(nodes: ByteView, node: TrieNode) {
        self.nodes = nodes
        self.node = node
    }

    /// Moves one folded byte deeper. Returns false when no key continues with `byte`
    /// (or the node is damaged, which sets `error`). O(1).
    @inline(__always)
    mutating func advance(by byte: UInt8) -> Bool {
        if labelPosition < node.labelTail.count {
            guard node.labelTail.uint8(at: labelPosition) == byte else { return false }
            labelPosition += 1
            return true
        }
        do {
            guard let child = try node.child(startingWith: byte, in: nodes) else { return false }
            node = child
            labelPosition = 0
            return true
        } catch {
            self.error = error
            return false
        }
    }
}
