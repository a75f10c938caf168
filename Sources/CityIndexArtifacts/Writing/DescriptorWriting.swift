// DescriptorWriting.swift: all of a buffer to a file descriptor, and a stream decompressed into one.
import Foundation

/// Writing to an open file descriptor, retrying short writes and `EINTR`.
package enum DescriptorWriting {
    /// Writes all of `bytes` to `descriptor`; returns 0, or the `errno` of the write that failed.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var written = 0
        while written < bytes.count {
            let count = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += count
        }
        return 0
    }

    /// Decompresses the file at `path` (plain, gzip or xz, by its first bytes) into
    /// `descriptor`, refusing more than `maximumByteCount` bytes of output; returns how many
    /// were written. Streams through one 1 MiB buffer.
    /// - Throws: `InputError` (`.inputTooLarge`, a corrupt stream, or `.readFailed` naming
    ///   `outputName` when writing fails).
    package static func decompress(fileAt path: String, into descriptor: Int32, outputName: String,
                                   maximumByteCount: Int) throws(InputError) -> Int {
        let decoded = try ArtifactCodec.decompressing(FileDescriptorSource(path: path), maximumByteCount: maximumByteCount).source
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let count = try decoded.read(into: buffer)
            if count == 0 { return total }
            let failure = writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: descriptor)
            guard failure == 0 else { throw .readFailed(path: outputName, reason: "cannot write: " + String(cString: strerror(failure))) }
            total += count
        }
    }
}
