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

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    /// Stores what walk `share` found.
    func store(_ matches: [TypoMatch], at share: Int) {
        slots[share] = matches
    }

    /// Every walk's matches, or `nil` when one stored none (it failed).
    var all: [[TypoMatch]]? {
        slots.contains { $0 == nil } ? nil : slots.map { $0 ?? [] }
    }
}
