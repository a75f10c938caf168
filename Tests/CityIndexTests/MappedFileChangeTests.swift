// MappedFileChangeTests.swift: an index file changed while it is mapped never crashes the
// reader, and checkFileUnchanged() says so (FORMAT.md §1, "Replacing an open index").
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("A mapped index changed underneath", .serialized)
struct MappedFileChangeTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-mapped-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` into the existing file at `path` as `cp` does: truncate, then write.
    private func rewriteInPlace(_ path: String, with bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
    }

    private func expectChanged(_ index: CityIndex, _ path: String, _ comment: Comment) {
        #expect(throws: IndexFileError.fileChangedWhileOpen(path: path), comment) { try index.checkFileUnchanged() }
    }

    @Test("truncated or overwritten by a smaller file while mapped: searches go on (no SIGBUS), checkFileUnchanged throws",
          arguments: ["truncate to 0", "truncate to half", "cp a smaller index over it"])
    func shrunkWhileMapped(change: String) throws {
        let dataset = try Fixtures.defaultDataset.get()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cities.cidx").path
        try Data(dataset.indexBytes).write(to: URL(fileURLWithPath: path))
        let index = try CityIndex(path: path)
        let before = try index.search("paris", matching: .words, order: .population, limit: 5).map(\.id)
        try index.checkFileUnchanged()
        switch change {
        case "truncate to 0": #expect(truncate(path, 0) == 0)
        case "truncate to half": #expect(truncate(path, off_t(dataset.indexBytes.count / 2)) == 0)
        default: try rewriteInPlace(path, with: Fixtures.smallIndexBytes)
        }
        CorruptIndexTests.exercise(index)   // reads past the new end: zero pages instead of SIGBUS
        #expect(throws: IndexFileError.self) { try index.verify() }
        expectChanged(index, path, "\(change)")
        #expect(!before.isEmpty)
    }

    @Test("rewritten in place with the same size or more: searches stay in bounds, checkFileUnchanged throws")
    func rewrittenWhileMapped() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cities.cidx").path
        let original = Fixtures.smallIndexBytes
        for replacement in [[UInt8](repeating: 0, count: original.count), [UInt8](repeating: 0xFF, count: original.count),
                            original.reversed(), original + original] {
            try Data(original).write(to: URL(fileURLWithPath: path))
            let index = try CityIndex(path: path)
            try index.checkFileUnchanged()
            try rewriteInPlace(path, with: replacement)
            CorruptIndexTests.exercise(index)
            expectChanged(index, path, "rewritten with \(replacement.count) bytes")
        }
    }

    @Test("every byte of a mapped index changed in place after open: every search stays in bounds")
    func everyByteChangedAfterOpen() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cities.cidx").path
        let original = Fixtures.smallIndexBytes
        try Data(original).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let index = try CityIndex(path: path)
        func put(_ byte: UInt8, at offset: Int) {
            var value = byte
            #expect(pwrite(descriptor, &value, 1, off_t(offset)) == 1)
        }
        for offset in original.indices {
            let changes: [UInt8] = offset % 4 == 0 ? [original[offset] ^ 0xFF, 0, original[offset] &+ 1] : [original[offset] ^ 0xFF]
            for byte in changes {
                put(byte, at: offset)
                CorruptIndexTests.exercise(index)
            }
            put(original[offset], at: offset)
        }
        // The same bytes again, but a rewrite happened: the change is reported all the same.
        expectChanged(index, path, "written in place, restored")
    }

    @Test("a new file renamed over the path is not a change: the open index keeps reading the file it opened")
    func renamedOver() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cities.cidx").path
        try Data(Fixtures.smallIndexBytes).write(to: URL(fileURLWithPath: path))
        let index = try CityIndex(path: path)
        let before = try index.search("z").map(\.id)
        let replacement = directory.appendingPathComponent("new.cidx")
        try Data([UInt8](repeating: 7, count: 100)).write(to: replacement)
        #expect(rename(replacement.path, path) == 0)
        try index.checkFileUnchanged()
        #expect(try index.search("z").map(\.id) == before)
        #expect(!before.isEmpty)
        #expect(throws: IndexFileError.self) { try CityIndex(path: path) }   // a new open reads the new file
    }

    @Test("a FIFO is refused at once, never opened for a blocking read", .timeLimit(.minutes(1)))
    func fifoRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pipe.cidx").path
        #expect(mkfifo(path, 0o644) == 0)
        #expect(throws: IndexFileError.notARegularFile(path: path)) { try CityIndex(path: path) }
    }

    @Test("many indexes open at once stay usable, guarded or read into memory past the guard's slots")
    func manyOpenIndexes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cities.cidx").path
        try Data(Fixtures.smallIndexBytes).write(to: URL(fileURLWithPath: path))
        // Each mapped index keeps its file open: make room for 1,100 descriptors.
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        if limit.rlim_cur < 2_048 {
            limit.rlim_cur = min(2_048, limit.rlim_max)
            #expect(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        }
        try #require(limit.rlim_cur >= 1_200, "the descriptor limit (\(limit.rlim_cur)) is too low for this test")
        let indexes = try (0 ..< 1_100).map { _ in try CityIndex(path: path) }
        let expected = try indexes[0].search("z").map(\.id)
        #expect(try indexes.allSatisfy { try $0.search("z").map(\.id) == expected })
        #expect(throws: Never.self) { try indexes.last?.checkFileUnchanged() }
    }
}
