// TrieWriter.swift: encoder twin of TrieNode.swift (FORMAT.md §6).
import CityIndex

/// Writes the radix trie over the distinct folded keys, children before parents
/// (post-order), so every child offset is below its parent's (invariant I1).
///
/// Built iteratively from the sorted keys and the lengths of their common prefixes, with
/// an explicit stack of open nodes: no recursion, so a key of any length is safe.
struct TrieWriter {
    /// A distinct folded key (bytes `start ..< start + byteCount` of the key arena) and the
    /// ranks `firstRank ..< rankEnd` of the cities that have it. 16 bytes.
    struct Key {
        var start: UInt32
        var byteCount: UInt32
        var firstRank: UInt32
        var rankEnd: UInt32
    }

    /// A node whose subtree is not complete yet.
    private struct OpenNode {
        var depth: Int
        var firstRank: Int
        var rankEnd: Int
        /// A key of the subtree: its bytes `0 ..< depth` are the node's path.
        var keyIndex: Int
        var children: [(label: UInt8, offset: Int)] = []
    }

    /// The `NODE` section and how many nodes it holds.
    static func sectionBytes(keyArena: [UInt8], keys: [Key], cityCount: Int) -> (bytes: [UInt8], nodeCount: Int) {
        func bytes(of key: Key) -> ArraySlice<UInt8> { keyArena[Int(key.start) ..< Int(key.start + key.byteCount)] }
        var writer = ByteWriter()
        writer.appendUInt32(0)   // root offset, patched below
        writer.appendUInt32(0)   // reserved
        var nodeCount = 0
        var stack = [OpenNode(depth: 0, firstRank: 0, rankEnd: 0, keyIndex: 0)]

        func write(_ node: OpenNode, parentDepth: Int, parentFirstRank: Int) -> Int {
            let offset = writer.count
            nodeCount += 1
            let label = node.depth > parentDepth ? bytes(of: keys[node.keyIndex]).dropFirst(parentDepth + 1).prefix(node.depth - parentDepth - 1) : []
            writer.appendVarint(UInt32(label.count))
            writer.append(label)
            writer.appendVarint(UInt32(node.firstRank - parentFirstRank))
            writer.appendVarint(UInt32(node.rankEnd - node.firstRank))
            writer.appendVarint(UInt32(node.children.count))
            if !node.children.isEmpty {
                let largestDistance = offset - node.children[0].offset
                let width = largestDistance < 1 << 8 ? 1 : largestDistance < 1 << 16 ? 2 : largestDistance < 1 << 24 ? 3 : 4
                writer.appendUInt8(UInt8(width))
                for child in node.children { writer.appendUInt8(child.label) }
                for child in node.children { writer.appendLittleEndian(UInt64(offset - child.offset), byteCount: width) }
            }
            return offset
        }

        /// Writes `node` and records it as the last child of the node on top of the stack.
        func attach(_ node: OpenNode) {
            let parent = stack[stack.count - 1]
            let offset = write(node, parentDepth: parent.depth, parentFirstRank: parent.firstRank)
            let label = keyArena[Int(keys[node.keyIndex].start) + parent.depth]
            stack[stack.count - 1].children.append((label, offset))
            stack[stack.count - 1].rankEnd = node.rankEnd
        }

        for (index, key) in keys.enumerated() {
            let keyBytes = bytes(of: key)
            let commonPrefixLength = index == 0 ? 0 : Self.commonPrefixLength(bytes(of: keys[index - 1]), keyBytes)
            while stack[stack.count - 1].depth > commonPrefixLength {
                let node = stack.removeLast()
                if stack[stack.count - 1].depth < commonPrefixLength {
                    stack.append(OpenNode(depth: commonPrefixLength, firstRank: node.firstRank,
                                          rankEnd: node.rankEnd, keyIndex: node.keyIndex))
                }
                attach(node)
            }
            if keyBytes.count == commonPrefixLength {
                // Only the empty key, first in order, ends at an existing node: the root.
                stack[stack.count - 1].rankEnd = Int(key.rankEnd)
            } else {
                stack.append(OpenNode(depth: keyBytes.count, firstRank: Int(key.firstRank),
                                      rankEnd: Int(key.rankEnd), keyIndex: index))
            }
        }
        while stack.count > 1 { attach(stack.removeLast()) }
        precondition(stack[0].rankEnd == cityCount, "the trie must cover every city")
        let rootOffset = write(stack[0], parentDepth: 0, parentFirstRank: 0)
        writer.overwriteUInt32(UInt32(rootOffset), at: 0)
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
