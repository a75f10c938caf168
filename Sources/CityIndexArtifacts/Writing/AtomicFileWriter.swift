// AtomicFileWriter.swift: never a half-written file at the final path.
import Foundation

/// Writes a file atomically: into a temporary file beside the destination, flushed to
/// disk, then renamed over it. A failure or a kill at any point leaves the destination
/// as it was (a previous file stays byte-for-byte intact); at worst a temporary file named
/// `.NAME.tmp-XXXXXX` remains beside it.
///
/// Only a regular file (or nothing) is ever replaced: an existing symbolic link, directory,
/// FIFO, socket or device at the destination (`/dev/null`, `/dev/full`, a link to a shared
/// file) is refused with `WriteError`, so writing never turns one into a regular file.
package enum AtomicFileWriter {
    package struct WriteError: Error, CustomStringConvertible, Equatable {
        package let path: String
        package let reason: String
        /// Whether the destination exists and is not a regular file (`checkReplaceable`).
        package var isNotReplaceable = false
        package var description: String { "cannot write '\(path)': \(reason)" }

        package init(path: String, reason: String, isNotReplaceable: Bool = false) {
            self.path = path
            self.reason = reason
            self.isNotReplaceable = isNotReplaceable
        }
    }

    /// Writes `bytes` to `path` atomically.
    package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        try write(chunks: [bytes], to: path)
    }

    /// Throws unless `path` names nothing or a regular file (not following a symbolic link):
    /// what `write` replaces. Callers check before long work so that it fails early.
    package static func checkReplaceable(_ path: String) throws(WriteError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: kind = "a symbolic link"
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR, S_IFBLK: kind = "a device"
        default: kind = "not a regular file"
        }
        throw WriteError(path: path, reason: "it is \(kind), and only a regular file is ever replaced; "
                         + "write to a regular file path (for a link, to the path it points to)",
                         isNotReplaceable: true)
    }

    /// Writes the concatenation of `chunks` to `path` atomically.
    package static func write(chunks: [[UInt8]], to path: String) throws(WriteError) {
        do {
            try write(to: path) { descriptor, _ in
                for chunk in chunks {
                    let result = chunk.withUnsafeBytes { DescriptorWriting.writeAll($0, to: descriptor) }
                    guard result == 0 else { throw WriteError(path: path, reason: String(cString: strerror(result))) }
                }
            }
        } catch let error as WriteError {
            throw error
        } catch {
            throw WriteError(path: path, reason: "\(error)")
        }
    }

    /// Creates a temporary file beside `path`, lets `body` write it (given its descriptor,
    /// open for reading and writing, and its path, to map it), then flushes it and renames it
    /// over `path`; returns what `body` returned. When `body` throws, the temporary file is
    /// removed and the error rethrown: `path` is unchanged. Errors of the file itself are
    /// `WriteError`s.
    package static func write<Result>(to path: String,
                                      _ body: (_ descriptor: Int32, _ temporaryPath: String) throws -> Result) throws -> Result {
        try checkReplaceable(path)
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let descriptor: Int32, temporaryPath: String
        do {
            (descriptor, temporaryPath) = try TemporaryFile.create(pathPrefix: directory + "/." + url.lastPathComponent + ".tmp-")
        } catch {
            throw WriteError(path: path, reason: error.reason)
        }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporaryPath) }
        }
        let result: Result
        do {
            result = try body(descriptor, temporaryPath)
        } catch {
            close(descriptor)
            throw error
        }
        var writeResult: Int32 = 0
        if fchmod(descriptor, 0o644) != 0 || fsync(descriptor) != 0 { writeResult = errno }
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
        return result
    }
}
