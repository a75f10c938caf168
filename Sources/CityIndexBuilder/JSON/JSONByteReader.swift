// JSONByteReader.swift: buffered bytes with line and column, for the streaming parser.
import CityIndexArtifacts

/// Reads a `ByteSource` through a 64 KiB buffer, one byte at a time, tracking the line and
/// column of the next byte. Columns count characters: UTF-8 continuation bytes do not
/// advance them.
final class JSONByteReader {
    private let source: ByteSource
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    private var bufferCount = 0
    private var bufferIndex = 0
    private var ended = false
    /// Where the next byte is.
    private(set) var position = InputPosition(line: 1, column: 1)
    /// Decompressed bytes consumed so far.
    private(set) var byteOffset = 0

    init(source: ByteSource) { self.source = source }

    deinit { buffer.deallocate() }

    /// The next byte without consuming it, or `nil` at the end of the input.
    @inline(__always)
    func peek() throws -> UInt8? {
        if bufferIndex == bufferCount {
            guard try refill() else { return nil }
        }
        return buffer[bufferIndex]
    }

    /// Consumes and returns the next byte, or `nil` at the end of the input.
    @inline(__always)
    func next() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        bufferIndex += 1
        byteOffset += 1
        if byte == 0x0A {
            position.line += 1
            position.column = 1
        } else if byte & 0xC0 != 0x80 {
            position.column += 1
        }
        return byte
    }

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    @inline(__always)
    func skipWhitespace() throws {
        while let byte = try peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            _ = try next()
        }
    }

    private func refill() throws -> Bool {
        if ended { return false }
        bufferCount = try source.read(into: buffer)
        bufferIndex = 0
        if bufferCount == 0 { ended = true }
        return bufferCount > 0
    }
}
