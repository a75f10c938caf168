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

    /// A whole member holding `bytes`: a 10-byte header (no time, no name, "unknown" OS so the
    /// output does not depend on the machine), the raw DEFLATE stream, CRC-32 and length.
    static func member(containing bytes: [UInt8]) throws(InputError) -> [UInt8] {
        var output = magic + [deflateMethod, 0, 0, 0, 0, 0, 2, 0xFF]
        output += try RawDeflate.compress(bytes)
        let crc = bytes.withUnsafeBytes { CRC32.update(0, with: $0) }
        appendLittleEndian(crc, to: &output)
        appendLittleEndian(UInt32(truncatingIfNeeded: bytes.count), to: &output)
        return output
    }

    private static func appendLittleEndian(_ value: UInt32, to output: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
