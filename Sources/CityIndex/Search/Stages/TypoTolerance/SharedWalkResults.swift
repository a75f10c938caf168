// SharedWalkResults.swift: what the walks of one parallel typo-tolerant search found, one slot each.

/// One slot per walk of a parallel typo-tolerant search (`CityIndex.typoMatches`): each walk
/// stores its matches in its own slot, or nothing when it met a damaged node; the search reads
/// them once every walk has returned.
///
/// Invariant (why this is `Sendable` without a lock): slot *i* is written only by walk *i*, at
/// most once, and no two slots share memory; `all` is read only after
/// `DispatchQueue.concurrentPerform` has returned, which waits for every walk and so orders
/// their writes before the read.
final class SharedWalkResults: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<[TypoMatch]?>
    /// The nodes each walk visited (`SearchMeter`), under the same invariant.
    private let visitedNodeCounts: UnsafeMutableBufferPointer<Int>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
        visitedNodeCounts = .allocate(capacity: count)
        visitedNodeCounts.initialize(repeating: 0)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
        visitedNodeCounts.deallocate()
    }

    /// Stores what walk `share` found, and how many nodes it visited.
    func store(_ matches: [TypoMatch], visitedNodeCount: Int, at share: Int) {
        slots[share] = matches
        visitedNodeCounts[share] = visitedNodeCount
    }

    /// The nodes walk `share` visited; read, as `all`, after every walk returned.
    func visitedNodeCount(at share: Int) -> Int { visitedNodeCounts[share] }

    /// Every walk's matches, or `nil` when one stored none (it failed).
    var all: [[TypoMatch]]? {
        slots.contains { $0 == nil } ? nil : slots.map { $0 ?? [] }
    }
}
