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

    private let byteBudget: Int
    /// A max-heap on (hash, bytes): the root is the first name to drop.
    private var heap: [(hash: UInt64, bytes: [UInt8])] = []
    private var byteCount = 0

    init(byteBudget: Int = defaultByteBudget) { self.byteBudget = byteBudget }

    mutating func offer(_ name: [UInt8], cityID: UInt32) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for shift in stride(from: 0, to: 32, by: 8) { hash = (hash ^ UInt64(UInt8(truncatingIfNeeded: cityID >> UInt32(shift)))) &* 0x0000_0100_0000_01B3 }
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        if byteCount + name.count > byteBudget, let top = heap.first, !Self.isAbove(top, (hash, name)) { return }
        push((hash, name))
        byteCount += name.count
        while byteCount > byteBudget, heap.count > 1 { byteCount -= pop().bytes.count }
    }

    /// The names kept, in hash order.
    var names: [ArraySlice<UInt8>] {
        heap.sorted { Self.isAbove($1, $0) }.map { $0.bytes[...] }
    }

    private static func isAbove(_ a: (hash: UInt64, bytes: [UInt8]), _ b: (hash: UInt64, bytes: [UInt8])) -> Bool {
        a.hash != b.hash ? a.hash > b.hash : b.bytes.lexicographicallyPrecedes(a.bytes)
    }

    private mutating func push(_ element: (hash: UInt64, bytes: [UInt8])) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.isAbove(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() -> (hash: UInt64, bytes: [UInt8]) {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count, Self.isAbove(heap[left], heap[largest]) { largest = left }
                if right < heap.count, Self.isAbove(heap[right], heap[largest]) { largest = right }
                if largest == parent { break }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        return top
    }
}
