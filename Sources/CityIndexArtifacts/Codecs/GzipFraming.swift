// GzipFraming.swift: the gzip member layout of RFC 1952, shared by reading and writing.
import CityIndex

/// The bytes around a DEFLATE stream in a gzip member (RFC 1952 §2.3):
/// `Member --> 1F 8B, method:u8 (8), flags:u8, mtime:u32, extraFlags:u8, os:u8,
///  [extraLength:u16, extra:u8^extraLength], [name:u8* 00], [comment:u8* 00], [headerCRC:u16],
///  deflate, crc32:u32, inputSize:u32` (little-endian; the bracketed parts per flag bit).
enum GzipFraming {
    static let magic: [UInt8] = [0x1F, 0x8B]
    static let deflateMethod: UInt8 = 8
    static let textFlag: UInt8 = 0x01, headerCRCFlag: UInt8 = 0x02, extraFlag: UInt8 = 0x04
    static let nameFlag: UInt8 = 0x08, commentFlag: UInt8 = 0x10
    /// Bits 5–7 of the flags are reserved and must be zero.
    static let reservedFlags: UInt8 = 0xE0
    static let trailerByteCount = 8

    /// The 10-byte header the encoder writes: no time, no name, "unknown" OS, so that the
    /// output does not depend on the machine.
    static let header: [UInt8] = magic + [deflateMethod, 0, 0, 0, 0, 0, 2, 0xFF]

    /// The trailer: CRC-32 and length (modulo 2³²) of the uncompressed bytes.
    static func trailer(crc: UInt32, byteCount: UInt32) -> [UInt8] {
        var output: [UInt8] = []
        for value in [crc, byteCount] {
            for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return output
    }
}
