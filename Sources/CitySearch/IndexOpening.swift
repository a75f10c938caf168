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
        let descriptor: Int32, temporaryPath: String
        do {
            (descriptor, temporaryPath) = try TemporaryFile.create(pathPrefix: NSTemporaryDirectory() + "/city-search-")
        } catch {
            throw .cannotOpenFile(path: path, errno: error.errno)
        }
        defer { unlink(temporaryPath) }
        do {
            defer { close(descriptor) }
            _ = try DescriptorWriting.decompress(fileAt: path, into: descriptor, outputName: temporaryPath,
                                                 maximumByteCount: maximumIndexByteCount)
        } catch {
            throw .cannotMapFile(path: "\(path) (a \(format) artifact: \(error))", errno: EIO)
        }
        return try CityIndex(path: temporaryPath)
    }

    /// The compression of the file's first bytes; nil when it cannot be read.
    private static func compression(ofFileAt path: String) -> CompressionFormat? {
        guard let prefix = FilePrefix.read(path: path, count: CompressionFormat.magicByteCount), !prefix.isEmpty else { return nil }
        return CompressionFormat.detect(fromPrefix: prefix)
    }
}
