// DescriptorWriting.swift: all of a buffer to a file descriptor, and a stream decompressed into one.
import Foundation

/// Writing to an open file descriptor, retrying short writes and `EINTR`.
package enum DescriptorWriting {
    /// Writes all of `bytes` to `descriptor`, at its file position or, given `offset`, at
    /// that offset (`pwrite`, the position unchanged); returns 0, or the `errno` of the write
    /// that failed (`EIO` for a write that made no progress).
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int? = nil) -> Int32 {
        var written = 0
        while written < bytes.count {
            let start = bytes.baseAddress! + written, remaining = bytes.count - written
            let count = offset.map { pwrite(descriptor, start, remaining, off_t($0 + written)) } ?? Foundation.write(descriptor, start, remaining)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            guard count > 0 else { return EIO }
            written += count
        }
        return 0
    }

    /// Compresses the file at `path` as `format` into `descriptor`, streaming through one
    /// 1 MiB buffer and the encoder (`ArtifactCodec.compress(_:as:write:)`); returns how many
    /// bytes were written.
    /// - Throws: `InputError` (reading or encoding, or `.readFailed` naming `outputName` when
    ///   writing fails).
    package static func compress(fileAt path: String, as format: CompressionFormat, into descriptor: Int32,
                                 outputName: String) throws(InputError) -> Int {
        var total = 0
        do {
            try ArtifactCodec.compress(try FileDescriptorSource(path: path), as: format) { chunk in
                let failure = writeAll(chunk, to: descriptor)
                guard failure == 0 else { throw InputError.readFailed(path: outputName, reason: "cannot write: " + String(cString: strerror(failure))) }
                total += chunk.count
            }
        } catch {
            throw error as? InputError ?? .readFailed(path: outputName, reason: "\(error)")
        }
        return total
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
