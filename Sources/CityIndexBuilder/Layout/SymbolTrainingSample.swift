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
    private var heap: [Entry] = []
    /// The kept names' bytes, and the bytes of dropped ones until the next compaction. One
    /// buffer, not an array per name: a million small arrays that outlive the build's
    /// temporaries would fragment the heap (measured: 150 MB at 1 million cities).
    private var text: [UInt8] = []
    private var byteCount = 0

    init(byteBudget: Int = defaultByteBudget) { self.byteBudget = byteBudget }

    mutating func offer(_ name: [UInt8], cityID: UInt32) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for shift in stride(from: 0, to: 32, by: 8) { hash = (hash ^ UInt64(UInt8(truncatingIfNeeded: cityID >> UInt32(shift)))) &* 0x0000_0100_0000_01B3 }
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        if byteCount + name.count > byteBudget, let top = heap.first, !isAbove(top, hash, name[...]) { return }
        text.append(contentsOf: name)
        push(Entry(hash: hash, start: text.count - name.count, count: name.count))
        byteCount += name.count
        while byteCount > byteBudget, heap.count > 1 { byteCount -= pop().count }
        if text.count > 2 * byteBudget { compact() }
    }

    /// The names kept, in (hash, bytes) order.
    var names: [ArraySlice<UInt8>] {
        heap.sorted { isAbove($1, $0.hash, bytes(of: $0)) }.map { Array(bytes(of: $0)) }.map { $0[...] }
    }

    private func bytes(of entry: Entry) -> ArraySlice<UInt8> { text[entry.start ..< entry.start + entry.count] }

    /// Whether `entry` comes after (`hash`, `name`).
    private func isAbove(_ entry: Entry, _ hash: UInt64, _ name: ArraySlice<UInt8>) -> Bool {
        entry.hash != hash ? entry.hash > hash : name.lexicographicallyPrecedes(bytes(of: entry))
    }

    private func isAbove(_ a: Entry, _ b: Entry) -> Bool { isAbove(a, b.hash, bytes(of: b)) }

    /// Keeps only the bytes of the names kept.
    private mutating func compact() {
        var compacted: [UInt8] = []
        compacted.reserveCapacity(byteCount)
        for index in heap.indices {
            let start = compacted.count
            compacted.append(contentsOf: bytes(of: heap[index]))
            heap[index].start = start
        }
        text = compacted
    }

    private mutating func push(_ element: Entry) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isAbove(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count, isAbove(heap[left], heap[largest]) { largest = left }
                if right < heap.count, isAbove(heap[right], heap[largest]) { largest = right }
                if largest == parent { break }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        return top
    }
}
