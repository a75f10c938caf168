// IndexStoreTests.swift: the artifact cache against files and a real HTTP server on loopback,
// including silent, trickling, endless, lying and colliding ones.
import CityIndex
import CityIndexArtifacts
import CityIndexBuilder
import CityIndexTestSupport
@_spi(Testing) import CitySearchKit
import Foundation
import Testing

/// A clock for the store that tests move by hand.
final class StoreTime: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(seconds: Double) { lock.withLock { current += seconds } }
}

@Suite("Index artifact cache (IndexStore)", .timeLimit(.minutes(10)))
struct IndexStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-store-\(UUID())")
    var published: URL { directory.appendingPathComponent("published") }
    var cache: URL { directory.appendingPathComponent("cache") }

    private func publish(_ bytes: [UInt8], as name: String) throws {
        try FileManager.default.createDirectory(at: published, withIntermediateDirectories: true)
        try Data(bytes).write(to: published.appendingPathComponent(name))
    }

    /// A loopback store (plain http allowed: there is no TLS on loopback here).
    private func store(_ url: URL, pin: String? = nil, limits: IndexStore.Limits = .init(), window: Duration = .seconds(3600),
                       time: StoreTime = StoreTime(), in cacheDirectory: URL? = nil) -> IndexStore {
        IndexStore(source: .url(url), cacheDirectory: cacheDirectory ?? cache, freshnessWindow: window,
                   expectedSHA256: pin, allowsInsecureHTTP: true, limits: limits, now: { time.now })
    }

    /// `load()`'s error, or nil when it succeeded.
    private func loadError(_ store: IndexStore) async -> IndexStore.RefreshError? {
        do {
            _ = try await store.load()
            return nil
        } catch {
            guard case .unavailable(let reason) = error else { return nil }
            return reason
        }
    }

    private static let oneCityIndex: [UInt8] = try! IndexBuilder().build(jsonBytes: Array(
        #"[{"country":"XX","name":"Evil","_id":1,"coord":{"lon":0,"lat":0}}]"#.utf8)).bytes

    @Test("a compressed artifact over HTTP: fetched, verified, cached; fresh copies are mapped, stale ones refreshed")
    func httpArtifact() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(try ArtifactCodec.compress(Fixtures.smallIndexBytes, as: .xz), as: "cities.cidx.xz")
        let server = try LoopbackHTTPServer(serving: published)
        defer { server.stop() }
        let time = StoreTime()
        let store = store(server.url("/files/cities.cidx.xz"), time: time)

        let first = try await store.load()
        #expect(first.freshness == .refreshed)
        #expect(try first.index.search("paris").count == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.cachePath)) == Data(Fixtures.smallIndexBytes))

        // Within the window the cache is used even if the source changes.
        try publish(Array("not an index".utf8), as: "cities.cidx.xz")
        time.advance(seconds: 60)
        #expect(try await store.load().freshness == .fresh)

        // Past the window the broken source fails verification: the stale cache is used, intact.
        time.advance(seconds: 3600)
        let stale = try await store.load()
        guard case .stale(let reason) = stale.freshness, case .invalidIndex = reason else {
            Issue.record("expected stale for an invalid index, got \(stale.freshness)"); return
        }
        #expect(!reason.description.contains("build-index"), "\(reason)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.cachePath)) == Data(Fixtures.smallIndexBytes))

        // A good gzip artifact refreshes it again.
        try publish(try ArtifactCodec.compress(Fixtures.smallIndexBytes, as: .gzip), as: "cities.cidx.xz")
        #expect(try await store.load().freshness == .refreshed)

        // With the server gone, the stale cache is still used and the reason given.
        server.stop()
        time.advance(seconds: 7200)
        let offline = try await store.load()
        guard case .stale(.cannotFetch) = offline.freshness else { Issue.record("expected stale, got \(offline.freshness)"); return }
        #expect(try offline.index.search("mün").count == 2)
    }

    @Test("a file source; nothing cached and nothing fetchable is an error; a FIFO source is refused, not waited on")
    func fileSourceAndUnavailable() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let store = IndexStore(source: .file(published.appendingPathComponent("cities.cidx").path),
                               cacheDirectory: cache, freshnessWindow: .seconds(60))
        #expect(try await store.load().freshness == .refreshed)
        #expect(try await store.load().freshness == .fresh)

        let missing = IndexStore(source: .file(directory.appendingPathComponent("none.cidx.gz").path),
                                 cacheDirectory: directory.appendingPathComponent("cache2"), freshnessWindow: .seconds(60))
        await #expect(throws: IndexStore.StoreError.self) { try await missing.load() }
        // A failed refresh leaves no cache file behind.
        #expect(!FileManager.default.fileExists(atPath: missing.cachePath))

        let fifo = directory.appendingPathComponent("pipe.cidx").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let piped = IndexStore(source: .file(fifo), cacheDirectory: cache, freshnessWindow: .seconds(60))
        guard case .cannotFetch(_, let reason)? = await loadError(piped) else { Issue.record("a FIFO source was accepted"); return }
        #expect(reason.contains("not a regular file"))
    }

    @Test("plain http is refused unless allowed, before any request")
    func insecureHTTPRefused() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let server = try LoopbackHTTPServer(serving: published)
        defer { server.stop() }
        let url = server.url("/files/cities.cidx")
        let store = IndexStore(source: .url(url), cacheDirectory: cache, freshnessWindow: .seconds(60))
        #expect(await loadError(store) == .insecureSource(url: url.absoluteString))
        #expect(try server.requestCount("/files/cities.cidx") == 0)
        let ftp = IndexStore(source: .url(URL(string: "ftp://example.com/cities.cidx")!), cacheDirectory: cache,
                             freshnessWindow: .seconds(60))
        guard case .invalidConfiguration? = await loadError(ftp) else { Issue.record("ftp accepted"); return }
        let badPin = IndexStore(source: .url(URL(string: "https://example.com/cities.cidx")!), cacheDirectory: cache,
                                freshnessWindow: .seconds(60), expectedSHA256: "abc")
        guard case .invalidConfiguration? = await loadError(badPin) else { Issue.record("a 3-digit pin accepted"); return }
    }

    @Test("a redirect to file: or ftp: says so (http allowed or not); headers then silence is a stalled download, not no response")
    func redirectAndSilenceMessages() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackHTTPServer(serving: directory)
        defer { server.stop() }
        for target in ["file:///etc/passwd", "ftp://127.0.0.1/cities.cidx"] {
            let redirecting = server.url("/redirect?to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            // Before: "refusing to download … over plain http: … pass allowsInsecureHTTP", with it passed.
            let error = await loadError(store(redirecting))
            guard case .cannotFetch(_, let reason)? = error else { Issue.record("\(target): \(String(describing: error))"); continue }
            #expect(reason.contains("redirected to '\(target)'"), "\(reason)")
        }
        // Before: reported as .response, "the server sent no response within 0.5 s".
        // (The headers come at once; 30 s for them leaves a loaded machine no way to a .response.)
        let silent = await loadError(store(server.url("/headers-then-silence"),
                                           limits: .init(responseTimeout: .seconds(30), stallTimeout: .milliseconds(700))))
        guard case .timedOut(.stall, _)? = silent else { Issue.record("\(String(describing: silent))"); return }
    }

    @Test("a silent server, a trickling one and a slow whole download each time out, within bounds")
    func timeouts() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackHTTPServer(serving: directory)
        defer { server.stop() }
        let clock = ContinuousClock()
        let cases: [(path: String, limits: IndexStore.Limits, expected: IndexStore.RefreshError.TimeoutKind)] = [
            ("/silent", .init(responseTimeout: .milliseconds(500)), .response),
            // A redirect, then silence: no final response (it was reported as the total limit,
            // "took longer than 59.999940522 s" after 5 s).
            ("/redirect?to=" + server.url("/silent").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
             .init(responseTimeout: .milliseconds(500)), .response),
            ("/trickle?interval=2", .init(stallTimeout: .milliseconds(500)), .stall),
            // One byte every 0.1 s is never a stall (30 s: not even on a loaded machine), but the
            // whole download is bounded.
            ("/trickle?interval=0.1", .init(stallTimeout: .seconds(30), totalTimeout: .milliseconds(1500)), .total),
        ]
        for (path, limits, expected) in cases {
            let started = clock.now
            let error = await loadError(store(server.url(path), limits: limits))
            let elapsed = clock.now - started
            guard case .timedOut(let kind, _)? = error else { Issue.record("\(path): \(String(describing: error))"); continue }
            #expect(kind == expected, "\(path)")
            if expected == .response { #expect(error?.description == "the server sent no response within 0.5 s", "\(path)") }
            // Only a hang guard: the kind above proves which limit ended it. (Under the parallel
            // suite, a resumed task may wait many seconds for a free thread, so no tighter bound.)
            #expect(elapsed < .seconds(120), "\(path) took \(elapsed)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).allSatisfy { $0.hasSuffix(".lock") })
    }

    @Test("an endless body stops at the download limit; a decompression bomb at the index limit; nothing is held in memory")
    func sizeLimits() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackHTTPServer(serving: published)
        defer { server.stop() }
        try publish(try ArtifactCodec.compress([UInt8](repeating: 0, count: 64 << 20), as: .gzip), as: "bomb.cidx.gz")
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")

        let endless = await loadError(store(server.url("/endless"), limits: .init(maximumDownloadByteCount: 8 << 20)))
        #expect(endless == .downloadTooLarge(limit: 8 << 20))
        let bomb = await loadError(store(server.url("/files/bomb.cidx.gz"), limits: .init(maximumIndexByteCount: 4 << 20)))
        #expect(bomb == .indexTooLarge(limit: 4 << 20))
        // A declared length over the limit is refused before the body.
        let declared = await loadError(store(server.url("/files/cities.cidx"), limits: .init(maximumDownloadByteCount: 100)))
        #expect(declared == .downloadTooLarge(limit: 100))
        #expect(await loadError(store(server.url("/status/404"))) == .httpStatus(url: server.url("/status/404").absoluteString, status: 404))
        // An error status with an endless body stops at the status (before: read to the download
        // limit, 256 MiB by default, and reported as too large).
        let endless404 = await loadError(store(server.url("/endless-404"), limits: .init(maximumDownloadByteCount: 8 << 20)))
        #expect(endless404 == .httpStatus(url: server.url("/endless-404").absoluteString, status: 404))
        // Temporary files are gone; only lock files remain.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).allSatisfy { $0.hasSuffix(".lock") })
    }

    @Test("a pinned SHA-256: other bytes are refused and never replace the cache; a changed pin distrusts the old cache")
    func pinnedDigest() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try ArtifactCodec.compress(Fixtures.smallIndexBytes, as: .gzip)
        let pin = SHA256.hexDigest(of: good)
        try publish(good, as: "cities.cidx.gz")
        let server = try LoopbackHTTPServer(serving: published)
        defer { server.stop() }
        let time = StoreTime()
        let url = server.url("/files/cities.cidx.gz")
        #expect(try await store(url, pin: pin.uppercased(), time: time).load().freshness == .refreshed)

        // A valid but different index (one city) is served: refused, the good cache stays.
        try publish(Self.oneCityIndex, as: "cities.cidx.gz")
        time.advance(seconds: 7200)
        let refused = try await store(url, pin: pin, time: time).load()
        guard case .stale(.digestMismatch(let expected, let found)) = refused.freshness else {
            Issue.record("expected a digest mismatch, got \(refused.freshness)"); return
        }
        #expect(expected == pin && found == SHA256.hexDigest(of: Self.oneCityIndex))
        #expect(refused.index.cityCount == Fixtures.smallIndex.cityCount)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store(url, pin: pin).cachePath)) == Data(Fixtures.smallIndexBytes))

        // Unpinned, the same one-city file is accepted (it is a valid index): pinning is what refuses it.
        let unpinned = try await store(url, time: time).load()
        #expect(unpinned.freshness == .refreshed && unpinned.index.cityCount == 1)
        // Now the cache came from other bytes: a store pinned to the good artifact does not trust it.
        try publish(good, as: "cities.cidx.gz")
        let repinned = try await store(url, pin: pin, time: time).load()
        #expect(repinned.freshness == .refreshed && repinned.index.cityCount == Fixtures.smallIndex.cityCount)
    }

    @Test("sources whose URLs end alike get separate caches; a traversal in the URL cannot leave the cache directory")
    func cacheKeyedBySource() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        try publish(Self.oneCityIndex, as: "other.cidx")
        let server = try LoopbackHTTPServer(serving: published)
        defer { server.stop() }
        // Two URLs ending in "cities.cidx" (the server ignores the query) that serve different files.
        let first = store(server.url("/files/cities.cidx?mirror=a"))
        let second = store(server.url("/files/other.cidx?as=/cities.cidx"))
        #expect(try await first.load().index.cityCount == Fixtures.smallIndex.cityCount)
        let loadedSecond = try await second.load()
        #expect(loadedSecond.freshness == .refreshed && loadedSecond.index.cityCount == 1)
        #expect(first.cachePath != second.cachePath)

        let traversal = store(server.url("/files/..%2F..%2F..%2Fescaped.cidx"))
        _ = try? await traversal.load()
        #expect(URL(fileURLWithPath: traversal.cachePath).deletingLastPathComponent().path == cache.path)
        let outside = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(outside) == ["published", "cache"], "\(outside)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).allSatisfy {
            $0.range(of: #"^[0-9a-f]{32}\.(cidx|json|lock)$"#, options: .regularExpression) != nil
        })
    }

    @Test("a damaged cache body or a fetch time in the future is never trusted as fresh")
    func cacheCheckedBeforeUse() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let server = try LoopbackHTTPServer(serving: published)
        defer { server.stop() }
        let time = StoreTime()
        let store = store(server.url("/files/cities.cidx"), time: time)
        #expect(try await store.load().freshness == .refreshed)

        // One byte of the body changes (size and header intact): refreshed, not served.
        let descriptor = open(store.cachePath, O_WRONLY)
        var byte: UInt8 = 0x5A
        #expect(pwrite(descriptor, &byte, 1, off_t(Fixtures.smallIndexBytes.count - 3)) == 1)
        close(descriptor)
        #expect(try await store.load().freshness == .refreshed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.cachePath)) == Data(Fixtures.smallIndexBytes))

        // A record claiming a fetch far in the future (or at infinity) does not keep the cache fresh.
        let recordPath = String(store.cachePath.dropLast(".cidx".count)) + ".json"
        for future in ["1e12", "1e999"] {
            let record = try String(contentsOfFile: recordPath, encoding: .utf8)
            let edited = record.replacingOccurrences(of: #""fetchedAt":[0-9.e+]+"#, with: "\"fetchedAt\":\(future)",
                                                     options: .regularExpression)
            #expect(edited != record)
            try Data(edited.utf8).write(to: URL(fileURLWithPath: recordPath))
            #expect(try await store.load().freshness == .refreshed, "fetchedAt \(future)")
        }
        // Damaged and unreachable: refused as a stale copy too.
        let damaged = open(store.cachePath, O_WRONLY)
        #expect(pwrite(damaged, &byte, 1, off_t(Fixtures.smallIndexBytes.count - 3)) == 1)
        close(damaged)
        server.stop()
        time.advance(seconds: 7200)
        guard case .cannotFetch? = await loadError(store) else { Issue.record("a damaged cache was used"); return }
    }

    @Test("another process's lock held past the total time limit: the stale copy, as .busy, within the limit", .timeLimit(.minutes(1)))
    func lockHeldElsewhere() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let time = StoreTime()
        let limits = IndexStore.Limits(totalTimeout: .seconds(1))
        let store = IndexStore(source: .file(published.appendingPathComponent("cities.cidx").path), cacheDirectory: cache,
                               freshnessWindow: .seconds(60), limits: limits, now: { time.now })
        _ = try await store.load()
        time.advance(seconds: 120)   // the cached copy is stale now
        // "Another process" (another open file description) holds the source's lock and never lets go.
        let lockFile = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasSuffix(".lock") })
        let holder = open(cache.appendingPathComponent(lockFile).path, O_RDWR)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let started = ContinuousClock.now
        let loaded = try await store.load()
        let waited = ContinuousClock.now - started
        // Before: load() waited as long as the holder held the lock (forever for a stopped one).
        guard case .stale(reason: .busy) = loaded.freshness else {
            Issue.record("expected the stale copy for a busy lock, got \(loaded.freshness)")
            return
        }
        // The .busy answer proves it gave up on a lock that is never released; this is only a
        // hang guard (under the parallel suite a sleeping task may resume many seconds late).
        #expect(waited < .seconds(120))
        #expect(loaded.index.cityCount == Fixtures.smallIndex.cityCount)
    }

    @Test("temporary files of killed refreshes are removed by the next refresh")
    func leftoversRemoved() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let store = IndexStore(source: .file(published.appendingPathComponent("cities.cidx").path),
                               cacheDirectory: cache, freshnessWindow: .seconds(60))
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let key = URL(fileURLWithPath: store.cachePath).deletingPathExtension().lastPathComponent
        let leftovers = ["\(key).download-a1B2c3", "\(key).index-Z9y8X7", ".\(key).json.tmp-q1w2e3"]
        for name in leftovers { try Data(repeating: 1, count: 1 << 20).write(to: cache.appendingPathComponent(name)) }
        let unrelated = cache.appendingPathComponent("someone-else.download-a1B2c3")
        try Data([1]).write(to: unrelated)
        #expect(try await store.load().freshness == .refreshed)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: cache.path))
        #expect(names == ["\(key).cidx", "\(key).json", "\(key).lock", "someone-else.download-a1B2c3"])
    }

    @Test("a refresh keeps the cache files' modes, and a cache index that is a symbolic link stays one, its target replaced")
    func cacheModesAndLinksKept() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = published.appendingPathComponent("cities.cidx")
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let time = StoreTime()
        let store = IndexStore(source: .file(source.path), cacheDirectory: cache, freshnessWindow: .seconds(60), now: { time.now })
        #expect(try await store.load().freshness == .refreshed)
        let recordPath = URL(fileURLWithPath: store.cachePath).deletingPathExtension().appendingPathExtension("json").path
        chmod(store.cachePath, 0o600)
        chmod(recordPath, 0o640)
        try publish(Self.oneCityIndex, as: "cities.cidx")
        time.advance(seconds: 120)
        #expect(try await store.load().freshness == .refreshed)
        // Before: both came back 0644 (the index by an explicit fchmod), readable by everyone.
        let mode = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int }
        #expect(try mode(store.cachePath) == 0o600 && mode(recordPath) == 0o640)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.cachePath)) == Data(Self.oneCityIndex))

        // The cache index moved elsewhere behind a link: the link stays, its target is refreshed.
        let elsewhere = directory.appendingPathComponent("elsewhere.cidx").path
        try FileManager.default.moveItem(atPath: store.cachePath, toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: store.cachePath, withDestinationPath: elsewhere)
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        time.advance(seconds: 120)
        #expect(try await store.load().freshness == .refreshed)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store.cachePath) == elsewhere)
        #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)) == Data(Fixtures.smallIndexBytes))
        #expect(try mode(elsewhere) == 0o600)
    }

    @Test("concurrent loads join one download: in one store, and across stores (processes) through the file lock")
    func concurrentLoadsJoin() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let server = try LoopbackHTTPServer(serving: published)
        defer { server.stop() }
        let shared = store(server.url("/files/cities.cidx?delay=0.5"))
        let freshnesses = try await withThrowingTaskGroup(of: IndexStore.Freshness.self) { group in
            for _ in 0 ..< 6 { group.addTask { try await shared.load().freshness } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // However the six start (a loaded machine may start one after the download ended):
        // one request in all; each load joined it (.refreshed) or found its result (.fresh).
        #expect(freshnesses.count == 6 && freshnesses.contains(.refreshed)
                && freshnesses.allSatisfy { $0 == .refreshed || $0 == .fresh }, "\(freshnesses)")
        #expect(try server.requestCount("/files/cities.cidx") == 1)

        // Separate stores (as separate processes would have) on one cache: the file lock joins them.
        let otherCache = directory.appendingPathComponent("cache-shared")
        let stores = (0 ..< 3).map { _ in store(server.url("/files/cities.cidx?delay=0.5"), in: otherCache) }
        let results = try await withThrowingTaskGroup(of: IndexStore.Freshness.self) { group in
            for store in stores { group.addTask { try await store.load().freshness } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 == .refreshed }.count == 1 && results.filter { $0 == .fresh }.count == 2, "\(results)")
        #expect(try server.requestCount("/files/cities.cidx") == 2)
    }
}

@Suite("Index artifact cache over https (IndexStore's default)", .timeLimit(.minutes(5)))
struct IndexStoreHTTPSTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-https-\(UUID())")

    /// A loopback https server publishing the small index as `cities.cidx.xz`, and its certificates.
    private func server() throws -> (LoopbackHTTPServer, LoopbackCertificates) {
        let published = directory.appendingPathComponent("published")
        try FileManager.default.createDirectory(at: published, withIntermediateDirectories: true)
        try Data(try ArtifactCodec.compress(Fixtures.smallIndexBytes, as: .xz)).write(to: published.appendingPathComponent("cities.cidx.xz"))
        let certificates = try LoopbackCertificates(in: directory.appendingPathComponent("certificates"))
        return (try LoopbackHTTPServer(serving: published, certificate: certificates), certificates)
    }

    /// A store of `url` with the default transport rules (no plain http), trusting `authority`.
    private func store(_ url: URL, trusting authority: URL?, cache: String) -> IndexStore {
        var limits = IndexStore.Limits(totalTimeout: .seconds(60))
        limits.certificateAuthorityFile = authority?.path
        return IndexStore(source: .url(url), cacheDirectory: directory.appendingPathComponent(cache),
                          freshnessWindow: .seconds(3600), limits: limits)
    }

    /// Why `store.load()` failed, as its description, or nil when it succeeded.
    private func failure(_ store: IndexStore) async -> String? {
        do {
            _ = try await store.load()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test("a server whose certificate chains to a trusted authority: downloaded, verified, cached; an untrusted authority or another host name: refused, nothing cached")
    func httpsDownload() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, certificates) = try server()
        defer { server.stop() }
        let url = server.url("/files/cities.cidx.xz")
        #expect(url.scheme == "https")

        let trusted = store(url, trusting: certificates.authority, cache: "trusted")
        let loaded = try await trusted.load()
        #expect(loaded.freshness == .refreshed)
        #expect(loaded.index.cityCount == Fixtures.smallIndex.cityCount)
        #expect(try Data(contentsOf: URL(fileURLWithPath: trusted.cachePath)) == Data(Fixtures.smallIndexBytes))

        // The system's authorities do not include the test's own: the peer is verified.
        let untrusted = store(url, trusting: nil, cache: "untrusted")
        let refused = await failure(untrusted)
        #expect(refused?.lowercased().contains("certificate") == true, "\(refused ?? "downloaded")")
        #expect(!FileManager.default.fileExists(atPath: untrusted.cachePath))

        // The certificate names 127.0.0.1 only: "localhost" is another host, refused.
        let otherName = store(server.url("/files/cities.cidx.xz", host: "localhost"), trusting: certificates.authority, cache: "other-name")
        let mismatch = await failure(otherName)
        #expect(mismatch != nil, "a certificate for 127.0.0.1 was accepted for localhost")
        #expect(!FileManager.default.fileExists(atPath: otherName.cachePath))
    }
}
