// AppleCompressionStream.swift: raw DEFLATE and xz with Apple's Compression framework.
#if canImport(Compression)
import Compression

/// One `compression_stream` of Apple's Compression framework, owned: `COMPRESSION_ZLIB` is raw
/// DEFLATE (RFC 1951, no wrapper), `COMPRESSION_LZMA` is the xz container.
///
/// Not built or run where this package is developed (Linux): `Scripts/typecheck-darwin.sh`
/// type-checks it against a declaration-only copy of the framework's C interface.
final class AppleCompressionStream {
    private let stream: UnsafeMutablePointer<compression_stream>
    private let format: CompressionFormat

    init(_ operation: compression_stream_operation, _ algorithm: compression_algorithm,
         format: CompressionFormat) throws(InputError) {
        self.format = format
        stream = .allocate(capacity: 1)
        guard compression_stream_init(stream, operation, algorithm) == COMPRESSION_STATUS_OK else {
            stream.deallocate()
            throw .corruptCompressedData(format: format, detail: "the Compression framework could not start")
        }
    }

    deinit {
        _ = compression_stream_destroy(stream)
        stream.deallocate()
    }

    /// Processes `input` into `output`; `finalize` says no input follows this.
    /// - Returns: input bytes consumed, output bytes produced, and whether the stream ended.
    func process(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                 finalize: Bool) throws(InputError) -> (consumed: Int, produced: Int, streamEnded: Bool) {
        let outputStart = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // The framework's pointers are non-null: empty input points anywhere valid (it reads 0 bytes).
        stream.pointee.src_ptr = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(outputStart)
        stream.pointee.src_size = input.count
        stream.pointee.dst_ptr = outputStart
        stream.pointee.dst_size = output.count
        let flags = finalize ? Int32(COMPRESSION_STREAM_FINALIZE.rawValue) : 0
        let status = compression_stream_process(stream, flags)
        let consumed = input.count - stream.pointee.src_size, produced = output.count - stream.pointee.dst_size
        if status == COMPRESSION_STATUS_END { return (consumed, produced, true) }
        guard status == COMPRESSION_STATUS_OK else {
            throw .corruptCompressedData(format: format, detail: "the Compression framework reported an error")
        }
        return (consumed, produced, false)
    }
}

/// Inflates one raw DEFLATE stream at a time, in steps; `reset()` starts the next one.
final class RawInflater {
    private var stream: AppleCompressionStream

    init() throws(InputError) { stream = try AppleCompressionStream(COMPRESSION_STREAM_DECODE, COMPRESSION_ZLIB, format: .gzip) }

    /// Inflates from `input` into `output`; `inputEnded` says no input follows this.
    /// - Returns: input bytes consumed, output bytes produced, and whether the DEFLATE
    ///   stream's last block has ended (the bytes after it are not consumed).
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                 inputEnded: Bool) throws(InputError) -> (consumed: Int, produced: Int, streamEnded: Bool) {
        try stream.process(input, into: output, finalize: inputEnded)
    }

    /// Prepares for the next stream (the next gzip member).
    func reset() throws(InputError) { stream = try AppleCompressionStream(COMPRESSION_STREAM_DECODE, COMPRESSION_ZLIB, format: .gzip) }
}

/// Compression with the framework, fed in chunks (`StreamingEncoder`).
class AppleStreamEncoder: StreamingEncoder {
    private let stream: AppleCompressionStream
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)

    init(_ algorithm: compression_algorithm, format: CompressionFormat) throws(InputError) {
        do {
            stream = try AppleCompressionStream(COMPRESSION_STREAM_ENCODE, algorithm, format: format)
        } catch {
            output.deallocate()
            throw error
        }
    }

    deinit { output.deallocate() }

    func encode(_ input: UnsafeRawBufferPointer, isLast: Bool, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var offset = 0
        while true {
            let step = try stream.process(UnsafeRawBufferPointer(rebasing: input[offset...]), into: output, finalize: isLast)
            offset += step.consumed
            if step.produced > 0 { try write(UnsafeRawBufferPointer(rebasing: output[..<step.produced])) }
            if step.streamEnded { return }
            if !isLast && offset == input.count && step.produced < output.count { return }
        }
    }
}

/// Raw DEFLATE (the framework's zlib level 5), fed in chunks.
final class RawDeflateEncoder: AppleStreamEncoder {
    init() throws(InputError) { try super.init(COMPRESSION_ZLIB, format: .gzip) }
}

/// xz (the framework's fixed preset 6), fed in chunks.
final class XZEncoder: AppleStreamEncoder {
    init() throws(InputError) { try super.init(COMPRESSION_LZMA, format: .xz) }
}

/// Decompresses an .xz stream chunk by chunk.
final class XZSource: ByteSource {
    private let source: ByteSource
    private let decoder: AppleCompressionStream
    private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    private var inputStart = 0, inputEnd = 0
    private var inputEnded = false
    private var finished = false

    init(_ source: ByteSource) throws(InputError) {
        self.source = source
        do {
            decoder = try AppleCompressionStream(COMPRESSION_STREAM_DECODE, COMPRESSION_LZMA, format: .xz)
        } catch {
            input.deallocate()
            throw error
        }
    }

    deinit { input.deallocate() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        while true {
            if inputStart == inputEnd && !inputEnded {
                inputEnd = try source.read(into: input)
                inputStart = 0
                inputEnded = inputEnd == 0
            }
            let step = try decoder.process(UnsafeRawBufferPointer(rebasing: input[inputStart ..< inputEnd]),
                                           into: buffer, finalize: inputEnded)
            inputStart += step.consumed
            if step.streamEnded { finished = true }
            if step.produced > 0 || finished { return step.produced }
            if step.consumed == 0 {
                if inputEnded { throw .truncatedCompressedData(format: .xz) }
                if inputStart < inputEnd { throw .corruptCompressedData(format: .xz, detail: "the decoder made no progress") }
            }
        }
    }
}
#endif
