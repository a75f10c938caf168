// Compression.swift: whole-buffer gzip and xz, for compressed index artifacts.
import CLzma
import CZlib

/// Compresses and decompresses whole buffers: index artifacts (`build-index --compress`)
/// and what `IndexStore` downloads.
public enum Compression {
    /// `bytes` compressed as gzip (zlib, level 9) or xz (liblzma, preset 9); `.none` returns them as is.
    public static func compress(_ bytes: [UInt8], as format: CompressionFormat) throws(InputError) -> [UInt8] {
        switch format {
        case .none: return bytes
        case .gzip: return try gzip(bytes)
        case .xz: return try xz(bytes)
        }
    }

    /// `bytes` decompressed according to their magic bytes (plain input is returned as is),
    /// refusing more than `maximumByteCount` bytes of output.
    public static func decompress(_ bytes: [UInt8], maximumByteCount: Int = 1 << 32) throws(InputError) -> [UInt8] {
        let format = CompressionFormat.detect(fromPrefix: Array(bytes.prefix(6)))
        guard format != .none else { return bytes }
        let raw = MemorySource(bytes)
        let source: ByteSource = format == .gzip ? try GzipSource(raw) : try XZSource(raw)
        return try InputReading.readAll(from: LimitedSource(source, limitByteCount: maximumByteCount))
    }

    private static func gzip(_ bytes: [UInt8]) throws(InputError) -> [UInt8] {
        var stream = z_stream()
        guard cityindex_deflateInit2_gzip(&stream) == Z_OK else {
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

    private static func xz(_ bytes: [UInt8]) throws(InputError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(lzma_stream_buffer_bound(bytes.count)))
        var outputPosition = 0
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                lzma_easy_buffer_encode(9, LZMA_CHECK_CRC64, nil, input.baseAddress, input.count,
                                        out.baseAddress, &outputPosition, out.count)
            }
        }
        guard status == LZMA_OK else { throw .corruptCompressedData(format: .xz, detail: "liblzma error \(status.rawValue)") }
        output.removeSubrange(outputPosition...)
        return output
    }
}
