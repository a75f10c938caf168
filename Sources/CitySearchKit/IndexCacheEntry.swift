// IndexCacheEntry.swift: the files one source owns in an IndexStore cache directory.
import CityIndex
import CityIndexArtifacts
import Foundation

/// The files of one source in the cache directory, all named by `key`, the first 32 hex
/// digits of the SHA-256 of the source (`url:` + the whole URL, or `file:` + the standardized
/// path). No part of a name comes from the network, so two sources never share a cache and
/// no URL can name a path outside the directory.
///
/// - `KEY.cidx`: the verified index, replaced only by rename (`AtomicFileWriter`: its mode,
///   owner and symbolic link are kept).
/// - `KEY.json`: its `Record` (written after the index, atomically).
/// - `KEY.lock`: the advisory lock a refresh holds (`FileLock`): one refresh per source at a
///   time across processes; leftovers are removed under it.
///
/// A refresh's temporary files have no name (the download, and the index until its rename);
/// where the system cannot make nameless files, `KEY.download-XXXXXX` and `.KEY.cidx.tmp-XXXXXX`
/// exist for an instant, and earlier versions left `KEY.download-`, `KEY.index-` files when
/// killed: `removeLeftovers` removes them.
struct IndexCacheEntry: Sendable {
    let directory: URL
    let key: String
    let sourceDescription: String

    /// What is known about the cached index: written only after it was verified.
    struct Record: Codable, Equatable {
        /// The source it came from (guards against a key collision, and tells a reader).
        var source: String
        /// When it was fetched, seconds since 1970.
        var fetchedAt: Double
        /// The SHA-256 of the downloaded bytes (what `expectedSHA256` pins).
        var downloadSHA256: String
        /// The index file's size.
        var indexByteCount: Int
    }

    init(directory: URL, sourceDescription: String) {
        self.directory = directory
        self.sourceDescription = sourceDescription
        key = String(SHA256.hexDigest(of: Array(sourceDescription.utf8)).prefix(32))
    }

    var indexPath: String { directory.appendingPathComponent(key + ".cidx").path }
    var recordPath: String { directory.appendingPathComponent(key + ".json").path }
    var lockPath: String { directory.appendingPathComponent(key + ".lock").path }

    /// The record, if there is a readable one for this source.
    func readRecord() -> Record? {
        guard let data = FileManager.default.contents(atPath: recordPath),
              let record = try? JSONDecoder().decode(Record.self, from: data),
              record.source == sourceDescription else { return nil }
        return record
    }

    func writeRecord(_ record: Record) throws(IndexStore.RefreshError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try AtomicFileWriter.write(Array(try encoder.encode(record)), to: AtomicFileWriter.followingSymbolicLinks(recordPath))
        } catch {
            throw .cannotWriteCache(path: recordPath, reason: "\(error)")
        }
    }

    /// Creates a new temporary file with no name for `purpose` ("download"), open for reading
    /// and writing, and a path that opens it while its descriptor is open.
    func makeTemporaryFile(_ purpose: String) throws(IndexStore.RefreshError) -> (descriptor: Int32, path: String) {
        do {
            return try TemporaryFile.createNameless(in: directory.path, prefix: "\(key).\(purpose)-")
        } catch {
            throw .cannotWriteCache(path: directory.path, reason: error.reason)
        }
    }

    /// Removes the temporary files of refreshes that were killed (call while holding the lock:
    /// no live refresh of this source owns any). Returns how many were removed.
    @discardableResult
    func removeLeftovers() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let prefixes = ["\(key).download-", "\(key).index-", ".\(key).json.tmp-", ".\(key).cidx.tmp-"]
        var removed = 0
        for name in names where prefixes.contains(where: { name.hasPrefix($0) }) {
            if unlink(directory.appendingPathComponent(name).path) == 0 { removed += 1 }
        }
        return removed
    }
}
