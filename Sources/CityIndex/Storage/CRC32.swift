// CRC32.swift: CRC-32 (IEEE 802.3, the polynomial of zlib, gzip and PNG), without Foundation.

/// CRC-32 as computed by zlib's `crc32()`: reflected polynomial 0xEDB88320, initial value
/// and final XOR 0xFFFFFFFF. Slicing-by-8: eight table lookups per 8 bytes.
package enum CRC32 {
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for byte in 0..<256 {
            var value = UInt32(byte)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            tables[0][byte] = value
        }
        for byte in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[slice - 1][byte]
                tables[slice][byte] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// Continues checksum `crc` (start with 0) over `bytes`. O(n).
    package static func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        var value = ~crc
        var index = 0
        let count = bytes.count
        tables.withUnsafeBufferPointer { tables in
            let t0 = tables[0], t1 = tables[1], t2 = tables[2], t3 = tables[3]
            let t4 = tables[4], t5 = tables[5], t6 = tables[6], t7 = tables[7]
            t0.withUnsafeBufferPointer { t0 in t1.withUnsafeBufferPointer { t1 in
            t2.withUnsafeBufferPointer { t2 in t3.withUnsafeBufferPointer { t3 in
            t4.withUnsafeBufferPointer { t4 in t5.withUnsafeBufferPointer { t5 in
            t6.withUnsafeBufferPointer { t6 in t7.withUnsafeBufferPointer { t7 in
                while count - index >= 8 {
                    let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ value
                    let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                    value = t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)]
                        ^ t5[Int((low >> 16) & 0xFF)] ^ t4[Int(low >> 24)]
                        ^ t3[Int(high & 0xFF)] ^ t2[Int((high >> 8) & 0xFF)]
                        ^ t1[Int((high >> 16) & 0xFF)] ^ t0[Int(high >> 24)]
                    index += 8
                }
                while index < count {
                    value = (value >> 8) ^ t0[Int((value ^ UInt32(bytes[index])) & 0xFF)]
                    index += 1
                }
            } } } } } } } }
        }
        return ~value
    }

    /// The checksum of an index file (FORMAT.md §8): CRC-32 of all its bytes with the four
    /// checksum bytes taken as zero.
    package static func indexChecksum(of file: UnsafeRawBufferPointer) -> UInt32 {
        let checksumOffset = FormatConstants.checksumOffset
        var crc = update(0, with: UnsafeRawBufferPointer(rebasing: file[0..<checksumOffset]))
        let zero: UInt32 = 0
        crc = withUnsafeBytes(of: zero) { update(crc, with: $0) }
        return update(crc, with: UnsafeRawBufferPointer(rebasing: file[(checksumOffset + 4)...]))
    }
}
