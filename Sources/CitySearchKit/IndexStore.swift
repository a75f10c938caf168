// IndexStore.swift: a downloaded index, cached and refreshed.
import CityIndex
import CityIndexArtifacts
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps a local, memory-mappable copy of an index published elsewhere (a file path or an
/// http(s) URL of a plain, `.gz` or `.xz` index) and refreshes it when it is older than a
/// freshness window.
///
/// A fresh cached copy is mapped directly. A stale or missing one is fetched, decompressed,
/// opened and fully verified (checksum and structure) in memory, written to a temporary file
/// and renamed into place, and the fetch time recorded. When fetching fails, a stale cache is
/// still used and the caller is told why. A failed or interrupted refresh never leaves a
/// broken cache.
public final class IndexStore: Sendable {
    public enum Source: Sendable, Equatable {
        case file(String)
        case url(URL)
    }

    /// How the returned index relates to the source.
    public enum Freshness: Sendable, Equatable {
        /// The cached copy, within the freshness window.
        case fresh
        /// Just fetched and verified.
        case refreshed
        /// The cached copy, past the window, because refreshing failed for `reason`.
        case stale(reason: String)
    }

    public struct Loaded: Sendable {
        public let index: CityIndex
        public let freshness: Freshness
        /// When the returned copy was fetched.
        public let fetchedAt: Date
    }

    public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing is cached and the source could not be fetched or was not a valid index.
        case unavailable(reason: String)

        public var description: String {
            switch self {
            case .unavailable(let reason): return "no city index is available: \(reason)"
            }
        }
    }

    public let source: Source
    public let freshnessWindow: Duration
    /// The cached index file and the file recording its fetch time.
    public let cachePath: String
    private let stampPath: String
    private let maximumArtifactByteCount: Int
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - cacheDirectory: created when missing; holds `NAME.cidx` and `NAME.cidx.fetched`.
    ///   - now: the current time (tests pass their own).
    public init(source: Source, cacheDirectory: URL, freshnessWindow: Duration,
                maximumArtifactByteCount: Int = 1 << 30, now: @escaping @Sendable () -> Date = Date.init) {
        self.source = source
        self.freshnessWindow = freshnessWindow
        self.maximumArtifactByteCount = maximumArtifactByteCount
        self.now = now
        let sourceName: String
        switch source {
        case .file(let path): sourceName = URL(fileURLWithPath: path).lastPathComponent
        case .url(let url): sourceName = url.lastPathComponent
        }
        var name = sourceName
        for suffix in [".gz", ".xz", ".cidx"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        if name.isEmpty { name = "cities" }
        cachePath = cacheDirectory.appendingPathComponent(name + ".cidx").path
        stampPath = cachePath + ".fetched"
        try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
    }

    /// The index: cached when fresh, otherwise refreshed, otherwise (telling why) stale.
    public func load() async throws(StoreError) -> Loaded {
        let cachedAt = fetchTime()
        if let cachedAt, now().timeIntervalSince(cachedAt) < Self.seconds(freshnessWindow),
           let index = try? CityIndex(path: cachePath) {
            return Loaded(index: index, freshness: .fresh, fetchedAt: cachedAt)
        }
        do {
            return try await refresh()
        } catch {
            if let cachedAt, let index = try? CityIndex(path: cachePath) {
                return Loaded(index: index, freshness: .stale(reason: "\(error)"), fetchedAt: cachedAt)
            }
            throw .unavailable(reason: "\(error)")
        }
    }

    /// Fetches, decompresses and verifies the source, then replaces the cache atomically.
    public func refresh() async throws -> Loaded {
        let fetched = try await fetchBytes()
        let bytes = try ArtifactCodec.decompress(fetched, maximumByteCount: maximumArtifactByteCount)
        try CityIndex(bytes: bytes).verify()
        let fetchedAt = now()
        try AtomicFileWriter.write(bytes, to: cachePath)
        try AtomicFileWriter.write(Array(String(fetchedAt.timeIntervalSince1970).utf8), to: stampPath)
        return Loaded(index: try CityIndex(path: cachePath), freshness: .refreshed, fetchedAt: fetchedAt)
    }

    private func fetchBytes() async throws -> [UInt8] {
        switch source {
        case .file(let path):
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        case .url(let url):
            let (data, response) = try await URLSession.shared.data(from: url)
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                throw FetchError(description: "\(url) answered HTTP \(http.statusCode)")
            }
            return [UInt8](data)
        }
    }

    private struct FetchError: Error, CustomStringConvertible {
        let description: String
    }

    /// When the cached copy was fetched, if there is one with a readable stamp.
    private func fetchTime() -> Date? {
        guard let text = try? String(contentsOfFile: stampPath, encoding: .utf8),
              let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
