// ServedIndex.swift: the index a server answers from, replaced whole when its file is.
import CityIndex
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index file a server serves, mapped, and the facts `/health` reports about it. A
/// request takes the `current` one once and answers from it to the end, so a replacement
/// never changes an answer halfway: the old mapping lives until its last request lets go.
///
/// The file at `path` is followed through symbolic links: a link pointed at another file, or
/// a file renamed over the link's target, is a replacement. A file changed in place (written
/// into or truncated, which `CityIndex.checkFileUnchanged()` and the SIGBUS guard notice) makes
/// the mapping unusable: `usable()` throws until the path holds a valid index again.
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
        /// The file served was changed in place: nothing is served until the path holds a
        /// valid index again.
        case changedInPlace(reason: String)
    }

    /// Why the served mapping cannot answer, since when.
    public struct Unavailable: Error, Sendable {
        public let reason: String
        public let since: Date
    }

    /// The path the index is read from (and read again when replaced).
    public let path: String
    private let loaded: Mutex<Loaded>
    /// Set while the file served was changed in place and no valid file has replaced it.
    private let unavailable = Mutex<Unavailable?>(nil)
    /// The identity of a file refused for what it holds: it is not read again until it changes.
    private let refusedIdentity = Mutex<FileIdentity?>(nil)
    /// A file refused for a passing reason (too many open files, no memory): tried again no
    /// sooner than this, each failure doubling the wait up to `longestRetryWait`.
    private let retry = Mutex<(notBefore: ContinuousClock.Instant, wait: Duration)?>(nil)
    static let firstRetryWait: Duration = .seconds(1)
    static let longestRetryWait: Duration = .seconds(60)

    /// Maps and verifies the index at `path` (FORMAT.md §8: every invariant and the checksum).
    /// - Throws: `IndexFileError` when it does not open or verify; `CocoaError` when the file
    ///   cannot be read.
    public init(path: String) throws {
        self.path = path
        loaded = Mutex(try Self.load(path))
    }

    /// The index served now, usable or not. O(1).
    public var current: Loaded { loaded.withLock { $0 } }

    /// The index to answer from: `current`, unless its file was changed in place. O(1).
    /// - Throws: `Unavailable` while the file served is damaged and not yet replaced.
    public func usable() throws(Unavailable) -> Loaded {
        if let unavailable = unavailable.withLock({ $0 }) { throw unavailable }
        return current
    }

    /// Why nothing is served, when nothing is.
    public var unavailableReason: Unavailable? { unavailable.withLock { $0 } }

    /// `loaded` answered a request: throws `Unavailable` (and stops serving the mapping) when
    /// its file was changed in place meanwhile, so that the answer is not sent. O(1), one `stat`.
    public func checkAnswered(from loaded: Loaded) throws(Unavailable) {
        do {
            try loaded.index.checkFileUnchanged()
        } catch {
            throw markUnavailable(of: loaded, reason: String(describing: error))
        }
    }

    @discardableResult
    private func markUnavailable(of mapping: Loaded, reason: String) -> Unavailable {
        unavailable.withLock { unavailable in
            // Only the mapping still served: a request on an older one says nothing of the new.
            guard current.identity == mapping.identity else { return unavailable ?? Unavailable(reason: reason, since: Date()) }
            if unavailable == nil { unavailable = Unavailable(reason: reason, since: Date()) }
            return unavailable!
        }
    }

    /// Maps the file again when it is another file than the one served (renamed over it, as
    /// `build-index` and `IndexStore` replace files, or a link pointed elsewhere), verifies it
    /// and swaps it in; a file that does not verify is refused once and the old index keeps
    /// serving. When the file served was changed in place, it stops serving it and maps the
    /// path again (at every check until a valid index is there). A file refused for a reason
    /// that passes (`IndexFileError.cannotOpenFile` or `.cannotMapFile` with EMFILE, ENFILE,
    /// ENOMEM, EAGAIN or EINTR) is tried again with a back-off of 1, 2, 4… up to 60 seconds.
    /// O(1) when nothing changed; O(file size) to verify a new one.
    public func checkForReplacement() -> CheckOutcome {
        let served = current
        var changedReason: String?
        if unavailable.withLock({ $0 }) == nil {
            do { try served.index.checkFileUnchanged() } catch {
                changedReason = String(describing: error)
                markUnavailable(of: served, reason: changedReason!)
            }
        }
        let isUnavailable = unavailable.withLock { $0 } != nil
        guard let identity = try? FileIdentity(path: path) else {
            return changedReason.map { .changedInPlace(reason: $0) } ?? .unchanged
        }
        // A new file, or (while nothing is served) any file not yet refused as it is now.
        let isRefused = identity == refusedIdentity.withLock({ $0 })
        guard (identity != served.identity || isUnavailable) && !isRefused else {
            return changedReason.map { .changedInPlace(reason: $0) } ?? .unchanged
        }
        if let retry = retry.withLock({ $0 }), ContinuousClock.now < retry.notBefore {
            return changedReason.map { .changedInPlace(reason: $0) } ?? .unchanged
        }
        do {
            let new = try Self.load(path)
            loaded.withLock { $0 = new }
            unavailable.withLock { $0 = nil }
            refusedIdentity.withLock { $0 = nil }
            retry.withLock { $0 = nil }
            return .replaced(checksum: new.checksum)
        } catch {
            if Self.isPassing(error) {
                retry.withLock { retry in
                    let wait = retry.map { min($0.wait * 2, Self.longestRetryWait) } ?? Self.firstRetryWait
                    retry = (ContinuousClock.now + wait, wait)
                }
            } else {
                refusedIdentity.withLock { $0 = identity }
            }
            let reason = String(describing: error)
            return changedReason.map { .changedInPlace(reason: $0 + "; the path does not hold a valid index: " + reason) }
                ?? .refused(reason: reason)
        }
    }

    /// Whether `error` is about this moment rather than the file: trying again may succeed.
    public static func isPassing(_ error: any Error) -> Bool {
        let passing: Set<Int32> = [EMFILE, ENFILE, ENOMEM, EAGAIN, EINTR]
        switch error as? IndexFileError {
        case .cannotOpenFile(_, let number)?, .cannotMapFile(_, let number)?: return passing.contains(number)
        default: return false
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

/// What tells one file from another at the same path, through symbolic links (`stat`, not
/// `lstat`): device, inode, size and modification time.
struct FileIdentity: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    init(path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(.init(rawValue: errno) ?? .EIO)])
        }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int(status.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(status.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        #endif
    }
}
