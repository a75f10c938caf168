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

/// Whole-buffer raw DEFLATE compression with zlib, level 9.
enum RawDeflate {
    static func compress(_ bytes: [UInt8]) throws(InputError) -> [UInt8] {
        var stream = z_stream()
        guard cityindex_deflateInit2_raw(&stream) == Z_OK else {
            throw .corruptCompressedData(format: .gzip, detail: "zlib could not start compressing")
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw .corruptCompressedData(format: .gzip, detail: "zlib error \(status)") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
#endif
