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
        try Self.checkLength(of: query)
        let (match, foldedScalarCount) = try prefixMatch(for: query)
        let ranks = match?.entries ?? 0..<0
        contents.prefetchFirstMatches(ranks)
        return CityMatches(SearchCandidates(contents: contents, storage: .ranks(ranks), query: .prefix(foldedScalarCount: foldedScalarCount),
                                            totalCount: ranks.count))
    }

    /// Walks the `NODE` trie with the folded query (SEARCH.md §2). Returns the cities that
    /// match (`nil` when none do) and the folded query's length in scalars (for highlights);
    /// counts the walk in `meter`.
    /// O(*m*), allocates nothing.
    ///
    /// The trie is blind (FORMAT.md §6.1): the walk branches on the query bytes at the nodes'
    /// path ends and skips the others, then, if it skipped any, compares the whole query with
    /// the key of one city below the node it reached. Every key below a node shares the node's
    /// path, so that one comparison decides for all of them.
    func prefixMatch(for query: String, meter: SearchMeter? = nil) throws(IndexFileError) -> (match: TrieMatch?, foldedScalarCount: Int) {
        var walk = TrieWalk(nodes: contents.trie.nodes, node: contents.trie.root)
        defer { meter?.countWalk(visiting: walk.visitedNodeCount) }
        var foldedScalarCount = 0
        var folded = ShortBytes()
        let foldTable = contents.foldTable
        for scalar in query.scalarsAfterLeadingWhiteSpace {
            if scalar.value < 0x80, let byte = foldTable.singleByteFold(ofASCII: UInt8(scalar.value)) {
                // Fast path: most query scalars are ASCII folding to one byte.
                foldedScalarCount += 1
                folded.append(byte)
                if walk.advance(by: byte) { continue }
                if let error = walk.error { throw error }
                return (nil, foldedScalarCount)
            }
            let matched = foldTable.withFoldedUTF8(of: scalar) { bytes in
                for byte in bytes {
                    if byte & 0xC0 != 0x80 { foldedScalarCount += 1 }
                    folded.append(byte)
                    if !walk.advance(by: byte) { return false }
                }
                return true
            }
            if !matched {
                if let error = walk.error { throw error }
                return (nil, foldedScalarCount)
            }
        }
        let match = contents.trie.matches(of: walk) { [contents] rank in contents.withName(ofRank: rank, slot: 0) { name in
            var key = FoldedBytes(of: name, table: foldTable)
            if let count = folded.count {
                // The usual case: the folded query was kept while walking.
                for index in 0 ..< count where key.next() != folded[index] { return false }
                return true
            }
            for scalar in query.scalarsAfterLeadingWhiteSpace {
                let same = foldTable.withFoldedUTF8(of: scalar) { bytes in
                    for byte in bytes where key.next() != byte { return false }
                    return true
                }
                if !same { return false }
            }
            return true
        } }
        return (match, foldedScalarCount)
    }
}

/// Up to 32 bytes kept inline (no allocation): the folded query while a walk reads it, so the
/// final comparison need not fold it again. Longer queries only count.
struct ShortBytes {
    /// Byte *i* is bits `8 × (i mod 8)` of word `i / 8`.
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var length = 0
    static let capacity = 32

    /// The bytes appended, or `nil` when there were more than `capacity`.
    var count: Int? { length <= Self.capacity ? length : nil }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if length < Self.capacity {
            let bits = UInt64(byte) << UInt64(8 * (length & 7))
            switch length >> 3 {
            case 0: storage.0 |= bits
            case 1: storage.1 |= bits
            case 2: storage.2 |= bits
            default: storage.3 |= bits
            }
        }
        length += 1
    }

    /// Byte `index` (in `0 ..< count`).
    @inline(__always)
    subscript(index: Int) -> UInt8 {
        let word = switch index >> 3 {
        case 0: storage.0
        case 1: storage.1
        case 2: storage.2
        default: storage.3
        }
        return UInt8(truncatingIfNeeded: word >> UInt64(8 * (index & 7)))
    }
}

/// A position in a blind trie (FORMAT.md §6.1): a node, and how many query bytes led to it.
struct TrieWalk {
    let nodes: ByteView
    private(set) var node: TrieNode
    /// Query bytes consumed so far; never more than `node.pathLength`.
    private var depth = 0
    /// Whether a consumed byte was not compared (it lay inside an edge or below a leaf): the
    /// query must then be compared with a key below `node` before `node` is the answer.
    private(set) var skippedBytes = false
    /// Set when a step met a damaged node.
    private(set) var error: IndexFileError?
    /// The nodes the walk stepped to (`SearchMeter`).
    private(set) var visitedNodeCount = 0

    init(nodes: ByteView, node: TrieNode) {
        self.nodes = nodes
        self.node = node
    }

    /// Consumes one query byte: at the end of the node's path, moves to the child whose edge
    /// starts with `byte`; elsewhere skips it. Returns false when no key continues with
    /// `byte` (or the node is damaged, which sets `error`). O(log *children*).
    @inline(__always)
    mutating func advance(by byte: UInt8) -> Bool {
        guard depth == node.pathLength else {
            skippedBytes = true
            depth += 1
            return true
        }
        do {
            guard let child = try node.child(startingWith: byte, in: nodes) else { return false }
            node = child
            visitedNodeCount += 1
            depth += 1
            return true
        } catch {
            self.error = error
            return false
        }
    }
}
