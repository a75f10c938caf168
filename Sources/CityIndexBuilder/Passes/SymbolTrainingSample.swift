// SymbolTrainingSample.swift: a bounded, order-independent sample of alternate-name text.

/// The alternate names to train the symbol table on (`NameSymbolsWriter`): of all names
/// offered, those with the smallest 64-bit FNV-1a hashes of (city id, name), as many as fit in
/// `byteBudget` bytes of text (a bottom-k sample). The id makes each occurrence of a common
/// name an independent draw (hashing the name alone would take all of its copies or none).
/// The sample depends only on the (id, name) pairs offered, never on their order, so a
/// shuffled list trains the same table; memory is bounded by the budget whatever the list's size.
///
/// - Complexity: O(log *k*) per name offered, *k* the names kept.
struct SymbolTrainingSample {
    static let defaultByteBudget = 1 << 20

    /// A kept name: its hash and where its bytes are in `text`.
    private struct Entry {
        var hash: UInt64
        var start: Int
        var count: Int
    }

    private let byteBudget: Int
    /// A max-heap on (hash, bytes): the root is the first name to drop.
    private var heap = BinaryHeap<Entry>()
    /// The kept names' bytes, and the bytes of dropped ones until the next compaction. One
    /// buffer, not an array per name: a million small arrays that outlive the build's
    /// temporaries would fragment the heap.
    private var text: [UInt8] = []
    private var byteCount = 0

    init(byteBudget: Int = defaultByteBudget) { self.byteBudget = byteBudget }

    mutating func offer(_ name: [UInt8], cityID: UInt32) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for shift in stride(from: 0, to: 32, by: 8) { hash = (hash ^ UInt64(UInt8(truncatingIfNeeded: cityID >> UInt32(shift)))) &* 0x0000_0100_0000_01B3 }
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        if byteCount + name.count > byteBudget, let top = heap.first, !Self.isAbove(top, hash, name[...], in: text) { return }
        text.append(contentsOf: name)
        let text = self.text
        heap.push(Entry(hash: hash, start: text.count - name.count, count: name.count)) { Self.isAbove($0, $1, in: text) }
        byteCount += name.count
        while byteCount > byteBudget, heap.count > 1 { byteCount -= heap.pop { Self.isAbove($0, $1, in: text) }!.count }
        if text.count > 2 * byteBudget { compact() }
    }

    /// The names kept, in (hash, bytes) order.
    var names: [ArraySlice<UInt8>] {
        heap.elements.sorted { Self.isAbove($1, $0, in: text) }.map { Array(Self.bytes(of: $0, in: text))[...] }
    }

    private static func bytes(of entry: Entry, in text: [UInt8]) -> ArraySlice<UInt8> { text[entry.start ..< entry.start + entry.count] }

    /// Whether `entry` comes after (`hash`, `name`).
    private static func isAbove(_ entry: Entry, _ hash: UInt64, _ name: ArraySlice<UInt8>, in text: [UInt8]) -> Bool {
        entry.hash != hash ? entry.hash > hash : name.lexicographicallyPrecedes(bytes(of: entry, in: text))
    }

    private static func isAbove(_ a: Entry, _ b: Entry, in text: [UInt8]) -> Bool { isAbove(a, b.hash, bytes(of: b, in: text), in: text) }

    /// Keeps only the bytes of the names kept.
    private mutating func compact() {
        var compacted: [UInt8] = []
        compacted.reserveCapacity(byteCount)
        let text = self.text
        heap.updateEach { entry in
            let start = compacted.count
            compacted.append(contentsOf: Self.bytes(of: entry, in: text))
            entry.start = start
        }
        self.text = compacted
    }
}
