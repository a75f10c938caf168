// RootChildClaims.swift: the root's children, handed out one at a time to the walks of one search.
import Synchronization

/// The next child of a trie's root that no walk of a parallel typo-tolerant search has taken
/// (`TypoTolerantTrieWalk`): each walk claims a child, walks its subtree, and claims the next,
/// so that walks on several threads share the root's children however unevenly their subtrees
/// weigh (a subtree per first letter; "s" weighs hundreds of times "x").
///
/// Invariant: every index from 0 up is claimed exactly once, in increasing order.
/// - Complexity: O(1) per claim (one atomic add).
final class RootChildClaims: Sendable {
    private let next = Atomic<Int>(0)

    /// The smallest index no walk has claimed yet, now claimed.
    func claim() -> Int { next.add(1, ordering: .relaxed).oldValue }
}
