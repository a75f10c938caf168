// StreamingEncoder.swift: compression fed in chunks, so no artifact is ever held whole in memory.
import CityIndex

/// A compressor fed in chunks (`ArtifactCodec.encoder(for:)` picks one). Each call consumes all
/// of `input` and hands the compressed bytes to `write` as they come; the call with `isLast`
/// completes the stream (and nothing is fed after it). The output depends only on the bytes
/// fed, never on how they were cut into chunks.
///
/// Memory: the codec's state and one output chunk, whatever the input's size.
package protocol StreamingEncoder: AnyObject {
    func encode(_ input: UnsafeRawBufferPointer, isLast: Bool, write: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// A gzip member (RFC 1952) around a raw DEFLATE stream: the 10-byte header first, the CRC-32
/// and length of everything fed last (`GzipFraming`).
final class GzipEncoder: StreamingEncoder {
    private let deflater: StreamingEncoder
    private var crc: UInt32 = 0
    private var byteCount: UInt32 = 0
    private var wroteHeader = false

    init() throws(InputError) { deflater = try RawDeflateEncoder() }

    func encode(_ input: UnsafeRawBufferPointer, isLast: Bool, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        if !wroteHeader {
            try GzipFraming.header.withUnsafeBytes { try write($0) }
            wroteHeader = true
        }
        crc = CRC32.update(crc, with: input)
        byteCount &+= UInt32(truncatingIfNeeded: input.count)
        try deflater.encode(input, isLast: isLast, write: write)
        if isLast { try GzipFraming.trailer(crc: crc, byteCount: byteCount).withUnsafeBytes { try write($0) } }
    }
}
