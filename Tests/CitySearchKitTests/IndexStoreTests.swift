// IndexStoreTests.swift: the artifact cache against files and a real HTTP server on loopback.
import CityIndex
import CityIndexArtifacts
import CityIndexBuilder
import CityIndexTestSupport
import CitySearchKit
import Foundation
import Testing

/// `python3 -m http.server`-like server on 127.0.0.1 and a free port, serving `directory`.
final class LoopbackHTTPServer {
    let process = Process()
    let port: Int

    init(serving directory: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import http.server, os, sys
            os.chdir(sys.argv[1])
            class Quiet(http.server.SimpleHTTPRequestHandler):
                def log_message(self, *args): pass
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """, directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSetupError("the loopback HTTP server did not start")
        }
        self.port = port
    }

    func url(_ name: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(name)")! }

    /// Stops the server (idempotent). Signals and reaps it directly: `waitUntilExit()` can
    /// wait forever inside an async test on Linux.
    func stop() {
        let pid = process.processIdentifier
        guard pid > 0, kill(pid, 0) == 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}

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

    private func publish(_ bytes: [UInt8], as name: String) throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("published"), withIntermediateDirectories: true)
        try Data(bytes).write(to: directory.appendingPathComponent("published/\(name)"))
    }

    @Test("a compressed artifact over HTTP: fetched, verified, cached; fresh copies are mapped, stale ones refreshed")
    func httpArtifact() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(try ArtifactCodec.compress(Fixtures.smallIndexBytes, as: .xz), as: "cities.cidx.xz")
        let server = try LoopbackHTTPServer(serving: directory.appendingPathComponent("published"))
        defer { server.stop() }
        let time = StoreTime()
        let store = IndexStore(source: .url(server.url("cities.cidx.xz")), cacheDirectory: directory.appendingPathComponent("cache"),
                               freshnessWindow: .seconds(3600), now: { time.now })

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
        guard case .stale = stale.freshness else { Issue.record("expected stale, got \(stale.freshness)"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.cachePath)) == Data(Fixtures.smallIndexBytes))

        // A good gzip artifact refreshes it again.
        try publish(try ArtifactCodec.compress(Fixtures.smallIndexBytes, as: .gzip), as: "cities.cidx.xz")
        #expect(try await store.load().freshness == .refreshed)

        // With the server gone, the stale cache is still used and the reason given.
        server.stop()
        time.advance(seconds: 7200)
        let offline = try await store.load()
        guard case .stale(let reason) = offline.freshness else { Issue.record("expected stale"); return }
        #expect(!reason.isEmpty)
        #expect(try offline.index.search("mün").count == 2)
    }

    @Test("a file source; nothing cached and nothing fetchable is an error")
    func fileSourceAndUnavailable() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try publish(Fixtures.smallIndexBytes, as: "cities.cidx")
        let store = IndexStore(source: .file(directory.appendingPathComponent("published/cities.cidx").path),
                               cacheDirectory: directory.appendingPathComponent("cache"), freshnessWindow: .seconds(60))
        #expect(try await store.load().freshness == .refreshed)
        #expect(try await store.load().freshness == .fresh)

        let missing = IndexStore(source: .file(directory.appendingPathComponent("none.cidx.gz").path),
                                 cacheDirectory: directory.appendingPathComponent("cache2"), freshnessWindow: .seconds(60))
        await #expect(throws: IndexStore.StoreError.self) { try await missing.load() }
        // A failed refresh leaves no cache file behind.
        #expect(!FileManager.default.fileExists(atPath: missing.cachePath))
    }
}
