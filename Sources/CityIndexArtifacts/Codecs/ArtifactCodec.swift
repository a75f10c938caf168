// ArtifactCodec.swift: the one place that picks a decompressor or a compressor.

/// Compresses and decompresses city lists and index artifacts (`build-index --compress`,
/// what `IndexStore` downloads). The format is detected from the first bytes, never from a
/// name, and output is always bounded.
///
/// Platforms: gzip framing (RFC 1952: header, CRC-32 and length trailer, concatenated
/// members) is this module's own code everywhere; the DEFLATE and LZMA streams inside come
/// from Apple's Compression framework on Apple platforms and from zlib and liblzma elsewhere
/// (`Platform/`). Apple's encoder writes xz at its fixed preset 6, liblzma at preset 9, so
/// artifacts differ in size (not in content) between the two.
package enum ArtifactCodec {
    /// Wraps `raw` so that reading it yields the decompressed bytes, after detecting the
    /// format from its first bytes. Reading more than `maximumByteCount` bytes of output
    /// throws `InputError.inputTooLarge`.
    /// - Complexity: O(1) here; decoding costs O(output) as it is read.
    package static func decompressing(_ raw: ByteSource, maximumByteCount: Int) throws(InputError)
        -> (source: ByteSource, format: CompressionFormat) {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: CompressionFormat.magicByteCount, alignment: 1)
        defer { scratch.deallocate() }
        var prefixCount = 0
        while prefixCount < scratch.count {
            let count = try raw.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[prefixCount...]))
            if count == 0 { break }
            prefixCount += count
        }
        let prefix = Array(scratch[..<prefixCount])
        let format = CompressionFormat.detect(fromPrefix: prefix)
        let replayed = PrefixedSource(prefix: prefix, rest: raw)
        let decoded: ByteSource
        switch format {
        case .none: decoded = replayed
        case .gzip: decoded = try GzipSource(replayed)
        case .xz: decoded = try XZSource(replayed)
        }
        return (LimitedSource(decoded, limitByteCount: maximumByteCount), format)
    }

    /// `bytes` decompressed according to their first bytes (plain bytes are returned as
    /// they are), refusing more than `maximumByteCount` bytes of output.
    package static func decompress(_ bytes: [UInt8], maximumByteCount: Int) throws(InputError) -> [UInt8] {
        guard CompressionFormat.detect(fromPrefix: bytes.prefix(CompressionFormat.magicByteCount)) != .none else {
            guard bytes.count <= maximumByteCount else { throw .inputTooLarge(limitByteCount: maximumByteCount) }
            return bytes
        }
        return try decompressing(MemorySource(bytes), maximumByteCount: maximumByteCount).source.readAll()
    }

    /// `bytes` compressed as gzip or xz; `.none` returns them as they are. Deterministic on
    /// a given platform (the gzip header records no time or name).
    package static func compress(_ bytes: [UInt8], as format: CompressionFormat) throws(InputError) -> [UInt8] {
        guard let encoder = try encoder(for: format) else { return bytes }
        var output: [UInt8] = []
        do {
            try bytes.withUnsafeBytes { all in
                try encoder.encode(all, isLast: true) { output.append(contentsOf: $0) }
            }
        } catch {
            throw error as? InputError ?? .corruptCompressedData(format: format, detail: "\(error)")
        }
        return output
    }

    /// What `source` yields, compressed as gzip or xz (`.none`: as it is), handed to `write`
    /// chunk by chunk: memory stays at one 1 MiB input chunk and the encoder's state, whatever
    /// the size. The bytes are those of `compress(_:as:)` of the whole input.
    /// - Throws: the source's `InputError`s, an encoder's, and whatever `write` throws.
    package static func compress(_ source: ByteSource, as format: CompressionFormat,
                                 write: (UnsafeRawBufferPointer) throws -> Void) throws {
        let encoder = try encoder(for: format)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = try source.read(into: chunk)
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[..<count])
            if let encoder { try encoder.encode(bytes, isLast: count == 0, write: write) } else if count > 0 { try write(bytes) }
            if count == 0 { return }
        }
    }

    /// A new encoder for `format` (`nil` for `.none`).
    package static func encoder(for format: CompressionFormat) throws(InputError) -> StreamingEncoder? {
        switch format {
        case .none: return nil
        case .gzip: return try GzipEncoder()
        case .xz: return try XZEncoder()
        }
    }
}
