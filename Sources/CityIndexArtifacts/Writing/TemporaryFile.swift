// TemporaryFile.swift: new temporary files, named or nameless, and the sweep of leftovers; the
// one place that calls mkstemp.
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

    /// A new file in `directory` that no path names, open for reading and writing, and a path
    /// that opens it while the descriptor is open: unnamed from the start where the system can
    /// (`createUnnamed`), else created as `directory/prefixXXXXXX` and unlinked at once. Its
    /// space is freed when the descriptor closes, however the process ends: nothing is left
    /// behind (but for a kill in the microseconds between `mkstemp` and `unlink`, where
    /// `O_TMPFILE` is missing). Named files with the prefix older than `staleAge` (such
    /// leftovers, or earlier versions' temporary files) are removed first.
    package static func createNameless(in directory: String, prefix: String) throws(Failure) -> (descriptor: Int32, path: String) {
        let pathPrefix = (directory.isEmpty ? "." : directory) + "/" + prefix
        removeStale(prefix: pathPrefix)
        if let unnamed = createUnnamed(in: directory) { return unnamed }
        let file = try create(pathPrefix: pathPrefix)
        unlink(file.path)
        #if os(Linux)
        return (file.descriptor, "/proc/self/fd/\(file.descriptor)")
        #else
        return (file.descriptor, "/dev/fd/\(file.descriptor)")
        #endif
    }

    package static func create(pathPrefix: String) throws(Failure) -> (descriptor: Int32, path: String) {
        var template = Array((pathPrefix + "XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// How old a named temporary file must be before the next one made with its prefix
    /// removes it as a leftover: an hour, far longer than the instant a Linux write names
    /// one, and longer than a build without unnamed files takes.
    package static let staleAge: Double = 3_600

    /// Removes the files `prefix` + six characters of this process's user that were last
    /// changed more than `staleAge` seconds ago: leftovers of processes that were killed
    /// (or of earlier versions, which named their temporary files), in that directory only.
    package static func removeStale(prefix: String, olderThan age: Double = staleAge) {
        let url = URL(fileURLWithPath: prefix)
        let directory = url.deletingLastPathComponent().path, namePrefix = url.lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return }
        let now = time(nil)
        for name in names where name.hasPrefix(namePrefix) && name.count == namePrefix.count + 6 {
            let candidate = directory + "/" + name
            var status = stat()
            guard lstat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid(),
                  Double(now - modificationSeconds(status)) > age || age <= 0 else { continue }
            unlink(candidate)
        }
    }

    private static func modificationSeconds(_ status: stat) -> time_t {
        #if canImport(Darwin)
        return status.st_mtimespec.tv_sec
        #else
        return status.st_mtim.tv_sec
        #endif
    }
}
