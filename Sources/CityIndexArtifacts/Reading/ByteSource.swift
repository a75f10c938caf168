// ByteSource.swift: a stream of bytes read in chunks, and the small sources built on it.

/// A stream of bytes read in chunks. `read` fills a prefix of `buffer` and returns its
/// length; 0 means the stream has ended (for a non-empty buffer).
package protocol ByteSource: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

/// Reads bytes held in memory.
package final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        buffer.copyBytes(from: bytes[offset ..< offset + count])
        offset += count
        return count
    }
}

/// Replays a few bytes already read (to detect the format) before the rest of a source.
package final class PrefixedSource: ByteSource {
    private var prefix: [UInt8]
    private let rest: ByteSource

    package init(prefix: [UInt8], rest: ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard prefix.isEmpty else {
            let count = min(prefix.count, buffer.count)
            buffer.copyBytes(from: prefix[..<count])
            prefix.removeFirst(count)
            return count
        }
        return try rest.read(into: buffer)
    }
}

/// Fails once more than `limitByteCount` bytes have come through: a compression bomb
/// cannot fill memory or disk.
package final class LimitedSource: ByteSource {
    private let source: ByteSource
    private let limitByteCount: Int
    private var byteCount = 0

    package init(_ source: ByteSource, limitByteCount: Int) {
        self.source = source
        self.limitByteCount = limitByteCount
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = try source.read(into: buffer)
        byteCount += count
        guard byteCount <= limitByteCount else { throw .inputTooLarge(limitByteCount: limitByteCount) }
        return count
    }
}

extension ByteSource {
    /// Every byte the source yields, until its end. O(bytes), in 64 KiB reads.
    package func readAll() throws(InputError) -> [UInt8] {
        var result: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { chunk.deallocate() }
        while true {
            let count = try read(into: chunk)
            if count == 0 { return result }
            result.append(contentsOf: chunk[..<count])
        }
    }
}
