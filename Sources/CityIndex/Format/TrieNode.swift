// TrieNode.swift: a view of one blind radix-trie node over the NODE or WNOD section (FORMAT.md §6).

/// One node of a radix trie, parsed from the `NODE` or the `WNOD` section. Its *entries* are
/// positions: in `NODE` entry *i* is the city of rank *i* (in population order, the city `PORD`
/// says), in `WNOD` posting *i* of `WPST`.
///
/// Grammar (FORMAT.md §6):
/// `Node --> firstEntryDelta:varint, entryCount:varint, childCount:varint, [pathLength:varint,
///  repeatCount:varint, bestDelta:varint, offsetWidth:u8, childLabels:u8^childCount,
///  childDistances:uint(offsetWidth)^childCount]`
/// (the bracket only when childCount > 0: a leaf's entries are one key's, one per city and
/// in population order, so its repeat count is 0 and its best entry its first), or, for a
/// bucket of 2 or more entries, `[bestDelta:varint]` (FORMAT.md §6).
///
/// The trie is *blind* (a PATRICIA trie): a node stores where its path ends, not the bytes
/// of its edge label. Every key below a node starts with the node's path, so the bytes are
/// those of its first entry's key (FORMAT.md §6.1); a search branches on one byte per node
/// and compares the query with one key at the end.
///
/// Parsing checks every rule a walk relies on, so that a walk over a hostile file ends
/// in a `corruptNode` error or an answer inside the entry range, never a trap:
/// - I1: a child's offset is strictly below its parent's (so every walk terminates);
/// - I2: a node's entry range lies inside its parent's (so every entry is a valid position);
/// - an inner node's path is longer than its parent's (so a walk moves forward in the query).
struct TrieNode {
    /// Offset of the node from the start of the section.
    let offset: Int
    /// The length in bytes of the node's path (its key prefix) for an inner node; `Int.max`
    /// for a leaf, whose path is the whole key of its entries and is never branched on.
    let pathLength: Int
    /// The first entry below this node.
    let firstEntry: Int
    /// How many entries are below this node: `firstEntry ..< firstEntry + entryCount`.
    let entryCount: Int
    /// How many distinct cities the entries hold (`entryCount` for `NODE`).
    let cityCount: Int
    /// The entry below this node that comes first in population order (FORMAT.md §6.3),
    /// in `entries` (equal to `firstEntry` when there are none).
    let bestEntry: Int
    let childCount: Int
    /// The section's bucket capacity (FORMAT.md §6), which decides whether a leaf is a bucket.
    let bucketCapacity: Int
    private let offsetWidth: Int
    /// Section offset of the child labels; the child distances follow them.
    private let childLabelsOffset: Int

    /// Most children a node can have: one per possible next byte.
    static let maximumChildCount = 256

    /// Whether the node has no children (and so no stored path length).
    var isLeaf: Bool { childCount == 0 }

    /// Whether the node is a bucket: a leaf whose entries may belong to several keys.
    var isBucket: Bool { childCount == 0 && entryCount <= bucketCapacity && bucketCapacity > 1 }

    /// Parses the node at `offset` whose parent covers `parentEntries` and has a path of
    /// `parentPathLength` bytes (-1 for the root, whose path is empty).
    /// - Complexity: O(1) (a few varints), independent of the number of children.
    init(at offset: Int, in section: ByteView, parentFirstEntry: Int,
         parentEntries: Range<Int>, parentPathLength: Int, bucketCapacity: Int) throws(IndexFileError) {
        func defect(_ reason: NodeDefect) -> IndexFileError { .corruptNode(nodeOffset: offset, reason: reason) }
        guard let (entryDelta, afterDelta) = section.varint(at: offset),
              let (entryCount, afterCount) = section.varint(at: afterDelta),
              let (childCount, afterChildCount) = section.varint(at: afterCount) else {
            throw defect(section.uint8(at: offset) == nil ? .truncated : .malformedVarint)
        }
        var repeatCount: UInt32 = 0, bestDelta: UInt32 = 0
        var pathLength = Int.max
        var afterSummary = afterChildCount
        if childCount > 0 {
            guard let (length, afterLength) = section.varint(at: afterChildCount),
                  let (repeats, afterRepeat) = section.varint(at: afterLength),
                  let (best, afterBest) = section.varint(at: afterRepeat) else {
                throw defect(.malformedVarint)
            }
            guard Int(length) > parentPathLength else {
                throw defect(.pathNotLongerThanParent(pathLength: Int(length)))
            }
            (pathLength, repeatCount, bestDelta, afterSummary) = (Int(length), repeats, best, afterBest)
        } else if bucketCapacity > 1 && entryCount >= 2 && entryCount <= bucketCapacity {
            // A bucket of several entries: not in population order, so it names its best.
            guard let (best, _) = section.varint(at: afterChildCount) else {
                throw defect(section.uint8(at: afterChildCount) == nil ? .truncated : .malformedVarint)
            }
            bestDelta = best
        }
        let firstEntry = parentFirstEntry + Int(entryDelta)
        guard firstEntry >= parentEntries.lowerBound, Int(entryCount) <= parentEntries.upperBound - firstEntry else {
            throw defect(.entryRangeOutsideParent(firstEntry: firstEntry, entryCount: Int(entryCount)))
        }
        guard repeatCount <= entryCount, bestDelta < max(entryCount, 1) else {
            throw defect(.invalidCounts(repeatCount: Int(repeatCount), bestDelta: Int(bestDelta)))
        }
        guard Int(childCount) <= Self.maximumChildCount else { throw defect(.tooManyChildren(Int(childCount))) }
        var offsetWidth = 0
        var childLabelsOffset = afterSummary
        if childCount > 0 {
            guard let width = section.uint8(at: afterSummary) else { throw defect(.truncated) }
            guard (1...4).contains(width) else { throw defect(.invalidOffsetWidth(width)) }
            offsetWidth = Int(width)
            childLabelsOffset = afterSummary + 1
            guard section.slice(offset: childLabelsOffset, length: Int(childCount) * (1 + offsetWidth)) != nil else {
                throw defect(.truncated)
            }
        }
        self.offset = offset
        self.pathLength = pathLength
        self.firstEntry = firstEntry
        self.entryCount = Int(entryCount)
        self.cityCount = Int(entryCount - repeatCount)
        self.bestEntry = firstEntry + Int(bestDelta)
        self.childCount = Int(childCount)
        self.bucketCapacity = bucketCapacity
        self.offsetWidth = offsetWidth
        self.childLabelsOffset = childLabelsOffset
    }

    /// The entries below this node.
    var entries: Range<Int> { firstEntry ..< firstEntry + entryCount }

    /// The first label byte of child `index` (in 0..<childCount: the labels and distances were
    /// checked to lie in the section when the node was parsed).
    func childLabel(at index: Int, in section: ByteView) -> UInt8 {
        section.uint8(uncheckedAt: childLabelsOffset + index)
    }

    /// The child whose edge starts with `byte`, or `nil` when there is none.
    /// - Complexity: O(log *childCount*) ≤ 8 comparisons.
    func child(startingWith byte: UInt8, in section: ByteView) throws(IndexFileError) -> TrieNode? {
        var low = 0
        var high = childCount
        while low < high {
            let middle = (low + high) / 2
            let label = childLabel(at: middle, in: section)
            if label < byte { low = middle + 1 } else if label > byte { high = middle } else {
                return try child(at: middle, in: section)
            }
        }
        return nil
    }

    /// Child `index` (in 0..<childCount), parsed and checked against I1 and I2.
    func child(at index: Int, in section: ByteView) throws(IndexFileError) -> TrieNode {
        let distanceOffset = childLabelsOffset + childCount + index * offsetWidth
        let distance = Int(section.unsigned(uncheckedAt: distanceOffset, width: offsetWidth))
        let childOffset = offset - distance
        guard distance > 0, childOffset >= IndexLayout.nodeSectionHeaderByteCount else {
            throw .corruptNode(nodeOffset: offset, reason: .childNotBeforeParent(childOffset: childOffset))
        }
        return try TrieNode(at: childOffset, in: section, parentFirstEntry: firstEntry, parentEntries: entries,
                            parentPathLength: pathLength, bucketCapacity: bucketCapacity)
    }
}
