// AtomicFileWriter.swift: never a half-written file at the final path.
import Foundation

/// Writes a file atomically: into a temporary file beside the destination, flushed to
/// disk, then renamed over it. A failure or a kill at any point leaves the destination
/// as it was (a previous file stays byte-for-byte intact).
///
/// Nothing is left behind: on Linux the temporary file has no name while it is written
/// (`O_TMPFILE`, `TemporaryFile.createUnnamed`), and is named `.NAME.tmp-XXXXXX` only for the
/// instant between `linkat` and `rename`; elsewhere (or on a file system without unnamed
/// files) it is named from the start and removed on failure. Either way, a write first
/// removes such files of its own user beside the destination that are more than
/// `TemporaryFile.staleAge` seconds old: what a kill at the wrong instant left.
///
/// A replaced file keeps its permission bits, and its owner and group where this process may
/// set them (a new file gets 0644).
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

    /// The file `path` names once symbolic links in its last component are followed (relative
    /// ones from the link's directory; at most 32): what a write through the link replaces. A
    /// path that is no link, or a dangling link's target, is returned as it is.
    package static func followingSymbolicLinks(_ path: String) -> String {
        var current = path
        for _ in 0 ..< 32 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer[0 ..< length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        return current
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
    /// Removes the temporary files of writes to `path` (`.NAME.tmp-XXXXXX` of this user) whatever
    /// their age: for a caller that holds a lock every writer of `path` holds, so that none of
    /// them is being written, only left by a writer killed in the instant between `linkat` and
    /// `rename` (FavoritesStore does, under its file lock).
    package static func removeLeftovers(besides path: String) {
        let url = URL(fileURLWithPath: path)
        TemporaryFile.removeStale(prefix: url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".tmp-", olderThan: 0)
    }

    package static func write<Result>(to path: String,
                                      _ body: (_ descriptor: Int32, _ temporaryPath: String) throws -> Result) throws -> Result {
        try checkReplaceable(path)
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = directory + "/." + url.lastPathComponent + ".tmp-"
        TemporaryFile.removeStale(prefix: prefix)
        var existing = stat()
        let replaces = lstat(path, &existing) == 0
        let unnamed = TemporaryFile.createUnnamed(in: directory)
        let descriptor: Int32, temporaryPath: String
        if let unnamed {
            (descriptor, temporaryPath) = unnamed
        } else {
            do {
                (descriptor, temporaryPath) = try TemporaryFile.create(pathPrefix: prefix)
            } catch {
                throw WriteError(path: path, reason: error.reason)
            }
        }
        var named: String? = unnamed == nil ? temporaryPath : nil
        defer {
            if let named { unlink(named) }
        }
        let result: Result
        do {
            result = try body(descriptor, temporaryPath)
        } catch {
            close(descriptor)
            throw error
        }
        var writeResult: Int32 = 0
        if fchmod(descriptor, replaces ? existing.st_mode & 0o7777 : 0o644) != 0 || fsync(descriptor) != 0 { writeResult = errno }
        if writeResult == 0 && replaces && (existing.st_uid != getuid() || existing.st_gid != getgid()) {
            // Only a privileged process may give a file away; the group may still be kept.
            if fchown(descriptor, existing.st_uid, existing.st_gid) != 0 { _ = fchown(descriptor, UInt32.max, existing.st_gid) }
        }
        if writeResult == 0 && unnamed != nil {
            // Named for the instant before the rename: `rename` replaces, `linkat` cannot.
            writeResult = EEXIST
            for _ in 0 ..< 16 where writeResult == EEXIST {
                let candidate = prefix + String((0 ..< 6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
                writeResult = TemporaryFile.name(unnamed: descriptor, as: candidate)
                if writeResult == 0 { named = candidate }
            }
        }
        close(descriptor)
        guard writeResult == 0, let temporary = named else {
            throw WriteError(path: path, reason: String(cString: strerror(writeResult == 0 ? EIO : writeResult)))
        }
        guard rename(temporary, path) == 0 else {
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        named = nil
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return result
    }
}
