// FilePrefix.swift: the first bytes of a regular file, read without blocking.
import Foundation

/// Reads the start of a file to recognise what it is (an index, a gzip or xz stream).
package enum FilePrefix {
    /// Up to `count` first bytes of the regular file at `path`; nil when it cannot be opened
    /// or is not a regular file (opened non-blocking, so a FIFO cannot hang the caller).
    package static func read(path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var prefix = [UInt8](repeating: 0, count: count)
        let read = prefix.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
        guard read >= 0 else { return nil }
        return Array(prefix.prefix(read))
    }
}
