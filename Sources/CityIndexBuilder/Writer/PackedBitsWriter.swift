// PackedBitsWriter.swift: encoder twin of PackedBits and PackedArray (FORMAT.md §1).
import CityIndex

/// Appends fixed-width fields to a bit string of 64-bit little-endian words: bit *b* is bit
/// `b % 64` of word `b / 64`, so a field may straddle two words.
struct PackedBitsWriter {
    private var words: [UInt64] = []
    private(set) var bitCount = 0

    init(capacity bitCount: Int = 0) { words.reserveCapacity((bitCount + 63) / 64) }

    /// Appends the low `width` bits of `value` (0…64), which must hold nothing above them.
    mutating func append(_ value: UInt64, width: Int) {
        precondition(width == 64 || value >> UInt64(width) == 0, "value does not fit its width")
        guard width > 0 else { return }
        let shift = bitCount & 63
        if shift == 0 { words.append(0) }
        words[words.count - 1] |= value << UInt64(shift)
        if shift + width > 64 { words.append(value >> UInt64(64 - shift)) }
        bitCount += width
    }

    /// The words as little-endian bytes: `PackedBits.byteCount(bitCount:)` of them.
    var bytes: [UInt8] {
        var writer = ByteWriter(capacity: words.count * 8)
        for word in words { writer.appendUInt64(word) }
        return writer.bytes
    }

    /// A `PackedArray` section: the widths and the count, then each value in
    /// `width + secondWidth` bits.
    static func arraySection(_ values: some Collection<UInt64>, width: Int, secondWidth: Int = 0) -> [UInt8] {
        var header = ByteWriter(capacity: IndexLayout.packedHeaderByteCount)
        header.appendUInt8(UInt8(width))
        header.appendUInt8(UInt8(secondWidth))
        header.appendUInt16(0)
        header.appendUInt32(UInt32(values.count))
        var bits = PackedBitsWriter(capacity: values.count * (width + secondWidth))
        for value in values { bits.append(value, width: width + secondWidth) }
        return header.bytes + bits.bytes
    }
}
