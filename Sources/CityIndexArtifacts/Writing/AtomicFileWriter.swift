// AtomicFileWriter.swift: never a half-written file at the final path.
import Foundation

/// Writes a file atomically: into a temporary file beside the destination, flushed to
/// disk, then renamed over it. A failure or a kill at any point leaves the destination
/// as it was (a previous file stays byte-for-byte intact); at worst a temporary file named
/// `.NAME.tmp-XXXXXX` remains beside it.
package enum AtomicFileWriter {
    package struct WriteError: Error, CustomStringConvertible, Equatable {
        package let path: String
        package let reason: String
        package var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// Writes `bytes` to `path` atomically.
    package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        try write(chunks: [bytes], to: path)
    }

    /// Writes the concatenation of `chunks` to `path` atomically.
    package static func write(chunks: [[UInt8]], to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".tmp-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporaryPath) }
        }
        var writeResult: Int32 = 0
        for chunk in chunks where writeResult == 0 {
            writeResult = chunk.withUnsafeBytes { buffer -> Int32 in
                var written = 0
                while written < buffer.count {
                    let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    written += count
                }
                return 0
            }
        }
        if writeResult == 0 && (fchmod(descriptor, 0o644) != 0 || fsync(descriptor) != 0) { writeResult = errno }
        close(descriptor)
        guard writeResult == 0 else { throw WriteError(path: path, reason: String(cString: strerror(writeResult))) }
        guard rename(temporaryPath, path) == 0 else {
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        succeeded = true
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
