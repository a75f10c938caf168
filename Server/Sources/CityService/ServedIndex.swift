// ServedIndex.swift: the index a server answers from, replaced whole when its file is.
import CityIndex
import Foundation
import Synchronization

/// The index file a server serves, mapped, and the facts `/health` reports about it. A
/// request takes the `current` one once and answers from it to the end, so a replacement
/// never changes an answer halfway: the old mapping lives until its last request lets go.
public final class ServedIndex: Sendable {
    /// One mapping of the file, verified, with where it came from.
    public struct Loaded: Sendable {
        public let index: CityIndex
        /// The file's identity when it was mapped: a file renamed over it has another.
        let identity: FileIdentity
        /// When it was mapped.
        public let loadedAt: Date
        /// The header's CRC-32 (FORMAT.md §8), as 8 hexadecimal digits: names the file served.
        public var checksum: String {
            let hex = String(index.checksum, radix: 16)
            return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        }
    }

    /// What a check for a replaced file found.
    public enum CheckOutcome: Sendable, Equatable {
        /// The same file as before.
        case unchanged
        /// A new file, verified and now served.
        case replaced(checksum: String)
        /// A new file that failed to open or verify: the old index keeps serving.
        case refused(reason: String)
    }

    /// The path the index is read from (and read again when replaced).
    public let path: String
    private let loaded: Mutex<Loaded>
    /// The identity of a refused file: it is not read again until it changes.
    private let refusedIdentity = Mutex<FileIdentity?>(nil)

    /// Maps and verifies the index at `path` (FORMAT.md §8: every invariant and the checksum).
    /// - Throws: `IndexFileError` when it does not open or verify; `CocoaError` when the file
    ///   cannot be read.
    public init(path: String) throws {
        self.path = path
        loaded = Mutex(try Self.load(path))
    }

    /// The index served now. O(1).
    public var current: Loaded { loaded.withLock { $0 } }

    /// Maps the file again when it is another file than the one served (renamed over it, as
    /// `build-index` and `IndexStore` replace files), verifies it and swaps it in; a file that
    /// does not verify is refused once and the old index keeps serving. O(1) when nothing
    /// changed; O(file size) to verify a new one.
    public func checkForReplacement() -> CheckOutcome {
        guard let identity = try? FileIdentity(path: path),
              identity != current.identity, identity != refusedIdentity.withLock({ $0 }) else { return .unchanged }
        do {
            let new = try Self.load(path)
            loaded.withLock { $0 = new }
            refusedIdentity.withLock { $0 = nil }
            return .replaced(checksum: new.checksum)
        } catch {
            refusedIdentity.withLock { $0 = identity }
            return .refused(reason: String(describing: error))
        }
    }

    /// The most index entries one search reads (`CityIndex.searchEntryLimit`): above what the
    /// search box's queries read (at most tens of thousands) and the empty query in a country
    /// (every city of the index, 234,908 for `Data/`), far below what a short query with three
    /// typos over the whole earth reads (millions).
    public static let searchEntryLimit = 300_000

    private static func load(_ path: String) throws -> Loaded {
        // The identity first: a file replaced while it is read is read again at the next check.
        let identity = try FileIdentity(path: path)
        let index = try CityIndex(path: path)
        try index.verify()
        // A server answers many requests on few threads: one thread per typo-tolerant search.
        var served = index
        served.typoSearchThreads = 1
        // One request's work is bounded: a search that would read more entries is refused.
        served.searchEntryLimit = searchEntryLimit
        // The first query that names a place builds the index's place-name table (tens of
        // milliseconds on Data/): build it now, not during a user's first request.
        _ = try? served.search("a b", matching: .words, order: .population, limit: 1, typos: .automatic)
        return Loaded(index: served, identity: identity, loadedAt: Date())
    }
}

/// What tells one file from another at the same path: device, inode, size and modification time.
struct FileIdentity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Date

    init(path: String) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        device = (attributes[.systemNumber] as? NSNumber)?.uint64Value ?? 0
        inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        modified = attributes[.modificationDate] as? Date ?? .distantPast
    }
}
