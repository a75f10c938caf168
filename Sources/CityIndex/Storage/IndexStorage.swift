// IndexStorage.swift: owns the bytes of one index, mapped or in memory.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one index file, alive as long as any value that reads them.
///
/// Immutable after `init`: the memory is mapped read-only (or copied once), so sharing it
/// between threads is safe, which `@unchecked Sendable` asserts.
final class IndexStorage: @unchecked Sendable {
    /// The first byte; 8-byte aligned.
    let baseAddress: UnsafeRawPointer
    /// How many bytes there are.
    let byteCount: Int
    private let release: Release

    private enum Release {
        case unmap
        case deallocate
    }

    /// Maps the file at `path` read-only. O(1): the kernel pages bytes in when read.
    init(mappingFileAt path: String) throws(IndexFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .cannotOpenFile(path: path, errno: EISDIR) }
        let size = Int(status.st_size)
        guard size >= IndexLayout.headerByteCount else {
            throw .fileTooSmall(byteCount: size, minimumByteCount: IndexLayout.headerByteCount)
        }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw .cannotMapFile(path: path, errno: errno) }
        baseAddress = UnsafeRawPointer(address)
        byteCount = size
        release = .unmap
    }

    /// Copies `bytes` into memory aligned like a mapped file.
    init(copying bytes: some Collection<UInt8>) {
        let count = bytes.count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1),
                                                           alignment: IndexLayout.sectionAlignment)
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
                                                           alignment: IndexLayout.sectionAlignment)
        var offset = 0
        for chunk in chunks {
            chunk.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[offset ..< offset + $0.count]).copyMemory(from: $0) }
            offset += chunk.count
        }
        baseAddress = UnsafeRawPointer(buffer.baseAddress!)
        byteCount = count
        release = .deallocate
    }

    /// All the bytes.
    var bytes: ByteView { ByteView(base: baseAddress, count: byteCount) }

    deinit {
        switch release {
        case .unmap: munmap(UnsafeMutableRawPointer(mutating: baseAddress), byteCount)
        case .deallocate: baseAddress.deallocate()
        }
    }
}
