// XZ+Lzma.swift: xz streams with liblzma (every platform but Apple's).
#if !canImport(Compression)
import CLzma

/// Decompresses an .xz stream (concatenated streams allowed) chunk by chunk.
final class XZSource: ByteSource {
    private let source: ByteSource
    private var stream = lzma_stream()
    /// Compressed input; manually allocated so `stream.next_in` stays valid between calls.
    private let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    private var inputEnded = false
    private var finished = false

    init(_ source: ByteSource) throws(InputError) {
        self.source = source
        guard cityindex_lzma_stream_decoder(&stream) == LZMA_OK else {
            input.deallocate()
            throw .corruptCompressedData(format: .xz, detail: "liblzma could not start")
        }
    }

    deinit {
        lzma_end(&stream)   // a no-op when the stream already ended
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        while true {
            if stream.avail_in == 0 && !inputEnded {
                let count = try source.read(into: UnsafeMutableRawBufferPointer(input))
                stream.next_in = UnsafePointer(input.baseAddress)
                stream.avail_in = count
                inputEnded = count == 0
            }
            stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            stream.avail_out = buffer.count
            let status = lzma_code(&stream, inputEnded ? LZMA_FINISH : LZMA_RUN)
            let produced = buffer.count - stream.avail_out
            switch status {
            case LZMA_STREAM_END:
                finished = true
                // Free the dictionary (up to 64 MiB) now: the build's later phases need the memory.
                lzma_end(&stream)
                return produced
            case LZMA_OK:
                if produced > 0 { return produced }
            case LZMA_BUF_ERROR:
                if produced > 0 { return produced }
                throw .truncatedCompressedData(format: .xz)
            case LZMA_DATA_ERROR: throw .corruptCompressedData(format: .xz, detail: "the compressed data is corrupt")
            case LZMA_FORMAT_ERROR: throw .corruptCompressedData(format: .xz, detail: "not an .xz stream")
            case LZMA_OPTIONS_ERROR: throw .corruptCompressedData(format: .xz, detail: "unsupported compression options")
            case LZMA_MEM_ERROR: throw .corruptCompressedData(format: .xz, detail: "out of memory")
            default: throw .corruptCompressedData(format: .xz, detail: "liblzma error \(status.rawValue)")
            }
        }
    }
}

/// xz compression with liblzma, preset 9, CRC-64 check, fed in chunks. The output does not
/// depend on how the input is cut. Memory: liblzma's encoder at preset 9 (about 674 MiB, most
/// of it the match finder of a 64 MiB dictionary) and one 64 KiB output chunk.
final class XZEncoder: StreamingEncoder {
    private var stream = lzma_stream()
    private let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)

    init() throws(InputError) {
        guard cityindex_lzma_easy_encoder(&stream, 9) == LZMA_OK else {
            output.deallocate()
            throw .corruptCompressedData(format: .xz, detail: "liblzma could not start compressing")
        }
    }

    deinit {
        lzma_end(&stream)
        output.deallocate()
    }

    func encode(_ input: UnsafeRawBufferPointer, isLast: Bool, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        // liblzma reports a call that can make no progress as an error (LZMA_BUF_ERROR).
        guard isLast || !input.isEmpty else { return }
        stream.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_in = input.count
        defer { stream.next_in = nil }
        while true {
            stream.next_out = output.baseAddress
            stream.avail_out = output.count
            let status = lzma_code(&stream, isLast ? LZMA_FINISH : LZMA_RUN)
            let produced = output.count - stream.avail_out
            if produced > 0 { try write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[..<produced])) }
            switch status {
            case LZMA_STREAM_END: return
            case LZMA_OK: if !isLast && stream.avail_in == 0 && stream.avail_out > 0 { return }
            default: throw InputError.corruptCompressedData(format: .xz, detail: "liblzma error \(status.rawValue) while compressing")
            }
        }
    }
}
#endif
