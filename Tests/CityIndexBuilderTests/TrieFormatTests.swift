// TrieFormatTests.swift: the tries' section header and small inline leaves (FORMAT.md §6),
// decoded a second time from the bytes, as FORMAT.md says, and checked against the builder's rules.
import CityIndex
@_spi(Testing) import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Tries: optional node fields and small inline leaves (FORMAT.md §6)")
struct TrieFormatTests {
    /// A `NODE` or `WNOD` section decoded from its bytes alone (FORMAT.md §6).
    struct DecodedTrie {
        struct Node {
            var offset: Int              // section offset of a stored node; -1 inline
            var firstEntry: Int
            var entryCount: Int
            var bestDelta = 0
            var pathLength = 0           // inner nodes only
            var children: [Int] = []     // indices into `nodes`
            var refs: [Int] = []
            var childLabels: [UInt8] = []
            var isInline: Bool { offset < 0 }
        }

        let bucketCapacity: Int
        let countWidth: Int
        let flags: Int
        let bestWidth: Int
        var nodes: [Node] = []
        /// Per stored node, how many bytes it takes.
        var storedByteCounts: [Int: Int] = [:]

        init(_ kind: String, in bytes: [UInt8]) {
            let range = Fixtures.section(kind, in: bytes)
            let section = Array(bytes[range])
            func varint(_ at: inout Int) -> Int {
                var value = 0, shift = 0
                while true {
                    let byte = Int(section[at]); at += 1
                    value |= (byte & 0x7F) << shift; shift += 7
                    if byte < 0x80 { return value }
                }
            }
            let root = (0..<4).reduce(0) { $0 | Int(section[$1]) << (8 * $1) }
            bucketCapacity = Int(section[4])
            countWidth = Int(section[5])
            flags = Int(section[6])
            #expect(section[7] == 0)
            let largestBucket = min(bucketCapacity, (1 << countWidth) + 1)
            bestWidth = flags & 2 != 0 && largestBucket > 1 ? Int.bitWidth - (largestBucket - 1).leadingZeroBitCount : 0
            var nodes: [Node] = []
            var storedByteCounts: [Int: Int] = [:]
            func read(_ offset: Int, parentFirstEntry: Int) -> Int {
                var at = offset
                let firstEntry = parentFirstEntry + varint(&at)
                let entryCount = varint(&at)
                let shape = varint(&at)
                var node = Node(offset: offset, firstEntry: firstEntry, entryCount: entryCount)
                if shape > 0 {
                    let childCount = (shape - 1) >> 2 + 1, refWidth = (shape - 1) & 3 + 1
                    node.pathLength = varint(&at)
                    if flags & 1 != 0 { _ = varint(&at) }              // repeatCount
                    if flags & 2 != 0 { node.bestDelta = varint(&at) }
                    node.childLabels = Array(section[at ..< at + childCount])
                    at += childCount
                    for index in 0 ..< childCount {
                        let ref = (0 ..< refWidth).reduce(0) { $0 | Int(section[at + index * refWidth + $1]) << (8 * $1) }
                        node.refs.append(ref)
                        if ref & 1 == 0 {
                            node.children.append(read(offset - ref >> 1, parentFirstEntry: firstEntry))
                        } else if ref & 2 == 0 {
                            nodes.append(Node(offset: -1, firstEntry: firstEntry + ref >> 2, entryCount: 1))
                            node.children.append(nodes.count - 1)
                        } else {
                            var value = ref >> 2
                            let best = value & (1 << bestWidth - 1)
                            value >>= bestWidth
                            let count = value & (1 << countWidth - 1) + 2
                            nodes.append(Node(offset: -1, firstEntry: firstEntry + value >> countWidth, entryCount: count,
                                              bestDelta: count <= bucketCapacity ? best : 0))
                            node.children.append(nodes.count - 1)
                        }
                    }
                    at += childCount * refWidth
                } else if flags & 2 != 0 && bucketCapacity > 1 && (2 ... bucketCapacity).contains(entryCount) {
                    node.bestDelta = varint(&at)
                }
                storedByteCounts[offset] = at - offset
                nodes.append(node)
                return nodes.count - 1
            }
            _ = read(root, parentFirstEntry: 0)
            self.nodes = nodes
            self.storedByteCounts = storedByteCounts
        }

        var leaves: [Node] { nodes.filter(\.children.isEmpty) }
    }

    static let populatedList = BoundedMemoryBuildTests.syntheticList(count: 3_000, seed: 11)

    /// The populated list without its populations.
    static var unpopulatedList: [UInt8] {
        let text = String(decoding: populatedList, as: UTF8.self)
        return Array(text.replacing(/,"population":\d+/, with: "").utf8)
    }

    @Test("small inline leaves: every leaf of one entry, and leaves of a few, live in their parent's refs when that is cheaper")
    func smallInlineLeaves() throws {
        for (list, populated) in [(Self.populatedList, true), (Self.unpopulatedList, false)] {
            let built = try IndexBuilder().build(jsonBytes: list)
            let index = try CityIndex(bytes: built.bytes)
            try index.verify()
            for kind in ["NODE", "WNOD"] {
                let trie = DecodedTrie(kind, in: built.bytes)
                // Header: NODE stores no repeat counts, and best deltas only with populations.
                #expect(trie.bucketCapacity == (kind == "NODE" ? 1 : 8))
                #expect(trie.countWidth == (kind == "NODE" ? 1 : 3))
                #expect(trie.flags == (kind == "WNOD" ? 3 : populated ? 2 : 0))
                // The leaves (and inner nodes' own entries) partition the entries.
                let total = trie.nodes.last!.entryCount
                var covered = [Bool](repeating: false, count: total)
                for node in trie.nodes {
                    let childEntries = node.children.reduce(0) { $0 + trie.nodes[$1].entryCount }
                    let own = node.children.isEmpty ? node.entryCount : node.entryCount - childEntries
                    for entry in node.firstEntry ..< node.firstEntry + own {
                        #expect(!covered[entry], "\(kind) entry \(entry) twice")
                        covered[entry] = true
                    }
                }
                #expect(covered.allSatisfy { $0 }, "\(kind): an entry in no leaf")
                // Every leaf of one entry is inline; so are small leaves, unless storing them
                // (and narrowing the refs) takes fewer bytes.
                #expect(trie.leaves.allSatisfy { $0.entryCount > 1 || $0.isInline })
                let inlineSmall = trie.leaves.count { $0.isInline && $0.entryCount > 1 }
                #expect(inlineSmall > 0, "\(kind): no small inline leaf")
                func width(_ refs: [Int]) -> Int { refs.max()! < 1 << 8 ? 1 : refs.max()! < 1 << 16 ? 2 : refs.max()! < 1 << 24 ? 3 : 4 }
                for node in trie.nodes where !node.children.isEmpty {
                    let small = node.children.filter {
                        trie.nodes[$0].children.isEmpty && (2 ... (1 << trie.countWidth) + 1).contains(trie.nodes[$0].entryCount)
                    }
                    guard !small.isEmpty else { continue }
                    let inline = small.allSatisfy { trie.nodes[$0].isInline }
                    #expect(inline || small.allSatisfy { !trie.nodes[$0].isInline }, "\(kind) node \(node.offset): mixed")
                    // The other choice, worked out from FORMAT.md: the same refs with those leaves
                    // inline (or stored just before the node), and the stored leaves' bytes.
                    let storedBytes = small.reduce(0) { $0 + (inline ? Self.leafByteCount(trie.nodes[$1], parent: node, trie: trie)
                                                                     : trie.storedByteCounts[trie.nodes[$1].offset]!) }
                    var otherRefs = node.refs
                    var leafOffset = node.offset
                    for (position, child) in node.children.enumerated() {
                        let leaf = trie.nodes[child]
                        if small.contains(child) {
                            if inline {
                                otherRefs[position] = (node.offset + storedBytes - leafOffset) << 1
                                leafOffset += Self.leafByteCount(leaf, parent: node, trie: trie)
                            } else {
                                let bestDelta = leaf.entryCount <= trie.bucketCapacity ? leaf.bestDelta : 0
                                otherRefs[position] = (((leaf.firstEntry - node.firstEntry) << trie.countWidth | (leaf.entryCount - 2))
                                                       << trie.bestWidth | bestDelta) << 2 | 3
                            }
                        } else if node.refs[position] & 1 == 0 {
                            // A stored child is as far again as the leaves moved.
                            otherRefs[position] = node.refs[position] + (inline ? storedBytes : -storedBytes) << 1
                        }
                    }
                    let chosen = (inline ? 0 : storedBytes) + node.children.count * width(node.refs)
                    let other = (inline ? storedBytes : 0) + node.children.count * width(otherRefs)
                    #expect(inline ? chosen <= other : chosen < other, "\(kind) node \(node.offset): the builder's choice is not the cheaper")
                }
            }
            // Searches read the small leaves as the stored ones they replace (differential
            // tests on real data cover the rest).
            let reference = NaiveWordSearch(cities: try JSONDecoder().decode([ReferenceCity].self, from: Data(list)))
            for query in ["san", "ta", "berlin", "mo", "york", "new y", "ville", "ø", "ск"] {
                for order in ResultOrder.allCases {
                    #expect(try index.search(query, matching: .words, order: order).map(\.id)
                            == reference.search(query, byPopulation: order == .population).map(\.id), "\(query) \(order)")
                }
            }
        }
    }

    @Test("word-trie buckets hang only below paths of 4 bytes or more; above, a subtree of a few keys is written node by node")
    func bucketsOnlyBelowLongPaths() throws {
        // Single words, so one word key per city: "x…" and "moor…" each fit one bucket of at
        // most 8 entries; only below "moor" (4 bytes) may one be a bucket.
        let names = ["Xanadu", "Xebec", "Xilo", "Moorland", "Moorlake", "Moorside", "Moorview", "Moorfield"]
        let json = "[" + names.enumerated().map { id, name in
            #"{"country":"GB","name":"\#(name)","_id":\#(id + 1),"coord":{"lon":1.5,"lat":50.25}}"#
        }.joined(separator: ",") + "]"
        let built = try IndexBuilder().build(jsonBytes: Array(json.utf8))
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        let trie = DecodedTrie("WNOD", in: built.bytes)
        #expect(trie.bucketCapacity == 8)
        func child(_ node: DecodedTrie.Node, _ label: Character) throws -> DecodedTrie.Node {
            let position = try #require(node.childLabels.firstIndex(of: label.asciiValue!))
            return trie.nodes[node.children[position]]
        }
        let root = try #require(trie.nodes.last)
        let x = try child(root, "x")
        #expect(!x.isInline && x.pathLength == 1 && x.childLabels == Array("aei".utf8))
        #expect(x.children.allSatisfy { trie.nodes[$0].entryCount == 1 })
        let moor = try child(root, "m")
        #expect(!moor.isInline && moor.pathLength == 4 && moor.childLabels == Array("flsv".utf8))
        let moorla = try child(moor, "l")
        #expect(moorla.children.isEmpty && moorla.entryCount == 2, "\"moorlake\" and \"moorland\": one bucket")
        let reference = NaiveWordSearch(cities: try JSONDecoder().decode([ReferenceCity].self, from: Data(json.utf8)))
        for query in ["x", "xe", "m", "moor", "moorla", "moorlan", "moors", "y"] {
            #expect(try index.search(query, matching: .words).map(\.id) == reference.search(query, byPopulation: false).map(\.id), "\(query)")
        }
    }

    /// The bytes of `leaf` stored as a node below `parent` (FORMAT.md §6).
    static func leafByteCount(_ leaf: DecodedTrie.Node, parent: DecodedTrie.Node, trie: DecodedTrie) -> Int {
        func length(_ value: Int) -> Int { max(1, (Int.bitWidth - value.leadingZeroBitCount + 6) / 7) }
        let namesBest = trie.flags & 2 != 0 && trie.bucketCapacity > 1 && (2 ... trie.bucketCapacity).contains(leaf.entryCount)
        return length(leaf.firstEntry - parent.firstEntry) + length(leaf.entryCount) + 1 + (namesBest ? length(leaf.bestDelta) : 0)
    }

    @Test("a leaf whose inline ref would pass the largest reference is stored instead (limit lowered to reach it), with the same answers")
    func farLeavesAreStored() throws {
        let normal = try CityIndex(bytes: IndexBuilder().build(jsonBytes: Self.populatedList).bytes)
        var builder = IndexBuilder()
        builder.limits.largestInlineChildReference = 15
        let built = try builder.build(jsonBytes: Self.populatedList)
        let index = try CityIndex(bytes: built.bytes)
        try index.verify()
        for kind in ["NODE", "WNOD"] {
            let trie = DecodedTrie(kind, in: built.bytes)
            let refs = trie.nodes.flatMap { node in node.refs.filter { $0 & 1 == 1 } }
            #expect(!refs.isEmpty && refs.allSatisfy { $0 <= 15 }, "\(kind)")
            #expect(trie.leaves.contains { $0.entryCount == 1 && !$0.isInline }, "\(kind): no stored leaf of one entry")
        }
        for query in ["", "s", "san", "ta", "ber", "mo", "york", "ville"] {
            for matching in MatchMode.allCases {
                for order in ResultOrder.allCases {
                let expected = try normal.search(query, matching: matching, order: order, limit: 50)
                let found = try index.search(query, matching: matching, order: order, limit: 50)
                #expect(found.map(\.id) == expected.map(\.id) && found.totalCount == expected.totalCount, "\(query) \(matching) \(order)")
                }
            }
        }
    }

    @Test("a trie header with a small-leaf count width above 8, an undefined flag bit or a nonzero reserved byte is refused at open")
    func invalidHeaders() throws {
        let bytes = Fixtures.smallIndexBytes
        for kind in ["NODE", "WNOD"] {
            let base = Fixtures.section(kind, in: bytes).lowerBound
            for (at, value) in [(5, 9), (5, 255), (6, 4), (6, 0x80), (7, 1)] {
                var changed = bytes
                changed[base + at] = UInt8(value)
                #expect(throws: IndexFileError.corruptNode(nodeOffset: 5, reason: .invalidSectionHeader), "\(kind) byte \(at) = \(value)") {
                    try CityIndex(bytes: changed)
                }
            }
            // Every width up to 8 and every defined flag passes the header's check: the file
            // opens, or a node read with the changed layout is refused (a flag that adds a field
            // shifts the root's bytes), never the header. What opens is checked as read.
            for (at, value) in [(5, 0), (5, 8), (6, 0), (6, 1), (6, 3)] {
                var changed = bytes
                changed[base + at] = UInt8(value)
                let opened: CityIndex
                do throws(IndexFileError) {
                    opened = try CityIndex(bytes: changed)
                } catch {
                    if case .corruptNode(_, .invalidSectionHeader) = error {
                        Issue.record("\(kind) byte \(at) = \(value): the header was refused")
                    }
                    continue
                }
                // Reads through the changed layout answer or throw IndexFileError; they never trap.
                _ = try? opened.search("a", matching: .words, order: .population)
            }
        }
    }
}
