// PackedBits.swift: integers of a fixed bit width packed into 64-bit words (FORMAT.md §1).

/// A span of 64-bit little-endian words read as a bit string: bit *b* is bit `b % 64` of word
/// `b / 64`. Fixed-width fields (a record's id, a rank of ⌈log₂ *n*⌉ bits) lie at any bit
/// offset and may straddle two words.
///
/// Invariant (checked by each section reader before it makes one): the span holds
/// `byteCount(bitCount:)` bytes for the fields it will read, so every field read inside
/// `0 ..< bitCount` is in bounds and unchecked.
package struct PackedBits {
    private let words: ByteView

    /// The bytes that hold `bitCount` bits: whole 64-bit words. O(1).
    package static func byteCount(bitCount: Int) -> Int { (bitCount + 63) / 64 * 8 }

    /// `words` must hold the words of every field that will be read: the section reader
    /// checks its size rule first (`byteCount(bitCount:)`).
    init(words: ByteView) {
        self.words = words
    }

    /// The `width`-bit field (0…64 bits) starting at bit `bit`; the field must end at or
    /// before the `bitCount` the span was validated for. O(1): one or two word loads.
    @inline(__always)
    func field(atBit bit: Int, width: Int) -> UInt64 {
        guard width > 0 else { return 0 }
        let word = bit >> 6, shift = bit & 63
        var value = words.uint64(uncheckedAt: word << 3) >> UInt64(shift)
        if shift + width > 64 { value |= words.uint64(uncheckedAt: (word + 1) << 3) << UInt64(64 - shift) }
        return width == 64 ? value : value & ((1 << UInt64(width)) - 1)
    }

    /// Calls `body` with the `count` consecutive `width`-bit fields (1…64 bits; `width` 0
    /// gives `count` zeros) from bit `bit` on, in order; they must end at or before the
    /// `bitCount` the span was validated for. Reads them in one pass, without a multiplication
    /// per field, and with the width's tests and mask once rather than per field as
    /// `field(atBit:width:)` does them: O(`count`).
    @inline(__always)
    func forEachField(fromBit bit: Int, count: Int, width: Int, _ body: (UInt64) -> Void) {
        guard width > 0 else {
            for _ in 0 ..< count { body(0) }
            return
        }
        let mask: UInt64 = width >= 64 ? .max : (1 &<< UInt64(width)) &- 1
        var bit = bit
        for _ in 0 ..< count {
            let word = bit &>> 6, shift = bit & 63
            var value = words.uint64(uncheckedAt: word &<< 3) &>> UInt64(shift)
            if shift &+ width > 64 { value |= words.uint64(uncheckedAt: (word &+ 1) &<< 3) &<< UInt64(64 &- shift) }
            body(value & mask)
            bit &+= width
        }
    }

    /// Starts loading the word that holds bit `bit` (a hint, `ByteView.prefetch(at:)`). O(1).
    @inline(__always)
    func prefetch(atBit bit: Int) { words.prefetch(at: (bit >> 6) << 3) }
}

/// The number of bits that hold every value in `0 ... maximum` (0 for 0).
package func bitWidth(holding maximum: UInt64) -> Int { 64 - maximum.leadingZeroBitCount }
