// ByteSource.swift: a stream of input bytes, read in chunks.
import Foundation

/// A stream of bytes read in chunks. `read` returns 0 at the end.
protocol ByteSource: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

/// Reads a file descriptor (a file, or standard input) with `read(2)`.
final class FileDescriptorSource: ByteSource {
    let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Bytes read so far, for progress reports.
    private(set) var byteCountRead = 0
    /// The file's size when it is a regular file, for progress reports.
    let knownByteCount: Int?

    /// Opens `path`, or standard input when `path` is "-".
    init(path: String) throws(InputError) {
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
        if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            if ownsDescriptor { close(descriptor) }
            throw .cannotOpen(path: path, reason: "it is a directory")
        }
        knownByteCount = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
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

/// Replays a few bytes already read (to detect the format) before the rest of a source.
final class PrefixedSource: ByteSource {
    private var prefix: [UInt8]
    private let rest: ByteSource

    init(prefix: [UInt8], rest: ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard prefix.isEmpty else {
            let count = min(prefix.count, buffer.count)
            buffer.copyBytes(from: prefix[..<count])
            prefix.removeFirst(count)
            return count
        }
        return try rest.read(into: buffer)
    }
}

/// Fails once more than `limitByteCount` bytes have come through: a compression bomb
/// cannot fill memory or disk.
final class LimitedSource: ByteSource {
    private let source: ByteSource
    private let limitByteCount: Int
    private var byteCount = 0

    init(_ source: ByteSource, limitByteCount: Int) {
        self.source = source
        self.limitByteCount = limitByteCount
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = try source.read(into: buffer)
        byteCount += count
        guard byteCount <= limitByteCount else { throw .inputTooLarge(limitByteCount: limitByteCount) }
        return count
    }
}

/// Opens an input file and picks its decompressor from its magic bytes, not its name.
enum InputOpener {
    /// The source of decompressed bytes of `path` ("-" for standard input), with the raw
    /// file source (for progress) and the detected format.
    static func open(path: String, maximumByteCount: Int) throws(InputError)
        -> (source: ByteSource, file: FileDescriptorSource, format: CompressionFormat) {
        let file = try FileDescriptorSource(path: path)
        var prefix = [UInt8](repeating: 0, count: 6)
        var prefixCount = 0
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: prefix.count, alignment: 1)
        defer { scratch.deallocate() }
        while prefixCount < prefix.count {
            let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[prefixCount...]))
            if count == 0 { break }
            prefixCount += count
        }
        prefix = Array(scratch[..<prefixCount])
        let format = CompressionFormat.detect(fromPrefix: prefix)
        let raw = PrefixedSource(prefix: prefix, rest: file)
        let decompressed: ByteSource
        switch format {
        case .none: decompressed = raw
        case .gzip: decompressed = try GzipSource(raw)
        case .xz: decompressed = try XZSource(raw)
        }
        return (LimitedSource(decompressed, limitByteCount: maximumByteCount), file, format)
    }
}
