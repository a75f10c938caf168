// Deflate+Zlib.swift: raw DEFLATE streams (RFC 1951) with zlib (every platform but Apple's).
#if !canImport(Compression)
import CZlib

/// Inflates one raw DEFLATE stream at a time, in steps; `reset()` starts the next one.
final class RawInflater {
    private var stream = z_stream()

    init() throws(InputError) {
        guard cityindex_inflateInit2(&stream, -15) == Z_OK else {
            throw .corruptCompressedData(format: .gzip, detail: "zlib could not start")
        }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates from `input` into `output`; `inputEnded` says no input follows this.
    /// - Returns: input bytes consumed, output bytes produced, and whether the DEFLATE
    ///   stream's last block has ended (the bytes after it are not consumed).
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                 inputEnded: Bool) throws(InputError) -> (consumed: Int, produced: Int, streamEnded: Bool) {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = UInt32(input.count)
        stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = UInt32(output.count)
        let status = CZlib.inflate(&stream, Z_NO_FLUSH)
        let consumed = input.count - Int(stream.avail_in), produced = output.count - Int(stream.avail_out)
        stream.next_in = nil
        switch status {
        case Z_STREAM_END: return (consumed, produced, true)
        case Z_OK, Z_BUF_ERROR: return (consumed, produced, false)
        default:
            let detail = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw .corruptCompressedData(format: .gzip, detail: detail)
        }
    }

    /// Prepares for the next stream (the next gzip member).
    func reset() throws(InputError) {
        guard inflateReset(&stream) == Z_OK else { throw .corruptCompressedData(format: .gzip, detail: "zlib could not restart") }
    }
}

/// Raw DEFLATE compression with zlib, level 9, fed in chunks. The output does not depend on
/// how the input is cut (no flush before the end). Memory: zlib's state (about 256 KiB) and
/// one 64 KiB output chunk.
final class RawDeflateEncoder: StreamingEncoder {
    private var stream = z_stream()
    private let output = UnsafeMutableBufferPointer<Bytef>.allocate(capacity: 1 << 16)

    init() throws(InputError) {
        guard cityindex_deflateInit2_raw(&stream) == Z_OK else {
            output.deallocate()
            throw .corruptCompressedData(format: .gzip, detail: "zlib could not start compressing")
        }
    }

    deinit {
        deflateEnd(&stream)
        output.deallocate()
    }

    func encode(_ input: UnsafeRawBufferPointer, isLast: Bool, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var remaining = input
        repeat {
            // zlib counts input in 32 bits: at most 1 GiB per call.
            let piece = UnsafeRawBufferPointer(rebasing: remaining.prefix(1 << 30))
            remaining = UnsafeRawBufferPointer(rebasing: remaining.dropFirst(piece.count))
            let finishing = isLast && remaining.isEmpty
            stream.next_in = UnsafeMutablePointer(mutating: piece.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = UInt32(piece.count)
            defer { stream.next_in = nil }
            while true {
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                let status = deflate(&stream, finishing ? Z_FINISH : Z_NO_FLUSH)
                let produced = output.count - Int(stream.avail_out)
                if produced > 0 { try write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[..<produced])) }
                if status == Z_STREAM_END { break }
                guard status == Z_OK || status == Z_BUF_ERROR else {
                    throw InputError.corruptCompressedData(format: .gzip, detail: "zlib error \(status) while compressing")
                }
                if !finishing && stream.avail_in == 0 && stream.avail_out > 0 { break }
            }
        } while !remaining.isEmpty
    }
}
#endif
