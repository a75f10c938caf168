// TrieSectionWriter.swift: encoder twin of TrieSection and TrieNode (FORMAT.md §6): a blind radix trie.
import CityIndex

/// Writes a radix trie (the `NODE` or the `WNOD` section) over sorted keys, children before
/// parents (post-order), so every child offset is below its parent's (invariant I1).
///
/// Each key owns a run of *entries* (records for `NODE`, postings for `WNOD`); a node
/// covers the entries of its subtree, records how many distinct cities they hold and which
/// of them comes first in population order (FORMAT.md §6).
///
/// Built iteratively from the sorted keys and the lengths of their common prefixes, with
/// an explicit stack of open nodes: no recursion, so a key of any length is safe.
struct TrieSectionWriter {
    /// A distinct key (bytes `start ..< start + byteCount` of the key arena) and its
    /// entries `firstEntry ..< entryEnd`, sorted in population order. 16 bytes.
    struct Key {
        var start: UInt32
        var byteCount: UInt32
        var firstEntry: UInt32
        var entryEnd: UInt32
    }

    /// How entries are ordered and which city each belongs to.
    struct Entries {
        var count: Int
        /// Whether entry `a` comes before entry `b` in population order (FORMAT.md §6.2).
        var precedes: (_ a: Int, _ b: Int) -> Bool
        /// The city of each entry, when several entries may belong to one city (`nil`: one
        /// entry per city), and how many cities there are.
        var cityOfEntry: (city: (Int) -> Int, cityCount: Int)?
        /// Most entries a leaf may hold (FORMAT.md §6: a *bucket*, several keys' entries of
        /// distinct cities); 1 keeps every leaf to one key. Needs `cityOfEntry`.
        var bucketCapacity = 1
    }

    /// A node whose subtree is not complete yet.
    private struct OpenNode {
        var depth: Int
        var firstEntry: Int
        var entryEnd: Int
        /// A key of the subtree: its bytes `0 ..< depth` are the node's path.
        var keyIndex: Int
        /// The entry of the subtree that comes first in population order, -1 while there is none.
        var best = -1
        var children: [Child] = []
    }

    /// A child edge: a written node, or (`offset` nil) a bucket to write as a leaf when its
    /// parent is written (its subtree is small enough to become one, unless an ancestor
    /// becomes one too) or a leaf of one entry, held inline by its parent's ref.
    private struct Child {
        var label: UInt8
        var offset: Int?
        var firstEntry: Int
        var entryEnd: Int
        var best: Int
        var entryCount: Int { entryEnd - firstEntry }
    }

    /// The section and how many nodes it holds.
    static func sectionBytes(keyArena: [UInt8], keys: [Key], entries: Entries) -> (bytes: [UInt8], nodeCount: Int) {
        func bytes(of key: Key) -> ArraySlice<UInt8> { keyArena[Int(key.start) ..< Int(key.start + key.byteCount)] }
        var writer = ByteWriter()
        writer.appendUInt32(0)   // root offset, patched below
        writer.appendUInt32(UInt32(entries.bucketCapacity))
        var nodeCount = 0
        var stack = [OpenNode(depth: 0, firstEntry: 0, entryEnd: 0, keyIndex: 0)]
        var distinct = entries.cityOfEntry.map { DistinctCityCounter(entryCount: entries.count, cityCount: $0.cityCount) }
        func better(_ a: Int, _ b: Int) -> Int {
            if a < 0 { return b }
            if b < 0 { return a }
            return entries.precedes(b, a) ? b : a
        }

        func write(_ node: OpenNode, parentFirstEntry: Int) -> Int {
            // Buckets below this node become leaves first (children before parents, I1); a
            // leaf of one entry is not stored at all: its parent's ref holds it (inline).
            var children = node.children
            for index in children.indices where children[index].offset == nil && children[index].entryCount >= 2 {
                let child = children[index]
                children[index].offset = writer.count
                nodeCount += 1
                writer.appendVarint(UInt32(child.firstEntry - node.firstEntry))
                writer.appendVarint(UInt32(child.entryCount))
                writer.appendVarint(0)
                // Its entries are several keys' runs: name the best of them.
                writer.appendVarint(UInt32(child.best - child.firstEntry))
            }
            nodeCount += children.count { $0.offset == nil }
            let offset = writer.count
            nodeCount += 1
            writer.appendVarint(UInt32(node.firstEntry - parentFirstEntry))
            let entryCount = node.entryEnd - node.firstEntry
            let cityCount = distinct?.cityCount(in: node.firstEntry ..< node.entryEnd) ?? entryCount
            writer.appendVarint(UInt32(entryCount))
            guard !children.isEmpty else {
                writer.appendVarint(0)   // shape: a leaf
                if entries.bucketCapacity > 1 && (2 ... entries.bucketCapacity).contains(entryCount) {
                    // A leaf a reader takes for a bucket names its best entry (here: its first).
                    writer.appendVarint(UInt32(max(node.best, node.firstEntry) - node.firstEntry))
                }
                return offset
            }
            // A stored child is referred to by its distance, an inline leaf by its entry.
            let refs = children.map { child in
                child.offset.map { (offset - $0) << 1 } ?? (child.firstEntry - node.firstEntry) << 1 | 1
            }
            let largestRef = refs.max()!
            let width = largestRef < 1 << 8 ? 1 : largestRef < 1 << 16 ? 2 : largestRef < 1 << 24 ? 3 : 4
            writer.appendVarint(UInt32(((children.count - 1) << 2 | (width - 1)) + 1))
            // The trie is blind: an inner node stores where its path ends, not its label
            // bytes (a search reads them from a key below it). A leaf stores neither path
            // nor summary: it is one key's entries, one per city, best first, or a bucket.
            writer.appendVarint(UInt32(node.depth))
            writer.appendVarint(UInt32(entryCount - cityCount))
            writer.appendVarint(UInt32(max(node.best, node.firstEntry) - node.firstEntry))
            for child in children { writer.appendUInt8(child.label) }
            // Truncated past 4 bytes (a section over 2 GiB): IndexBuilder refuses the section.
            for ref in refs { writer.appendLittleEndian(UInt64(truncatingIfNeeded: ref), byteCount: width) }
            return offset
        }

        /// Whether `node`'s subtree fits one bucket: few enough entries, no city twice.
        func fitsBucket(_ node: OpenNode) -> Bool {
            let entryCount = node.entryEnd - node.firstEntry
            guard entries.bucketCapacity > 1, entryCount <= entries.bucketCapacity, let distinct else { return false }
            return distinct.cityCount(in: node.firstEntry ..< node.entryEnd) == entryCount
        }

        /// Writes `node` (or keeps it as a bucket) and records it as the last child of the
        /// node on top of the stack.
        func attach(_ node: OpenNode) {
            let parent = stack[stack.count - 1]
            let isLeafOfOne = node.entryEnd - node.firstEntry == 1 && node.children.isEmpty
            let offset = isLeafOfOne || fitsBucket(node) ? nil : write(node, parentFirstEntry: parent.firstEntry)
            let label = keyArena[Int(keys[node.keyIndex].start) + parent.depth]
            stack[stack.count - 1].children.append(Child(label: label, offset: offset, firstEntry: node.firstEntry,
                                                         entryEnd: node.entryEnd, best: node.best))
            stack[stack.count - 1].entryEnd = node.entryEnd
            stack[stack.count - 1].best = better(stack[stack.count - 1].best, node.best)
        }

        for (index, key) in keys.enumerated() {
            let keyBytes = bytes(of: key)
            let commonPrefixLength = index == 0 ? 0 : Self.commonPrefixLength(bytes(of: keys[index - 1]), keyBytes)
            while stack[stack.count - 1].depth > commonPrefixLength {
                let node = stack.removeLast()
                if stack[stack.count - 1].depth < commonPrefixLength {
                    stack.append(OpenNode(depth: commonPrefixLength, firstEntry: node.firstEntry,
                                          entryEnd: node.entryEnd, keyIndex: node.keyIndex))
                }
                attach(node)
            }
            if keyBytes.count == commonPrefixLength {
                // Only the empty key, first in order, ends at an existing node: the root.
                stack[stack.count - 1].entryEnd = Int(key.entryEnd)
                stack[stack.count - 1].best = Int(key.firstEntry)
            } else {
                stack.append(OpenNode(depth: keyBytes.count, firstEntry: Int(key.firstEntry),
                                      entryEnd: Int(key.entryEnd), keyIndex: index, best: Int(key.firstEntry)))
            }
            // Every node closed so far ends before this key's entries: count them only now.
            if let cityOfEntry = entries.cityOfEntry {
                for entry in Int(key.firstEntry) ..< Int(key.entryEnd) { distinct!.add(entry: entry, city: cityOfEntry.city(entry)) }
            }
        }
        while stack.count > 1 { attach(stack.removeLast()) }
        precondition(stack[0].entryEnd == entries.count, "the trie must cover every entry")
        let rootOffset = write(stack[0], parentFirstEntry: 0)
        // Truncated when the section passes 4 GiB: IndexBuilder then refuses it (BuildLimits).
        writer.overwriteUInt32(UInt32(truncatingIfNeeded: rootOffset), at: 0)
        return (writer.bytes, nodeCount)
    }

    static func commonPrefixLength(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Int {
        var length = 0
        var firstIndex = first.startIndex
        var secondIndex = second.startIndex
        while firstIndex < first.endIndex, secondIndex < second.endIndex, first[firstIndex] == second[secondIndex] {
            length += 1
            firstIndex += 1
            secondIndex += 1
        }
        return length
    }
}
