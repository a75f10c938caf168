// IndexOpening.swift: --index names an index file or a compressed artifact of one.
import CityIndex
import CityIndexArtifacts
import Foundation

/// Opens what `--index` names: an index file is mapped as it is; a gzip or xz artifact
/// (`build-index --compress`, recognised by its first bytes, not its name) is decompressed
/// into a file with no name in the temporary directory (`TemporaryFile.createNameless`) and
/// opened from it: its space is freed when the process ends, however it ends, and nothing is
/// left behind.
enum IndexOpening {
    /// Why `--index` could not be opened: what is wrong with the index, or with the artifact
    /// that should hold one.
    enum Failure: Error, CustomStringConvertible {
        case index(IndexFileError)
        /// The artifact at `path` decompresses to more than `limit` bytes (`--max-input-bytes`).
        case artifactTooLarge(format: CompressionFormat, path: String, limit: Int)
        /// The artifact cannot be decompressed, or its index not written.
        case artifactUnreadable(format: CompressionFormat, reason: String)
        /// The file (or what the artifact decompresses to) is a JSON city list, not an index.
        case cityList(path: String)

        var description: String {
            switch self {
            case .index(let error): return "\(error)"
            case .artifactTooLarge(let format, let path, let limit):
                return "the \(format) artifact decompresses to " + MaximumInputAdvice(path: path, limit: limit).text
            case .artifactUnreadable(let format, let reason):
                return "cannot decompress the \(format) artifact: \(reason)"
            case .cityList(let path):
                return "this is a JSON city list, not an index: build the index with `build-index \(path) -o cities.cidx`, "
                    + "then search it with `city-search --index cities.cidx`"
            }
        }

        /// Whether the file could not be opened at all (rather than read and found wrong).
        var isOpenError: Bool {
            switch self {
            case .index(.cannotOpenFile), .index(.notARegularFile): return true
            default: return false
            }
        }
    }

    /// The default `--max-input-bytes`: what an artifact may decompress to (IndexStore's
    /// default limit too; about 20 times the largest list's index).
    static let defaultMaximumIndexByteCount = 512 << 20

    static func open(path: String, maximumIndexByteCount: Int = defaultMaximumIndexByteCount) throws(Failure) -> CityIndex {
        guard let format = compression(ofFileAt: path), format != .none else {
            do { return try CityIndex(path: path) } catch { throw failure(error, readingAt: path, given: path) }
        }
        let file: (descriptor: Int32, path: String)
        do {
            file = try TemporaryFile.createNameless(in: NSTemporaryDirectory(), prefix: "city-search-")
        } catch {
            throw .artifactUnreadable(format: format, reason: "cannot create a temporary file: \(error.reason)")
        }
        // The open index maps the file and keeps it alive; the descriptor is not needed after.
        defer { close(file.descriptor) }
        do {
            _ = try DescriptorWriting.decompress(fileAt: path, into: file.descriptor, outputName: file.path,
                                                 maximumByteCount: maximumIndexByteCount)
        } catch .inputTooLarge(let limit) {
            throw .artifactTooLarge(format: format, path: path, limit: limit)
        } catch {
            throw .artifactUnreadable(format: format, reason: "\(error)")
        }
        do { return try CityIndex(path: file.path) } catch { throw failure(error, readingAt: file.path, given: path) }
    }

    /// `error`, or `.cityList` when the file at `contentPath` was no index because it holds
    /// JSON (its first byte after white space and a byte-order mark is `[` or `{`).
    private static func failure(_ error: IndexFileError, readingAt contentPath: String, given path: String) -> Failure {
        switch error {
        case .notAnIndexFile, .fileTooSmall:
            let prefix = FilePrefix.read(path: contentPath, count: 64) ?? []
            let content = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? prefix.dropFirst(3) : prefix[...]
            let first = content.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .cityList(path: path) : .index(error)
        default:
            return .index(error)
        }
    }

    /// The compression of the file's first bytes; nil when it cannot be read.
    private static func compression(ofFileAt path: String) -> CompressionFormat? {
        guard let prefix = FilePrefix.read(path: path, count: CompressionFormat.magicByteCount), !prefix.isEmpty else { return nil }
        return CompressionFormat.detect(fromPrefix: prefix)
    }
}
