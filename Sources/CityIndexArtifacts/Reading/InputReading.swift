// InputReading.swift: open a file (or standard input) and read it decompressed.

/// Opens inputs and artifacts and picks their decompressor from their first bytes, not
/// their name.
public enum InputReading {
    /// The whole file at `path` ("-" for standard input), decompressed, refusing more than
    /// `maximumByteCount` bytes of output. For tools and tests; build-index streams instead
    /// (`open(path:maximumByteCount:)`).
    public static func decompressedBytes(path: String, maximumByteCount: Int = 1 << 32) throws(InputError) -> [UInt8] {
        try open(path: path, maximumByteCount: maximumByteCount).source.readAll()
    }

    /// How many bytes the file at `path` decompresses to, counted without keeping them, or nil
    /// when that is more than `limit` or the file cannot be read: what to suggest when an input
    /// is refused for being larger than a `--max-input-bytes` limit. Standard input ("-") cannot
    /// be read twice: nil.
    /// - Complexity: O(min(size, `limit`)) time; one 64 KiB buffer.
    package static func decompressedByteCount(path: String, upTo limit: Int) -> Int? {
        guard path != "-", let (source, _, _) = try? open(path: path, maximumByteCount: limit) else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var count = 0
        while true {
            guard let read = try? source.read(into: buffer) else { return nil }
            if read == 0 { return count }
            count += read
        }
    }

    /// The decompressed bytes of `path` ("-" for standard input) as a stream, bounded by
    /// `maximumByteCount`, with the raw file (for progress reports) and the detected format.
    package static func open(path: String, maximumByteCount: Int) throws(InputError)
        -> (source: ByteSource, file: FileDescriptorSource, format: CompressionFormat) {
        let file = try FileDescriptorSource(path: path)
        let (source, format) = try ArtifactCodec.decompressing(file, maximumByteCount: maximumByteCount)
        return (source, file, format)
    }
}
