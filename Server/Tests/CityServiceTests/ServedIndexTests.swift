// ServedIndexTests.swift: an index file replaced underneath the server.
import CityIndex
import CityService
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@Suite("city-server's index, replaced underneath")
struct ServedIndexTests {
    @Test("a file renamed over the index is verified and served; requests holding the old one finish on it")
    func replaced() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let before = fixture.served.current
        #expect(fixture.served.checkForReplacement() == .unchanged)
        let json = ServiceFixture.citiesJSON.replacingOccurrences(of: #""name":"Paris","_id":4717560"#, with: #""name":"Parisville","_id":4717560"#)
        try ServiceFixture.writeIndex(json, to: fixture.path)
        guard case .replaced(let checksum) = fixture.served.checkForReplacement() else {
            Issue.record("the replacement was not served")
            return
        }
        #expect(checksum == fixture.served.current.checksum && checksum != before.checksum)
        #expect(fixture.served.checkForReplacement() == .unchanged)
        // The old mapping still answers: a request that took it before the swap.
        #expect(try before.index.search("paris", matching: .words, order: .population, limit: 5).map(\.name) == ["Paris", "Paris"])
        #expect(try fixture.served.current.index.search("paris", matching: .words, order: .population, limit: 5).map(\.name)
            == ["Paris", "Parisville"])
    }

    @Test("a damaged replacement is refused once, and the old index keeps serving")
    func damaged() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let served = fixture.served.current.checksum
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        bytes[bytes.count / 2] ^= 0xFF
        let temporary = fixture.path + ".damaged"
        try bytes.write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, fixture.path) == 0)
        guard case .refused(let reason) = fixture.served.checkForReplacement() else {
            Issue.record("a damaged file was served")
            return
        }
        #expect(!reason.isEmpty)
        #expect(fixture.served.checkForReplacement() == .unchanged)
        #expect(fixture.served.current.checksum == served)
        try await fixture.withClient { client in
            try await client.execute(uri: "/health", method: .get) { response in
                try #expect((json(response)["index"] as? [String: Any])?["checksum"] as? String == served)
            }
            try await client.execute(uri: "/api/search?q=vienna", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        // A good file after the damaged one is served.
        try ServiceFixture.writeIndex(ServiceFixture.citiesJSON, to: fixture.path)
        guard case .replaced = fixture.served.checkForReplacement() else {
            Issue.record("a good file after a damaged one was not served")
            return
        }
    }

    @Test("a missing or truncated file at start is an error, not a crash")
    func badAtStart() throws {
        let missing = #expect(throws: CocoaError.self) { try ServedIndex(path: "/nonexistent/cities.cidx") }
        #expect(missing?.code == .fileReadNoSuchFile)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("short.cidx").path
        try Data([0x43, 0x49, 0x44, 0x58, 1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(throws: IndexFileError.fileTooSmall(byteCount: 7, minimumByteCount: 32)) { try ServedIndex(path: path) }
    }
}

@Suite("city-server's index watcher")
struct IndexWatcherTests {
    /// The value of `city_server_index_replacements_total{outcome="OUTCOME"}` in a /metrics page.
    static func replacements(_ outcome: String, in page: String) -> Int {
        let prefix = "city_server_index_replacements_total{outcome=\"\(outcome)\"} "
        return page.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    /// Asks /metrics until `outcome` has been counted `count` times; false after 20 s.
    static func waitForReplacements(_ outcome: String, count: Int, client: any TestClientProtocol) async throws -> Bool {
        for _ in 0 ..< 400 {
            let page = try await client.execute(uri: "/metrics", method: .get, headers: [:], body: nil)
            if replacements(outcome, in: String(buffer: page.body)) >= count { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("the running service's watcher swaps in the same bytes in a new file, then refuses a damaged file and keeps serving, counting each in /metrics")
    func sameBytesNewFile() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        var options = ServiceOptions()
        options.port = 0
        options.checkInterval = .milliseconds(20)
        let app = try makeApplication(served: fixture.served, options: options, logger: Logger(label: "watcher-test"))
        let before = fixture.served.current
        try await app.test(.live) { client in
            let copy = fixture.path + ".copy"
            try FileManager.default.copyItem(atPath: fixture.path, toPath: copy)
            #expect(rename(copy, fixture.path) == 0)
            #expect(try await Self.waitForReplacements("replaced", count: 1, client: client), "the watcher did not swap in the new file")
            // Same bytes, same checksum, a new mapping.
            #expect(fixture.served.current.checksum == before.checksum && fixture.served.current.loadedAt > before.loadedAt)
            // A damaged file renamed over it: refused, counted, and the previous one answers.
            var damaged = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
            damaged[damaged.count / 2] ^= 0xFF
            try damaged.write(to: URL(fileURLWithPath: copy))
            #expect(rename(copy, fixture.path) == 0)
            #expect(try await Self.waitForReplacements("refused", count: 1, client: client), "the damaged file was not refused")
            let search = try await client.execute(uri: "/api/search?q=paris", method: .get, headers: [:], body: nil)
            #expect(search.status == .ok)
            #expect(String(buffer: search.body).contains("\"name\":\"Paris\""))
        }
    }
}

@Suite("city-server's index, damaged in place or behind a link")
struct DamagedIndexTests {
    /// Writes `bytes` into the file at `path` in place (same inode), as `cp` over it or a
    /// program writing into it does, or truncates it to `truncatedTo` bytes.
    static func changeInPlace(_ path: String, bytes: Data? = nil, truncatedTo length: UInt64? = nil) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        if let bytes {
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: bytes)
        }
        if let length { try handle.truncate(atOffset: length) }
        // A later modification time than the mapping's, whatever the clock's granularity.
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1), timespec(tv_sec: Int(Date().timeIntervalSince1970) + 5, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    @Test("a file truncated in place: 503 and /health not ok until a valid index is renamed over it")
    func truncatedInPlace() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let size = try FileManager.default.attributesOfItem(atPath: fixture.path)[.size] as! NSNumber
        try Self.changeInPlace(fixture.path, truncatedTo: size.uint64Value / 2)
        guard case .changedInPlace = fixture.served.checkForReplacement() else {
            Issue.record("a truncated file was not noticed")
            return
        }
        #expect(throws: ServedIndex.Unavailable.self) { try fixture.served.usable() }
        try await fixture.withClient { client in
            for uri in ["/api/search?q=paris", "/api/nearest?lat=48.85&lon=2.35", "/api/cities/2988507"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .serviceUnavailable, "\(uri)")
                    #expect(response.headers[.retryAfter] == "2")
                }
            }
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                try #expect(json(response)["status"] as? String == "unavailable")
            }
        }
        // The same damaged file is not verified again at every check.
        #expect(fixture.served.checkForReplacement() == .unchanged)
        try ServiceFixture.writeIndex(ServiceFixture.citiesJSON, to: fixture.path)
        guard case .replaced = fixture.served.checkForReplacement() else {
            Issue.record("a valid index renamed over a truncated one was not served")
            return
        }
        try await fixture.withClient { client in
            try await client.execute(uri: "/api/search?q=paris", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                try #expect(json(response)["status"] as? String == "ok")
            }
        }
    }

    @Test("a request answered from a file changed in place meanwhile is not sent: 503, never a wrong 200")
    func changedDuringRequests() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let original = bytes
        bytes[bytes.count / 2] ^= 0xFF
        // Same size, other bytes, written into the served file: no check has run yet.
        try Self.changeInPlace(fixture.path, bytes: bytes)
        try await fixture.withClient { client in
            try await client.execute(uri: "/api/search?q=vienna", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
            }
        }
        #expect(throws: ServedIndex.Unavailable.self) { try fixture.served.usable() }
        // The right bytes written back in place: the path holds a valid index again.
        try Self.changeInPlace(fixture.path, bytes: original)
        guard case .replaced = fixture.served.checkForReplacement() else {
            Issue.record("the index was not served again once valid")
            return
        }
        let usable = try fixture.served.usable()
        #expect(try usable.index.search("vienna", matching: .words).first?.name == "Vienna")
    }

    @Test("an index given as a symbolic link: a link pointed elsewhere, or a file renamed over its target, is a replacement")
    func symbolicLink() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let link = fixture.folder.appendingPathComponent("served.cidx").path
        #expect(symlink(fixture.path, link) == 0)
        let served = try ServedIndex(path: link)
        let first = served.current.checksum
        // A new file renamed over the target.
        let json = ServiceFixture.citiesJSON.replacingOccurrences(of: #""name":"Paris","_id":4717560"#, with: #""name":"Parisville","_id":4717560"#)
        try ServiceFixture.writeIndex(json, to: fixture.path)
        guard case .replaced(let second) = served.checkForReplacement(), second != first else {
            Issue.record("a file renamed over the link's target was not noticed")
            return
        }
        // The link pointed at another file (a new link renamed over it).
        let other = fixture.folder.appendingPathComponent("other.cidx").path
        try ServiceFixture.writeIndex(ServiceFixture.citiesJSON, to: other)
        let newLink = link + ".new"
        #expect(symlink(other, newLink) == 0 && rename(newLink, link) == 0)
        guard case .replaced(let third) = served.checkForReplacement(), third == first else {
            Issue.record("a link pointed at another file was not noticed")
            return
        }
        #expect(served.checkForReplacement() == .unchanged)
    }

    @Test("a refusal for a passing reason (descriptors, memory) is tried again; one about the file is not")
    func passingReasons() {
        #expect(ServedIndex.isPassing(IndexFileError.cannotOpenFile(path: "x", errno: EMFILE)))
        #expect(ServedIndex.isPassing(IndexFileError.cannotMapFile(path: "x", errno: ENOMEM)))
        #expect(!ServedIndex.isPassing(IndexFileError.cannotOpenFile(path: "x", errno: ENOENT)))
        #expect(!ServedIndex.isPassing(IndexFileError.checksumMismatch(stored: 1, computed: 2)))
    }
}
