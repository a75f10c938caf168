// IndexFileBytes.swift: owns the bytes of one index, mapped or in memory.
import CMappedFileGuard
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one index file, alive as long as any value that reads them.
///
/// Immutable after `init` as far as this process goes: the memory is mapped read-only (or
/// copied once), so sharing it between threads is safe, which `@unchecked Sendable` asserts.
///
/// A mapped file can still be changed by someone else while it is mapped. What then happens
/// (FORMAT.md §1, "Replacing an open index"):
/// - Renamed over (how build-index and IndexStore replace files): nothing; the mapping keeps
///   the old file, which lives on until it is unmapped.
/// - Rewritten in place, same size or larger: reads see a mix of old and new bytes; they stay
///   in bounds (every read is bounded by the sizes checked at open, never by the bytes), so
///   searches return wrong or no results but never crash. `checkUnchanged()` reports it.
/// - Truncated or shrunk: reads past the new end would raise SIGBUS. The mapping is registered
///   with `CMappedFileGuard`, whose handler replaces the missing pages with zeros and records
///   the fault, so the reads go on (returning junk, in bounds) and `checkUnchanged()` reports
///   it. When the guard cannot register the mapping (all 1,024 slots in use), the file is read
///   into memory instead of mapped.
final class IndexFileBytes: @unchecked Sendable {
    /// The first byte; 8-byte aligned.
    let baseAddress: UnsafeRawPointer
    /// How many bytes there are.
    let byteCount: Int
    private let release: Release

    private enum Release {
        /// A guarded mapping of the file opened as `path` and found at `absolutePath`, whose
        /// identity, size and modification time at open were `opened`. No descriptor stays open.
        case unmap(path: String, absolutePath: String, guardSlot: Int32, opened: FileVersion)
        case deallocate
    }

    /// What tells a rewritten file from the one opened: which file it is (device and inode)
    /// and its size and modification time (an in-place rewrite changes the modification time;
    /// a rename over the path puts another file there and leaves the open one untouched).
    struct FileVersion: Equatable {
        let device: UInt64
        let inode: UInt64
        let byteCount: Int
        let modificationSeconds: Int
        let modificationNanoseconds: Int

        init(_ status: stat) {
            (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino))
            byteCount = Int(status.st_size)
            #if canImport(Darwin)
            (modificationSeconds, modificationNanoseconds) = (Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
            #else
            (modificationSeconds, modificationNanoseconds) = (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
            #endif
        }

        func isSameFile(as other: FileVersion) -> Bool { device == other.device && inode == other.inode }
    }

    /// Maps the file at `path` read-only, guarded against the file shrinking (see above). O(1):
    /// the kernel pages bytes in when read. Holds no descriptor once open: a mapping needs
    /// none, and a process may have many indexes open (each would count against its limit
    /// of open files); the file's identity, size and modification time tell later whether it
    /// changed.
    /// - Throws: `.notARegularFile` for anything but a regular file (a FIFO is opened
    ///   non-blocking, so it cannot hang), `.cannotOpenFile`, `.fileTooSmall`, `.cannotMapFile`.
    init(mappingFileAt path: String) throws(IndexFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile(path: path) }
        let size = Int(status.st_size)
        guard size >= FormatConstants.headerByteCount else {
            throw .fileTooSmall(byteCount: size, minimumByteCount: FormatConstants.headerByteCount)
        }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw .cannotMapFile(path: path, errno: errno) }
        let slot = cityindex_guard_register(address, size)
        guard slot >= 0 else {
            munmap(address, size)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: FormatConstants.sectionAlignment)
            var read = 0
            while read < size {
                let count = pread(descriptor, buffer.baseAddress! + read, size - read, off_t(read))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    let error = count < 0 ? errno : EIO
                    buffer.deallocate()
                    throw .cannotOpenFile(path: path, errno: error)
                }
                read += count
            }
            baseAddress = UnsafeRawPointer(buffer.baseAddress!)
            byteCount = size
            release = .deallocate
            return
        }
        baseAddress = UnsafeRawPointer(address)
        byteCount = size
        release = .unmap(path: path, absolutePath: Self.absolutePath(path), guardSlot: slot, opened: FileVersion(status))
    }

    /// Throws `.fileChangedWhileOpen` when the mapped file was rewritten, truncated or appended
    /// to since it was opened, or a read found it shorter. O(1): one `stat` of the path. When
    /// the path no longer names the opened file (renamed over, or removed), the mapping keeps
    /// the file it opened, which no one replacing files the documented way writes into: only
    /// a read that found it shorter reports a change then. Bytes in memory never change.
    func checkUnchanged() throws(IndexFileError) {
        guard case .unmap(let path, let absolutePath, let slot, let opened) = release else { return }
        guard cityindex_guard_has_faulted(slot) == 0 else { throw .fileChangedWhileOpen(path: path) }
        var status = stat()
        guard stat(absolutePath, &status) == 0 else { return }
        let now = FileVersion(status)
        guard !now.isSameFile(as: opened) || now == opened else { throw .fileChangedWhileOpen(path: path) }
    }

    /// `path` made absolute (symbolic links resolved), so that a later change of the working
    /// directory still finds the file; `path` itself when that fails.
    private static func absolutePath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Copies `bytes` into memory aligned like a mapped file.
    init(copying bytes: some Collection<UInt8>) {
        let count = bytes.count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1),
                                                           alignment: FormatConstants.sectionAlignment)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(source))
        }
        if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: bytes) }
        baseAddress = UnsafeRawPointer(buffer.baseAddress!)
        byteCount = count
        release = .deallocate
    }

    /// Copies the concatenation of `chunks` (a file as the builder writes it) into memory
    /// aligned like a mapped file, without first joining them.
    init(copyingChunks chunks: [[UInt8]]) {
        let count = chunks.reduce(0) { $0 + $1.count }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1),
                                                           alignment: FormatConstants.sectionAlignment)
        var offset = 0
        for chunk in chunks {
            chunk.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[offset ..< offset + $0.count]).copyMemory(from: $0) }
            offset += chunk.count
        }
        baseAddress = UnsafeRawPointer(buffer.baseAddress!)
        byteCount = count
        release = .deallocate
    }

    /// Overwrites byte `offset` of bytes held in memory (never a mapped file), as a file
    /// changed underneath would: for the fuzzer's post-open mutations only. Out-of-range
    /// offsets are ignored.
    func overwriteForTesting(at offset: Int, with value: UInt8) {
        guard case .deallocate = release, offset >= 0, offset < byteCount else { return }
        UnsafeMutableRawPointer(mutating: baseAddress).storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
    }

    /// All the bytes.
    var bytes: ByteView { ByteView(base: baseAddress, count: byteCount) }

    deinit {
        switch release {
        case .unmap(_, _, let slot, _):
            cityindex_guard_unregister(slot)
            munmap(UnsafeMutableRawPointer(mutating: baseAddress), byteCount)
        case .deallocate: baseAddress.deallocate()
        }
    }
}
