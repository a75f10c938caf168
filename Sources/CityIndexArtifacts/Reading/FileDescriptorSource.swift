// FileDescriptorSource.swift: a file, or standard input, read with read(2).
import Foundation

/// Reads a file descriptor (a file, or standard input) with `read(2)`.
package final class FileDescriptorSource: ByteSource {
    package let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Bytes read so far, for progress reports.
    package private(set) var byteCountRead = 0
    /// The file's size when it is a regular file, for progress reports.
    package let knownByteCount: Int?

    /// Opens `path`, or standard input when `path` is "-". A directory is refused.
    package init(path: String) throws(InputError) {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
            ownsDescriptor = true
        }
        var status = stat()
        let statusRead = fstat(descriptor, &status) == 0
        if statusRead && (status.st_mode & S_IFMT) == S_IFDIR {
            if ownsDescriptor { close(descriptor) }
            throw .cannotOpen(path: path, reason: "it is a directory")
        }
        knownByteCount = statusRead && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 {
                byteCountRead += count
                return count
            }
            if errno != EINTR { throw .readFailed(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}
