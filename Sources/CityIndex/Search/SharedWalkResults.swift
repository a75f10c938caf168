// SharedWalkResults.swift: what the walks of one parallel typo-tolerant search found, one slot each.
import Synchronization

/// One slot per walk of a parallel typo-tolerant search (`CityIndex.typoMatches`): each walk
/// stores its matches in its own slot, or nothing when it met a damaged node; the search reads
/// them once every walk has returned.
///
/// Invariant: slot *i* is written only by walk *i*, at most once.
final class SharedWalkResults: Sendable {
    private let slots: Mutex<[[TypoMatch]?]>

    init(count: Int) {
        slots = Mutex([[TypoMatch]?](repeating: nil, count: count))
    }

    /// Stores what walk `share` found.
    func store(_ matches: [TypoMatch], at share: Int) {
        slots.withLock { $0[share] = matches }
    }

    /// Every walk's matches, or `nil` when one stored none (it failed).
    var all: [[TypoMatch]]? {
        slots.withLock { slots in slots.contains { $0 == nil } ? nil : slots.map { $0 ?? [] } }
    }
}
