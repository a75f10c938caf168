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
        /// A guarded mapping of `file` at `path`, whose size and modification time at open
        /// were `opened`.
        case unmap(file: Int32, path: String, guardSlot: Int32, opened: FileVersion)
        case deallocate
    }

    /// What tells a rewritten file from the one opened: size and modification time (an
    /// in-place rewrite changes the modification time; a rename over the path does not touch
    /// the open file at all).
    struct FileVersion: Equatable {
        let byteCount: Int
        let modificationSeconds: Int
        let modificationNanoseconds: Int

        init(_ status: stat) {
            byteCount = Int(status.st_size)
            #if canImport(Darwin)
            (modificationSeconds, modificationNanoseconds) = (Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
            #else
            (modificationSeconds, modificationNanoseconds) = (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
            #endif
        }
    }

    /// Maps the file at `path` read-only, guarded against the file shrinking (see above). O(1):
    /// the kernel pages bytes in when read. Keeps the file open (one descriptor) to tell later
    /// whether it changed.
    /// - Throws: `.notARegularFile` for anything but a regular file (a FIFO is opened
    ///   non-blocking, so it cannot hang), `.cannotOpenFile`, `.fileTooSmall`, `.cannotMapFile`.
    init(mappingFileAt path: String) throws(IndexFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        var keepsDescriptor = false
        defer { if !keepsDescriptor { close(descriptor) } }
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
        keepsDescriptor = true
        baseAddress = UnsafeRawPointer(address)
        byteCount = size
        release = .unmap(file: descriptor, path: path, guardSlot: slot, opened: FileVersion(status))
    }

    /// Throws `.fileChangedWhileOpen` when the mapped file was rewritten, truncated or appended
    /// to since it was opened, or a read found it shorter. O(1): one `fstat`. Bytes in memory
    /// never change.
    func checkUnchanged() throws(IndexFileError) {
        guard case .unmap(let file, let path, let slot, let opened) = release else { return }
        var status = stat()
        guard cityindex_guard_has_faulted(slot) == 0, fstat(file, &status) == 0, FileVersion(status) == opened else {
            throw .fileChangedWhileOpen(path: path)
        }
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
        case .unmap(let file, _, let slot, _):
            cityindex_guard_unregister(slot)
            munmap(UnsafeMutableRawPointer(mutating: baseAddress), byteCount)
            close(file)
        case .deallocate: baseAddress.deallocate()
        }
    }
}
