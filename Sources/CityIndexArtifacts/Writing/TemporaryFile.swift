// TemporaryFile.swift: a new, uniquely named file, the one place that calls mkstemp.
import Foundation

/// Creates a new empty file whose path starts with `pathPrefix` and ends with six random
/// characters (`mkstemp`), open for reading and writing. Callers decide what it is for: keep
/// it and rename it into place (`AtomicFileWriter`), unlink it at once as scratch space, or
/// remove it when done.
package enum TemporaryFile {
    /// Why a temporary file could not be created: the `errno` of `mkstemp`.
    package struct Failure: Error {
        package let errno: Int32
        package var reason: String { String(cString: strerror(errno)) }
    }

    /// A new file in `directory` with no name at all (Linux's `O_TMPFILE`), open for reading
    /// and writing, and a path that opens it while the descriptor is open (`/proc/self/fd/N`):
    /// nothing of it can outlive the process, whatever ends it. `nil` where the system or the
    /// file system cannot (then use a named file).
    package static func createUnnamed(in directory: String) -> (descriptor: Int32, path: String)? {
        #if os(Linux)
        guard access("/proc/self/fd", X_OK) == 0 else { return nil }
        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY, a macro Swift does not import.
        let unnamed: Int32 = 0o20_000_000 | O_DIRECTORY
        let descriptor = open(directory.isEmpty ? "." : directory, unnamed | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        return (descriptor, "/proc/self/fd/\(descriptor)")
        #else
        return nil
        #endif
    }

    /// Gives the unnamed file open as `descriptor` (`createUnnamed`) the name `path`, which
    /// must not exist: returns the `errno` of `linkat`, 0 when it worked.
    package static func name(unnamed descriptor: Int32, as path: String) -> Int32 {
        #if os(Linux)
        return linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno
        #else
        return ENOTSUP
        #endif
    }

    package static func create(pathPrefix: String) throws(Failure) -> (descriptor: Int32, path: String) {
        var template = Array((pathPrefix + "XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
