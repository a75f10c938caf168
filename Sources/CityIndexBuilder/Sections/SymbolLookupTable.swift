// SymbolLookupTable.swift: symbol number by (length, bytes), for the name coder's inner loop.

/// Maps a symbol of 1–8 bytes (its bytes little-endian in a word, and its length) to its
/// number: open addressing with linear probing over a power-of-two table at most half full,
/// and a multiplicative hash. The coder probes several lengths at every position of every
/// name, so this replaces a `Dictionary` whose SipHash took about 5% of a build (perf). A slot
/// holds key, length and number together: one cache line per probe.
///
/// - Complexity: O(1) expected per lookup; 16 bytes per slot, twice the symbol count or more.
struct SymbolLookupTable {
    private struct Slot {
        var key: UInt64 = 0
        /// The symbol number + 1 (0: an empty slot).
        var number: UInt32 = 0
        var length: UInt32 = 0
    }

    private var slots: [Slot]
    private let shift: UInt64

    init(capacityFor count: Int) {
        var bits = 4
        while 1 << bits < 2 * count { bits += 1 }
        slots = Array(repeating: Slot(), count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    @inline(__always)
    private func slot(_ key: UInt64, _ length: Int) -> Int {
        Int(truncatingIfNeeded: ((key ^ UInt64(length) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> shift)
    }

    /// Records `number` for the symbol `key` of `length` bytes (a later insert of the same
    /// symbol replaces it).
    mutating func insert(_ key: UInt64, length: Int, number: Int) {
        let mask = slots.count - 1
        var index = slot(key, length)
        while slots[index].number != 0, slots[index].key != key || Int(slots[index].length) != length { index = (index + 1) & mask }
        slots[index] = Slot(key: key, number: UInt32(number + 1), length: UInt32(length))
    }

    /// The number of the symbol `key` of `length` bytes, if there is one.
    @inline(__always)
    func number(of key: UInt64, length: Int) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = slot(key, length)
            while slots[index].number != 0 {
                if slots[index].key == key, Int(slots[index].length) == length { return Int(slots[index].number - 1) }
                index = (index + 1) & mask
            }
            return nil
        }
    }
}
