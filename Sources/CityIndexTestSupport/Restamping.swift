// Restamping.swift: an index file's checksum rewritten after a test changed its bytes.

extension Fixtures {
    /// `bytes` with the header's checksum (FORMAT.md §8) recomputed, so that only the
    /// structural checks of `verify()` can object to a change a test made. The CRC-32 is
    /// computed here, bit by bit, independently of the library's table-driven one.
    public static func restamped(_ bytes: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in copy {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        copy.replaceSubrange(8..<12, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
        return copy
    }
}
