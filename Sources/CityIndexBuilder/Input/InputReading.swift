// InputReading.swift: a whole input, decompressed, for tools and tests.

/// Reads a whole (plain, gzip or xz) file into memory, decompressed (for tools and tests;
/// build-index itself streams).
public enum InputReading {
    public static func decompressedBytes(path: String, maximumByteCount: Int = 1 << 32) throws(InputError) -> [UInt8] {
        let (source, _, _) = try InputOpener.open(path: path, maximumByteCount: maximumByteCount)
        return try readAll(from: source)
    }

    /// Every byte `source` yields, until its end.
    static func readAll(from source: ByteSource) throws(InputError) -> [UInt8] {
        var result: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { chunk.deallocate() }
        while true {
            let count = try source.read(into: chunk)
            if count == 0 { return result }
            result.append(contentsOf: chunk[..<count])
        }
    }
}
