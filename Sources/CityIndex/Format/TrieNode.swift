// TrieNode.swift: a view of one blind radix-trie node over the NODE or WNOD section (FORMAT.md §6).

/// One node of a radix trie, parsed from the `NODE` or the `WNOD` section. Its *entries* are
/// positions: in `NODE` entry *i* is the city of rank *i* (in population order, the city `PORD`
/// says), in `WNOD` posting *i* of `WPST`.
///
/// Grammar (FORMAT.md §6):
/// `Node --> firstEntryDelta:varint, entryCount:varint, shape:varint, [pathLength:varint,
///  repeatCount:varint?, bestDelta:varint?, childLabels:u8^childCount,
///  childRefs:uint(refWidth)^childCount]`
/// (`shape` is 0 for a leaf, else `((childCount − 1) << 2 | (refWidth − 1)) + 1`; the bracket
/// only for an inner node: a leaf's entries are one key's, one per city and in population
/// order, so its repeat count is 0 and its best entry its first), or, for a bucket of 2 or
/// more entries, `[bestDelta:varint?]`. The fields marked `?` are stored only when the
/// section's flags say so (`TrieEncoding`), else they are 0. A child ref is
/// - `distance << 1` for a node stored `distance` bytes before its parent;
/// - `entryDelta << 2 | 1` for an **inline leaf** of exactly one entry,
///   `parent.firstEntry + entryDelta`, that is not stored at all;
/// - `((entryDelta << countWidth | entryCount − 2) << bestWidth | bestDelta) << 2 | 3` for a
///   **small inline leaf** of 2 … 2^countWidth + 1 entries, not stored either (FORMAT.md §6).
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
    /// Offset of the node from the start of the section; for an inline leaf (stored only as
    /// its parent's child ref, of one entry or a few) minus the offset of that ref, so that
    /// offsets stay unique and never name a stored node (top lists are looked up by offset).
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
    /// The section's grammar choices (FORMAT.md §6): its bucket capacity, which decides
    /// whether a leaf is a bucket, its optional fields and the packing of small inline leaves.
    let encoding: TrieEncoding
    private let refWidth: Int
    /// Section offset of the child labels; the child refs follow them.
    private let childLabelsOffset: Int

    /// Most children a node can have: one per possible next byte.
    static let maximumChildCount = 256

    /// Whether the node has no children (and so no stored path length).
    var isLeaf: Bool { childCount == 0 }

    /// Whether the node is an inline leaf: one entry or a few, stored only as its parent's child ref.
    var isInline: Bool { offset < 0 }

    /// The section's bucket capacity (FORMAT.md §6), which decides whether a leaf is a bucket.
    var bucketCapacity: Int { encoding.bucketCapacity }

    /// Where the node's bytes (an inline leaf's: its ref) lie in the section, for errors.
    var byteOffset: Int { abs(offset) }

    /// Whether the node is a bucket: a leaf whose entries may belong to several keys.
    var isBucket: Bool { childCount == 0 && entryCount <= bucketCapacity && bucketCapacity > 1 }

    /// Parses the node at `offset` whose parent covers `parentEntries` and has a path of
    /// `parentPathLength` bytes (-1 for the root, whose path is empty).
    /// - Complexity: O(1) (a few varints), independent of the number of children.
    init(at offset: Int, in section: ByteView, parentFirstEntry: Int,
         parentEntries: Range<Int>, parentPathLength: Int, encoding: TrieEncoding) throws(IndexFileError) {
        func defect(_ reason: NodeDefect) -> IndexFileError { .corruptNode(nodeOffset: offset, reason: reason) }
        guard let (entryDelta, afterDelta) = section.varint(at: offset),
              let (entryCount, afterCount) = section.varint(at: afterDelta),
              let (shape, afterShape) = section.varint(at: afterCount) else {
            throw defect(section.uint8(at: offset) == nil ? .truncated : .malformedVarint)
        }
        // Shape 0: a leaf; else the child count (1…256 when well formed) and the ref width (1…4).
        let childCount = shape == 0 ? 0 : Int((shape - 1) >> 2) + 1
        let refWidth = shape == 0 ? 0 : Int((shape - 1) & 3) + 1
        guard childCount <= Self.maximumChildCount else { throw defect(.tooManyChildren(childCount)) }
        var repeatCount: UInt32 = 0, bestDelta: UInt32 = 0
        var pathLength = Int.max
        var labelsOffset = afterShape
        if childCount > 0 {
            guard let (length, afterLength) = section.varint(at: afterShape) else { throw defect(.malformedVarint) }
            var afterSummary = afterLength
            if encoding.storesRepeatCount {
                guard let (repeats, after) = section.varint(at: afterSummary) else { throw defect(.malformedVarint) }
                (repeatCount, afterSummary) = (repeats, after)
            }
            if encoding.storesBestDelta {
                guard let (best, after) = section.varint(at: afterSummary) else { throw defect(.malformedVarint) }
                (bestDelta, afterSummary) = (best, after)
            }
            guard Int(length) > parentPathLength else {
                throw defect(.pathNotLongerThanParent(pathLength: Int(length)))
            }
            pathLength = Int(length)
            labelsOffset = afterSummary
        } else if encoding.storesBestDelta && encoding.bucketCapacity > 1 && entryCount >= 2 && entryCount <= encoding.bucketCapacity {
            // A bucket of several entries: not in population order, so it names its best.
            guard let (best, _) = section.varint(at: afterShape) else {
                throw defect(section.uint8(at: afterShape) == nil ? .truncated : .malformedVarint)
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
        if childCount > 0 {
            guard section.slice(offset: labelsOffset, length: childCount * (1 + refWidth)) != nil else {
                throw defect(.truncated)
            }
        }
        self.offset = offset
        self.pathLength = pathLength
        self.firstEntry = firstEntry
        self.entryCount = Int(entryCount)
        self.cityCount = Int(entryCount - repeatCount)
        self.bestEntry = firstEntry + Int(bestDelta)
        self.childCount = childCount
        self.encoding = encoding
        self.refWidth = refWidth
        childLabelsOffset = labelsOffset
    }

    /// The inline leaf whose ref lies at `refOffset`: `entryCount` entries from `firstEntry`
    /// (of distinct cities: one key's, or a bucket's), the best `bestDelta` after the first.
    private init(inlineLeafRefAt refOffset: Int, firstEntry: Int, entryCount: Int, bestDelta: Int, encoding: TrieEncoding) {
        offset = -refOffset
        pathLength = Int.max
        self.firstEntry = firstEntry
        self.entryCount = entryCount
        cityCount = entryCount
        bestEntry = firstEntry + bestDelta
        childCount = 0
        self.encoding = encoding
        refWidth = 0
        childLabelsOffset = 0
    }

    /// The entries below this node.
    var entries: Range<Int> { firstEntry ..< firstEntry + entryCount }

    /// The first label byte of child `index` (in 0..<childCount: the labels and distances were
    /// checked to lie in the section when the node was parsed).
    func childLabel(at index: Int, in section: ByteView) -> UInt8 {
        section.uint8(uncheckedAt: childLabelsOffset + index)
    }

    /// The index of the child whose edge starts with `byte`, or `nil` when there is none.
    /// - Complexity: O(log *childCount*) ≤ 8 comparisons of the node's own label bytes.
    func childIndex(startingWith byte: UInt8, in section: ByteView) -> Int? {
        var low = 0
        var high = childCount
        while low < high {
            let middle = (low + high) / 2
            let label = childLabel(at: middle, in: section)
            if label < byte { low = middle + 1 } else if label > byte { high = middle } else { return middle }
        }
        return nil
    }

    /// Starts loading child `index` (in 0..<childCount) when it is stored (a hint; an inline
    /// leaf has no bytes of its own). O(1): reads the child's ref in this node.
    @inline(__always)
    func prefetchChild(at index: Int, in section: ByteView) {
        let ref = Int(section.unsigned(uncheckedAt: childLabelsOffset + childCount + index * refWidth, width: refWidth))
        if ref & 1 == 0 { section.prefetch(at: offset - ref >> 1) }
    }

    /// The child whose edge starts with `byte`, or `nil` when there is none.
    /// - Complexity: O(log *childCount*) ≤ 8 comparisons, and the child's parse.
    func child(startingWith byte: UInt8, in section: ByteView) throws(IndexFileError) -> TrieNode? {
        guard let index = childIndex(startingWith: byte, in: section) else { return nil }
        return try child(at: index, in: section)
    }

    /// Child `index` (in 0..<childCount), parsed and checked against I1 and I2.
    func child(at index: Int, in section: ByteView) throws(IndexFileError) -> TrieNode {
        let refOffset = childLabelsOffset + childCount + index * refWidth
        let ref = Int(section.unsigned(uncheckedAt: refOffset, width: refWidth))
        if ref & 1 == 1 {
            var entryDelta = ref >> 2, count = 1, bestDelta = 0
            if ref & 2 != 0 {
                // A small inline leaf: its best entry (for a bucket), then its count less 2.
                bestDelta = entryDelta & (1 << encoding.smallLeafBestWidth - 1)
                entryDelta >>= encoding.smallLeafBestWidth
                count = entryDelta & (1 << encoding.smallLeafCountWidth - 1) + 2
                entryDelta >>= encoding.smallLeafCountWidth
                if count > encoding.bucketCapacity { bestDelta = 0 }
            }
            let childFirstEntry = firstEntry + entryDelta
            guard childFirstEntry <= firstEntry + entryCount - count else {
                throw .corruptNode(nodeOffset: refOffset, reason: .entryRangeOutsideParent(firstEntry: childFirstEntry, entryCount: count))
            }
            guard bestDelta < count else {
                throw .corruptNode(nodeOffset: refOffset, reason: .invalidCounts(repeatCount: 0, bestDelta: bestDelta))
            }
            return TrieNode(inlineLeafRefAt: refOffset, firstEntry: childFirstEntry, entryCount: count,
                            bestDelta: bestDelta, encoding: encoding)
        }
        let distance = ref >> 1
        let childOffset = offset - distance
        guard distance > 0, childOffset >= FormatConstants.nodeSectionHeaderByteCount else {
            throw .corruptNode(nodeOffset: offset, reason: .childNotBeforeParent(childOffset: childOffset))
        }
        return try TrieNode(at: childOffset, in: section, parentFirstEntry: firstEntry, parentEntries: entries,
                            parentPathLength: pathLength, encoding: encoding)
    }
}
