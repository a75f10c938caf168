// SymbolLookupTable.swift: symbol number by (length, bytes), for the name coder's inner loop.

/// Maps a symbol of 1–8 bytes (its bytes little-endian in a word, and its length) to its
/// number: open addressing with linear probing over a power-of-two table at most half full,
/// and a multiplicative hash. The coder probes up to 8 lengths at every position of every
/// name, so this replaces a `Dictionary` whose SipHash took about 5% of a build (perf).
///
/// - Complexity: O(1) expected per lookup; 13 bytes per slot, twice the symbol count or more.
struct SymbolLookupTable {
    private var keys: [UInt64]
    private var lengths: [UInt8]
    /// The symbol number + 1 (0: an empty slot).
    private var numbers: [UInt32]
    private let shift: UInt64

    init(capacityFor count: Int) {
        var bits = 4
        while 1 << bits < 2 * count { bits += 1 }
        keys = Array(repeating: 0, count: 1 << bits)
        lengths = Array(repeating: 0, count: 1 << bits)
        numbers = Array(repeating: 0, count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    @inline(__always)
    private func slot(_ key: UInt64, _ length: Int) -> Int {
        Int(truncatingIfNeeded: ((key ^ UInt64(length) &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> shift)
    }

    /// Records `number` for the symbol `key` of `length` bytes (a later insert of the same
    /// symbol replaces it).
    mutating func insert(_ key: UInt64, length: Int, number: Int) {
        let mask = keys.count - 1
        var index = slot(key, length)
        while numbers[index] != 0, keys[index] != key || Int(lengths[index]) != length { index = (index + 1) & mask }
        keys[index] = key
        lengths[index] = UInt8(length)
        numbers[index] = UInt32(number + 1)
    }

    /// The number of the symbol `key` of `length` bytes, if there is one.
    @inline(__always)
    func number(of key: UInt64, length: Int) -> Int? {
        let mask = keys.count - 1
        var index = slot(key, length)
        while numbers[index] != 0 {
            if keys[index] == key, Int(lengths[index]) == length { return Int(numbers[index] - 1) }
            index = (index + 1) & mask
        }
        return nil
    }
}
