// IndexOpening.swift: --index names an index file or a compressed artifact of one.
import CityIndex
import CityIndexArtifacts
import Foundation

/// Opens what `--index` names: an index file is mapped as it is; a gzip or xz artifact
/// (`build-index --compress`, recognised by its first bytes, not its name) is decompressed
/// into a private temporary file, opened, and unlinked at once (the open index keeps it alive
/// until the process ends, and nothing is left behind).
enum IndexOpening {
    /// The largest index an artifact may decompress to.
    static let maximumIndexByteCount = 4 << 30

    static func open(path: String) throws(IndexFileError) -> CityIndex {
        guard let format = compression(ofFileAt: path), format != .none else { return try CityIndex(path: path) }
        var template = Array((NSTemporaryDirectory() + "/city-search-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        let temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(temporaryPath) }
        do {
            defer { close(descriptor) }
            let decoded = try ArtifactCodec.decompressing(FileDescriptorSource(path: path),
                                                          maximumByteCount: maximumIndexByteCount).source
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = try decoded.read(into: buffer)
                if count == 0 { break }
                var written = 0
                while written < count {
                    let result = write(descriptor, buffer.baseAddress! + written, count - written)
                    if result < 0 && errno == EINTR { continue }
                    guard result > 0 else { throw InputError.readFailed(path: temporaryPath, reason: String(cString: strerror(errno))) }
                    written += result
                }
            }
        } catch let error as InputError {
            throw .cannotMapFile(path: "\(path) (a \(format) artifact: \(error))", errno: EIO)
        } catch {
            throw .cannotOpenFile(path: path, errno: EIO)
        }
        return try CityIndex(path: temporaryPath)
    }

    /// The compression of the file's first bytes; nil when it cannot be read.
    private static func compression(ofFileAt path: String) -> CompressionFormat? {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var prefix = [UInt8](repeating: 0, count: CompressionFormat.magicByteCount)
        let count = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return CompressionFormat.detect(fromPrefix: prefix.prefix(count))
    }
}
