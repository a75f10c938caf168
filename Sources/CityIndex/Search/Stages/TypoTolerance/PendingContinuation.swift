// PendingContinuation.swift: one exact continuation of a typo-tolerant walk, walked in a batch.

/// A blind exact walk (FORMAT.md §6.1) of the rest of a query below the node where a
/// typo-tolerant walk's budget ran out (`TypoTolerantTrieWalk`): the keys there that continue
/// the walked path with the query's rest. It advances one node at a time, prefetching the next,
/// so that a batch of them advanced together waits on their node reads at once.
///
/// Invariant: `depth` is the walked path's length plus the rest bytes consumed, and never more
/// than `reached.pathLength`; `nextChild` is a child of `reached` whose label is the next rest
/// byte.
struct PendingContinuation {
    /// Where the walk stands: a node it must move to, the end of the rest, or no key.
    private enum State { case walking, walked, dead }

    /// The node reached so far: at first the node where the budget ran out.
    private(set) var reached: TrieNode
    /// The walked path to that first node, as a range of the walk's path store.
    let path: Range<Int>
    /// Where the rest starts in the query's UTF-8.
    let restStart: Int
    /// The edits of every match (the budget is spent), and the bound of the walk that queued it.
    let edits: Int
    let bound: Int
    /// The length of the path that defines `reached`'s subtree: its parent's path and its
    /// label (the walked path, for the first node).
    private(set) var reachedPrefixLength: Int
    /// How many bytes of the whole text (path and rest) the walk has consumed.
    private var depth: Int
    /// Whether a consumed byte was not compared (inside an edge or below a leaf): a key below
    /// `reached` must then be read to confirm it.
    private var skippedBytes = false
    private var nextChild: Int?
    private var state = State.walking

    init(node: TrieNode, path: Range<Int>, restStart: Int, edits: Int, bound: Int) {
        reached = node
        self.path = path
        self.restStart = restStart
        self.edits = edits
        self.bound = bound
        depth = path.count
        reachedPrefixLength = path.count
    }

    /// Whether the walk has not reached the end of the rest yet.
    var isWalking: Bool { state == .walking }

    /// Whether the walk reached the end of the rest at a node with entries.
    var hasEntries: Bool { state == .walked && reached.entryCount > 0 }

    /// Whether the entries reached must be confirmed by reading a key (bytes were skipped).
    var needsKeyRead: Bool { hasEntries && skippedBytes }

    /// Moves to the child found last time (its bytes prefetched then), then consumes rest
    /// bytes until the next branch, whose child it finds and prefetches, or the end.
    /// - Parameter query: the query's UTF-8, whose bytes from `restStart` are the rest.
    /// - Throws: `IndexFileError.corruptNode` when the child is damaged.
    mutating func advance(rest query: [UInt8], in nodes: ByteView) throws(IndexFileError) {
        if let child = nextChild {
            reached = try reached.child(at: child, in: nodes)
            reachedPrefixLength = depth + 1
            depth += 1
            nextChild = nil
        }
        while true {
            let offset = restStart + depth - path.count
            guard offset < query.count else {
                state = .walked
                return
            }
            guard depth == reached.pathLength else {
                skippedBytes = true
                depth += 1
                continue
            }
            guard let child = reached.childIndex(startingWith: query[offset], in: nodes) else {
                state = .dead
                return
            }
            reached.prefetchChild(at: child, in: nodes)
            nextChild = child
            return
        }
    }
}
