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

    /// The decompressed bytes of `path` ("-" for standard input) as a stream, bounded by
    /// `maximumByteCount`, with the raw file (for progress reports) and the detected format.
    package static func open(path: String, maximumByteCount: Int) throws(InputError)
        -> (source: ByteSource, file: FileDescriptorSource, format: CompressionFormat) {
        let file = try FileDescriptorSource(path: path)
        let (source, format) = try ArtifactCodec.decompressing(file, maximumByteCount: maximumByteCount)
        return (source, file, format)
    }
}
