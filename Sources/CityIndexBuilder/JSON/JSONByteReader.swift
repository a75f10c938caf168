// JSONByteReader.swift: buffered bytes with line and column, for the streaming parser.
import CityIndexArtifacts

/// Reads a `ByteSource` through a 64 KiB buffer, one byte at a time, tracking the line and
/// column of the next byte. Columns count characters: UTF-8 continuation bytes do not
/// advance them.
final class JSONByteReader {
    private let source: ByteSource
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    // Read and written for every byte of the input: `@exclusivity(unchecked)` spares each access
    // the runtime's dynamic exclusivity check, a large part of the parsing time. Sound here: a reader is used by one thread at a time, and no access to these
    // properties overlaps another (none is passed `inout` across a call that touches them).
    @exclusivity(unchecked) private var bufferCount = 0
    @exclusivity(unchecked) private var bufferIndex = 0
    private var ended = false
    /// Where the next byte is.
    @exclusivity(unchecked) private(set) var position = InputPosition(line: 1, column: 1)
    /// Decompressed bytes consumed so far.
    @exclusivity(unchecked) private(set) var byteOffset = 0

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

    /// Consumes the bytes from the read position that a JSON string holds as they are —
    /// printable ASCII other than `"` and `\` — up to the end of the buffered bytes, appends
    /// them to `output` and returns how many there were (0 when the next byte is another, or
    /// when the buffer is used up: `next()` then refills it). One bounds check and one update
    /// of the position per run instead of per byte.
    @inline(__always)
    func takePlainASCII(into output: inout [UInt8]) -> Int {
        var index = bufferIndex
        while index < bufferCount {
            let byte = buffer[index]
            guard byte >= 0x20, byte < 0x80, byte != 0x22, byte != 0x5C else { break }
            index += 1
        }
        return take(upTo: index, into: &output)
    }

    /// Consumes the ASCII digits from the read position up to the end of the buffered bytes,
    /// appends them to `output` and returns how many there were (as `takePlainASCII`).
    @inline(__always)
    func takeDigits(into output: inout [UInt8]) -> Int {
        var index = bufferIndex
        while index < bufferCount, buffer[index] &- 0x30 < 10 { index += 1 }
        return take(upTo: index, into: &output)
    }

    /// Consumes the buffered bytes before `end`, all ASCII other than line feeds, appending them
    /// to `output`; returns how many.
    @inline(__always)
    private func take(upTo end: Int, into output: inout [UInt8]) -> Int {
        let count = end - bufferIndex
        guard count > 0 else { return 0 }
        output.append(bytes: UnsafeRawBufferPointer(rebasing: buffer[bufferIndex ..< end]))
        bufferIndex = end
        byteOffset += count
        position.column += count
        return count
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
