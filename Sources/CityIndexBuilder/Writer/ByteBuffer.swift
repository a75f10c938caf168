// ByteBuffer.swift: little-endian appends for writing sections.

/// Appends little-endian integers, LEB128 varints and raw bytes to a growing buffer.
struct ByteBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }
    mutating func appendUInt8(_ value: UInt8) { bytes.append(value) }
    mutating func appendUInt16(_ value: UInt16) { appendLittleEndian(UInt64(value), byteCount: 2) }
    mutating func appendUInt32(_ value: UInt32) { appendLittleEndian(UInt64(value), byteCount: 4) }
    mutating func appendUInt64(_ value: UInt64) { appendLittleEndian(value, byteCount: 8) }

    /// Appends the low `byteCount` bytes of `value`, least significant first.
    mutating func appendLittleEndian(_ value: UInt64, byteCount: Int) {
        for index in 0..<byteCount { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// Appends `value` as an unsigned LEB128 varint (1–5 bytes).
    mutating func appendVarint(_ value: UInt32) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends zero bytes up to the next multiple of `alignment`.
    mutating func pad(toMultipleOf alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Overwrites four bytes at `offset` with `value`.
    mutating func overwriteUInt32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }
}

/// How many bytes `appendVarint` takes for `value` (1–5). O(1).
func varintByteCount(_ value: Int) -> Int {
    max(1, (Int.bitWidth - value.leadingZeroBitCount + 6) / 7)
}
