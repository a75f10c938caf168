// GzipSource.swift: gzip decompression with zlib, streaming.
import CZlib

/// Decompresses a gzip stream chunk by chunk; concatenated members are read in turn.
final class GzipSource: ByteSource {
    private let source: ByteSource
    private var stream = z_stream()
    /// Compressed input; manually allocated so `stream.next_in` stays valid between calls.
    private let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    private var inputEnded = false
    private var finished = false

    init(_ source: ByteSource) throws(InputError) {
        self.source = source
        guard cityindex_inflateInit2(&stream, 15 + 16) == Z_OK else {
            input.deallocate()
            throw .corruptCompressedData(format: .gzip, detail: "zlib could not start")
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    private func refill() throws(InputError) {
        let count = try source.read(into: UnsafeMutableRawBufferPointer(input))
        stream.next_in = input.baseAddress
        stream.avail_in = UInt32(count)
        inputEnded = count == 0
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        while true {
            if stream.avail_in == 0 && !inputEnded { try refill() }
            stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = UInt32(buffer.count)
            let status = inflate(&stream, Z_NO_FLUSH)
            let produced = buffer.count - Int(stream.avail_out)
            switch status {
            case Z_STREAM_END:
                if stream.avail_in == 0 && !inputEnded { try refill() }
                if stream.avail_in == 0 { finished = true } else { inflateReset(&stream) }
                if produced > 0 || finished { return produced }
            case Z_OK, Z_BUF_ERROR:
                if produced > 0 { return produced }
                if inputEnded && stream.avail_in == 0 { throw .truncatedCompressedData(format: .gzip) }
            default:
                let detail = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .corruptCompressedData(format: .gzip, detail: detail)
            }
        }
    }
}
