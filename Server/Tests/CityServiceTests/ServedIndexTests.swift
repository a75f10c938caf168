// ServedIndexTests.swift: an index file replaced underneath the server.
import CityService
import Foundation
import HummingbirdTesting
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
        #expect(throws: (any Error).self) { try ServedIndex(path: "/nonexistent/cities.cidx") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("short.cidx").path
        try Data([0x43, 0x49, 0x44, 0x58, 1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) { try ServedIndex(path: path) }
    }
}

@Suite("city-server's index watcher")
struct IndexWatcherTests {
    @Test("the same bytes in a new file are a replacement, and the running service's watcher swaps it in")
    func sameBytesNewFile() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let copy = fixture.path + ".copy"
        try FileManager.default.copyItem(atPath: fixture.path, toPath: copy)
        #expect(rename(copy, fixture.path) == 0)
        guard case .replaced = fixture.served.checkForReplacement() else {
            Issue.record("a new file with the same bytes was not noticed")
            return
        }
    }
}
