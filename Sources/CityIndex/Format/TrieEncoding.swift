// TrieEncoding.swift: what a NODE or WNOD section's header says about how its nodes are written
// (FORMAT.md §6).

/// The per-section choices of the trie grammar (FORMAT.md §6), from the section header: which
/// optional node fields are stored, and how a small leaf is packed into its parent's child ref.
///
/// Invariants (checked by `init(bucketCapacity:smallLeafCountWidth:flags:)`): `bucketCapacity` is
/// 1…64, `smallLeafCountWidth` 0…8, and only the two defined flag bits are set. Every value
/// is then small enough that a child ref of at most 4 bytes decodes without overflow.
package struct TrieEncoding: Equatable, Sendable {
    // Four bytes, as in the header: every `TrieNode` carries a copy.
    private let capacity: UInt8
    private let countWidth: UInt8
    private let bestWidth: UInt8
    private let flagBits: UInt8

    /// Most entries a leaf holding several keys (a bucket) has; 1: every leaf is one key.
    package var bucketCapacity: Int { Int(capacity) }
    /// Whether inner nodes store `repeatCount` (else it is 0: no entry repeats a city).
    package var storesRepeatCount: Bool { flagBits & Self.repeatCountFlag != 0 }
    /// Whether inner nodes and buckets store `bestDelta` (else it is 0: the first entry is
    /// the best in population order).
    package var storesBestDelta: Bool { flagBits & Self.bestDeltaFlag != 0 }
    /// Bits of a small inline leaf's entry count less 2: such a leaf has 2 … 2^width + 1
    /// entries (only 2 when the width is 0).
    package var smallLeafCountWidth: Int { Int(countWidth) }
    /// Bits of a small inline leaf's best-entry delta: enough for `min(bucketCapacity,
    /// 2^smallLeafCountWidth + 1) − 1` when buckets exist and store it, else 0.
    package var smallLeafBestWidth: Int { Int(bestWidth) }

    /// Flag bits of the section header (FORMAT.md §6).
    package static let repeatCountFlag: UInt8 = 1
    package static let bestDeltaFlag: UInt8 = 2
    package static let maximumSmallLeafCountWidth = 8

    /// `nil` when a value is out of range or an undefined flag bit is set.
    /// - Complexity: O(1).
    package init?(bucketCapacity: Int, smallLeafCountWidth: Int, flags: UInt8) {
        guard (1 ... FormatConstants.maximumBucketCapacity).contains(bucketCapacity),
              (0 ... Self.maximumSmallLeafCountWidth).contains(smallLeafCountWidth),
              flags & ~(Self.repeatCountFlag | Self.bestDeltaFlag) == 0 else { return nil }
        capacity = UInt8(bucketCapacity)
        countWidth = UInt8(smallLeafCountWidth)
        flagBits = flags
        let largestBucketOfSmallLeaf = min(bucketCapacity, (1 << smallLeafCountWidth) + 1)
        bestWidth = flags & Self.bestDeltaFlag != 0 && largestBucketOfSmallLeaf > 1
            ? UInt8(Int.bitWidth - (largestBucketOfSmallLeaf - 1).leadingZeroBitCount) : 0
    }

    /// The header's flag byte.
    package var flags: UInt8 { flagBits }

    /// Most entries a small inline leaf can hold.
    package var largestSmallLeaf: Int { (1 << smallLeafCountWidth) + 1 }

    /// The child ref of a small inline leaf of `entryCount` entries (2 … `largestSmallLeaf`)
    /// at `entryDelta` from its parent's first entry, whose best entry is `bestDelta` after
    /// its first (stored only for a bucket, else 0).
    package func smallLeafRef(entryDelta: Int, entryCount: Int, bestDelta: Int) -> Int {
        let best = entryCount <= bucketCapacity ? bestDelta : 0
        return (((entryDelta << smallLeafCountWidth | (entryCount - 2)) << smallLeafBestWidth) | best) << 2 | 3
    }
}
