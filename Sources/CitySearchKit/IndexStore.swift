// IndexStore.swift: a downloaded index, cached, verified and refreshed.
import CityIndex
import CityIndexArtifacts
import Foundation
import Synchronization

/// Keeps a local, memory-mappable copy of an index published elsewhere (a file path or an
/// https URL of a plain, `.gz` or `.xz` index) and refreshes it when it is older than a
/// freshness window.
///
/// What it guarantees (README "Guarantees"):
/// - **Bounded.** A download streams to a temporary file (never into memory) and is dropped
///   past `Limits.maximumDownloadByteCount`, or past `maximumIndexByteCount` once
///   decompressed; it is dropped when the server does not answer within `responseTimeout`,
///   sends nothing for `stallTimeout`, or takes longer than `totalTimeout` in all.
/// - **Authentic when pinned.** With `expectedSHA256` (like SwiftPM's binary-target
///   checksums), downloaded bytes with any other SHA-256 are refused, and a cache is trusted
///   only if it came from bytes with that digest. Plain `http://` is refused unless
///   `allowsInsecureHTTP` (also when an https server redirects to it).
/// - **Verified, then atomic.** A new index is decompressed into a temporary file beside the
///   cache, mapped, fully verified (`verify()`), and renamed over the cache; its record (source,
///   fetch time, digest, size) is written after it. A failed, timed-out or killed refresh
///   leaves the previous cache as it was; the next refresh removes its temporary files.
/// - **Checked before use.** A cached copy is used (fresh or, when a refresh fails, stale)
///   only when its record names this source (and pin), its size matches, and its checksum
///   still verifies (`verifyChecksum()`, O(size)). A fetch time in the future, or not a
///   finite number, makes the copy stale, never fresh forever.
/// - **One cache per source.** Files are named by a hash of the whole source (see
///   `IndexCacheEntry`), never by a name from the network.
/// - **One refresh at a time.** Concurrent `load()` and `refresh()` calls of one store join a
///   single refresh; stores in other processes wait for it on a file lock and then use its
///   result.
public final class IndexStore: Sendable {
    /// Where the published index is.
    public enum Source: Sendable, Equatable {
        /// A local file (a regular file; plain, `.gz` or `.xz`).
        case file(String)
        /// An `https` (or, with `allowsInsecureHTTP`, `http`) URL.
        case url(URL)
    }

    /// How the returned index relates to the source.
    public enum Freshness: Sendable, Equatable {
        /// The cached copy, within the freshness window.
        case fresh
        /// Just fetched and verified.
        case refreshed
        /// The cached copy, past the window, because refreshing failed for `reason`.
        case stale(reason: RefreshError)
    }

    /// An opened index and how it relates to the source.
    public struct Loaded: Sendable {
        /// The index, mapped from the cache.
        public let index: CityIndex
        public let freshness: Freshness
        /// When the returned copy was fetched.
        public let fetchedAt: Date
    }

    /// Why `load()` returned no index.
    public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing usable is cached and refreshing failed for `reason`.
        case unavailable(reason: RefreshError)

        /// "no city index is available: " and the reason.
        public var description: String {
            switch self {
            case .unavailable(let reason): return "no city index is available: \(reason)"
            }
        }
    }

    /// Where the index is fetched from.
    public let source: Source
    /// How long a fetched copy counts as fresh.
    public let freshnessWindow: Duration
    /// The SHA-256 (64 lowercase hexadecimal digits) the downloaded bytes must have, if pinned.
    public let expectedSHA256: String?
    /// Whether plain `http://` sources (and redirects to them) are allowed.
    public let allowsInsecureHTTP: Bool
    /// The bounds on each refresh.
    public let limits: Limits
    /// The cached index file.
    public var cachePath: String { entry.indexPath }
    private let entry: IndexCacheEntry
    private let now: @Sendable () -> Date
    private let inFlight = InFlightRefresh()

    /// How far in the future a recorded fetch time may lie (clock adjustments) and still count.
    static let allowedClockSkew: TimeInterval = 300

    /// A store; nothing is fetched until `load()` or `refresh()`.
    ///
    /// ```swift
    /// let store = IndexStore(source: .url(URL(string: "https://example.com/cities.cidx.xz")!),
    ///                        cacheDirectory: cachesURL, freshnessWindow: .seconds(86_400),
    ///                        expectedSHA256: "…64 hex digits…")
    /// let loaded = try await store.load()
    /// ```
    /// - Parameters:
    ///   - source: the published index (a plain, `.gz` or `.xz` file).
    ///   - cacheDirectory: created when missing; holds `KEY.cidx`, `KEY.json` and `KEY.lock`
    ///     for a key hashed from the source (several sources may share one directory).
    ///   - expectedSHA256: pins the artifact: the SHA-256 of the bytes served (the `.xz` or
    ///     `.gz` file itself for a compressed artifact), as `shasum -a 256` prints it.
    ///   - freshnessWindow: how long a fetched copy is used without asking the source again.
    ///   - allowsInsecureHTTP: allows `http://` sources (pin them with `expectedSHA256`).
    ///   - limits: bounds in bytes and time on each refresh.
    ///   - now: the current time (tests pass their own).
    public init(source: Source, cacheDirectory: URL, freshnessWindow: Duration,
                expectedSHA256: String? = nil, allowsInsecureHTTP: Bool = false, limits: Limits = Limits(),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.source = source
        self.freshnessWindow = freshnessWindow
        self.expectedSHA256 = expectedSHA256?.lowercased()
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.limits = limits
        self.now = now
        let description: String
        switch source {
        case .file(let path): description = "file:" + URL(fileURLWithPath: path).standardizedFileURL.path
        case .url(let url): description = "url:" + url.absoluteString
        }
        entry = IndexCacheEntry(directory: cacheDirectory, sourceDescription: description)
    }

    /// The index: the cached copy when fresh, otherwise refreshed, otherwise (telling why) the
    /// stale cached copy.
    public func load() async throws(StoreError) -> Loaded {
        // Checked once (its checksum is O(size)): a failed refresh leaves this copy as it was.
        let cached = cachedCopy()
        if let cached, cached.isFresh { return cached.loaded(.fresh) }
        do {
            return try await refresh()
        } catch {
            if let cached { return cached.loaded(.stale(reason: error)) }
            throw .unavailable(reason: error)
        }
    }

    /// Fetches, decompresses and verifies the source, then replaces the cache atomically.
    /// Joins a refresh of this store already under way; waits for one of another process.
    public func refresh() async throws(RefreshError) -> Loaded {
        try await inFlight.join { () async throws(RefreshError) -> Loaded in try await self.performRefresh() }
    }

    // MARK: The cache

    /// A cached index that passed the checks of a usable copy, and its record.
    private struct CachedCopy {
        let index: CityIndex
        let record: IndexCacheEntry.Record
        let isFresh: Bool

        func loaded(_ freshness: Freshness) -> Loaded {
            Loaded(index: index, freshness: freshness, fetchedAt: Date(timeIntervalSince1970: record.fetchedAt))
        }
    }

    /// The cached index if it is usable: its record names this source (and pin), and the file
    /// has the recorded size and a valid checksum. O(file size) for the checksum.
    private func cachedCopy() -> CachedCopy? {
        guard let record = entry.readRecord(),
              expectedSHA256 == nil || record.downloadSHA256 == expectedSHA256,
              let index = try? CityIndex(path: entry.indexPath),
              index.fileByteCount == record.indexByteCount,
              (try? index.verifyChecksum()) != nil else { return nil }
        let age = now().timeIntervalSince1970 - record.fetchedAt
        let isFresh = record.fetchedAt.isFinite && age > -Self.allowedClockSkew && age < freshnessWindow.inSeconds
        return CachedCopy(index: index, record: record, isFresh: isFresh)
    }

    // MARK: Refreshing

    private func performRefresh() async throws(RefreshError) -> Loaded {
        try checkConfiguration()
        do {
            try FileManager.default.createDirectory(at: entry.directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWriteCache(path: entry.directory.path, reason: "\(error)")
        }
        let recordBefore = entry.readRecord()
        // Waiting for another process's refresh counts against this one's total time.
        let started = ContinuousClock.now
        let lock = try await acquireLock(until: started + limits.totalTimeout)
        defer { withExtendedLifetime(lock) {} }
        var limits = limits
        limits.totalTimeout -= ContinuousClock.now - started
        // Another process refreshed while this one waited: use its result.
        if let cached = cachedCopy(), cached.isFresh, cached.record != recordBefore { return cached.loaded(.fresh) }
        entry.removeLeftovers()

        // A file with no name: nothing of it outlives this process, however it ends.
        let download = try entry.makeTemporaryFile("download")
        defer { close(download.descriptor) }
        let outcome: ArtifactDownload.Outcome
        do {
            switch source {
            case .file(let path):
                outcome = try ArtifactDownload.copyFile(at: path, into: download.descriptor, limits: limits)
            case .url(let url):
                outcome = try await ArtifactDownload.download(url, into: download.descriptor, limits: limits,
                                                              allowsInsecureHTTP: allowsInsecureHTTP)
            }
        }
        if let expectedSHA256, outcome.sha256 != expectedSHA256 {
            throw .digestMismatch(expected: expectedSHA256, found: outcome.sha256)
        }
        // Decompressing and verifying take a second or two for a large index: on a thread of
        // their own, not one of the few of Swift's cooperative pool.
        let downloadPath = download.path
        let indexByteCount = try await Self.onOwnThread { () throws(RefreshError) -> Int in try self.decompress(downloadPath) }
        let fetchedAt = now()
        try entry.writeRecord(IndexCacheEntry.Record(source: entry.sourceDescription, fetchedAt: fetchedAt.timeIntervalSince1970,
                                                     downloadSHA256: outcome.sha256, indexByteCount: indexByteCount))
        do {
            return Loaded(index: try CityIndex(path: entry.indexPath), freshness: .refreshed, fetchedAt: fetchedAt)
        } catch {
            throw .invalidIndex(error)
        }
    }

    /// Decompresses the downloaded file into a temporary index file, verifies it whole, and
    /// renames it over the cache (`AtomicFileWriter`: the cache file keeps its mode and owner,
    /// a symbolic link stays one and its target is replaced, and the temporary file has no
    /// name until the rename, so a kill leaves nothing). Returns the index's size.
    private func decompress(_ downloadPath: String) throws(RefreshError) -> Int {
        let indexPath = AtomicFileWriter.followingSymbolicLinks(entry.indexPath)
        do {
            return try AtomicFileWriter.write(to: indexPath) { descriptor, temporaryPath throws(RefreshError) -> Int in
                do throws(InputError) {
                    _ = try DescriptorWriting.decompress(fileAt: downloadPath, into: descriptor, outputName: indexPath,
                                                         maximumByteCount: limits.maximumIndexByteCount)
                } catch {
                    throw Self.refreshError(error, limits: limits)
                }
                do throws(IndexFileError) {
                    let index = try CityIndex(path: temporaryPath)
                    try index.verify()
                    return index.fileByteCount
                } catch {
                    throw .invalidIndex(error)
                }
            }
        } catch let error as RefreshError {
            throw error
        } catch {
            throw .cannotWriteCache(path: indexPath, reason: (error as? AtomicFileWriter.WriteError)?.reason ?? "\(error)")
        }
    }

    /// Runs `work` on a new thread and waits for it without blocking the calling task's thread.
    private static func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws(RefreshError) -> Value)
        async throws(RefreshError) -> Value {
        let result: Result<Value, RefreshError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(RefreshError) { continuation.resume(returning: .success(try work())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "CityIndex verify"
            thread.start()
        }
        return try result.get()
    }

    private static func refreshError(_ error: InputError, limits: Limits) -> RefreshError {
        switch error {
        case .inputTooLarge: return .indexTooLarge(limit: limits.maximumIndexByteCount)
        case .corruptCompressedData, .truncatedCompressedData: return .corruptArtifact(reason: "\(error)")
        case .cannotOpen(let path, let reason), .readFailed(let path, let reason):
            return .cannotWriteCache(path: path, reason: reason)
        }
    }

    private func checkConfiguration() throws(RefreshError) {
        if let expectedSHA256, expectedSHA256.count != 64 || !expectedSHA256.allSatisfy(\.isHexDigit) {
            throw .invalidConfiguration("expectedSHA256 must be 64 hexadecimal digits; got '\(expectedSHA256)'")
        }
        guard case .url(let url) = source else { return }
        switch url.scheme?.lowercased() {
        case "https": return
        case "http": if !allowsInsecureHTTP { throw .insecureSource(url: url.absoluteString) }
        default:
            throw .invalidConfiguration("the source URL '\(url.absoluteString)' is not http(s); pass a local path as .file")
        }
    }

    /// Takes the source's cross-process lock, polling so that waiting never blocks a thread.
    /// A holder that dies releases it; one that is stopped, or slower than this refresh may be,
    /// makes it `.busy` at `deadline` (`load()` then serves the stale copy).
    private func acquireLock(until deadline: ContinuousClock.Instant) async throws(RefreshError) -> FileLock {
        let lock: FileLock
        do { lock = try FileLock(path: entry.lockPath) } catch {
            throw .cannotWriteCache(path: entry.lockPath, reason: error.reason)
        }
        let started = ContinuousClock.now
        while true {
            do {
                if try lock.tryLock() { return lock }
            } catch {
                throw .cannotWriteCache(path: entry.lockPath, reason: error.reason)
            }
            guard ContinuousClock.now < deadline else { throw .busy(lockPath: entry.lockPath, waited: ContinuousClock.now - started) }
            do { try await Task.sleep(for: .milliseconds(50)) } catch { throw .cancelled }
        }
    }
}

/// The refresh under way, which later callers join instead of starting their own.
private final class InFlightRefresh: Sendable {
    private let current = Mutex<Task<Result<IndexStore.Loaded, IndexStore.RefreshError>, Never>?>(nil)

    func join(_ refresh: @escaping @Sendable () async throws(IndexStore.RefreshError) -> IndexStore.Loaded)
        async throws(IndexStore.RefreshError) -> IndexStore.Loaded {
        let task = current.withLock { current in
            if let current { return current }
            let task = Task { () async -> Result<IndexStore.Loaded, IndexStore.RefreshError> in
                do throws(IndexStore.RefreshError) { return .success(try await refresh()) } catch { return .failure(error) }
            }
            current = task
            return task
        }
        let result = await task.value
        current.withLock { if $0 == task { $0 = nil } }
        return try result.get()
    }
}
