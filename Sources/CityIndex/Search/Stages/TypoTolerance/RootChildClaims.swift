// RootChildClaims.swift: the root's children, handed out one at a time to the walks of one search.
import Synchronization

/// The next child of a trie's root that no walk of a parallel typo-tolerant search has taken
/// (`TypoTolerantTrieWalk`): each walk claims a child, walks its subtree, and claims the next,
/// so that walks on several threads share the root's children however unevenly their subtrees
/// weigh (a subtree per first letter; "s" weighs hundreds of times "x"). One child may be
/// handed out before the others (`first`): the heaviest, so that the walk that starts first
/// takes it and the others share the rest, instead of one of them taking it last and
/// finishing alone.
///
/// Invariant: every index from 0 up is claimed exactly once: `first` first, then the others
/// in increasing order.
/// - Complexity: O(1) per claim (one atomic add).
final class RootChildClaims: Sendable {
    private let next = Atomic<Int>(0)
    private let first: Int?

    /// Claims that hand out `first` (a child's index), when given, before every other child.
    init(first: Int? = nil) {
        self.first = first
    }

    /// The next index no walk has claimed yet, now claimed.
    func claim() -> Int {
        let order = next.add(1, ordering: .relaxed).oldValue
        guard let first else { return order }
        return order == 0 ? first : order <= first ? order - 1 : order
    }
}
