// FavoritesStoreTests.swift: favorites are never lost: not to an unreadable file, not to
// another writer, not to a stale in-memory copy.
import CitySearchKit
import Foundation
import Testing

@Suite("FavoritesStore")
struct FavoritesStoreTests {
    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("favorites-\(UUID()).json")
    }

    private func remove(_ file: URL) {
        try? FileManager.default.removeItem(at: file)
        try? FileManager.default.removeItem(atPath: file.path + ".lock")
    }

    @Test("a change keeps the file's permissions, and leaves no temporary file")
    func modeKept() throws {
        let file = temporaryFile()
        defer { remove(file) }
        try Data("[1]".utf8).write(to: file)
        chmod(file.path, 0o600)
        let store = try FavoritesStore(fileURL: file)
        try store.add(2)
        // Before: 0600 became 0644, a private list readable by everyone.
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(!siblings.contains { $0.hasPrefix("." + file.lastPathComponent + ".tmp-") || $0.contains(".nosync") })
    }

    @Test("through a symbolic link: the link stays a link, the file it names changes, and both paths share one lock")
    func symbolicLink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-link-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("real.json"), link = directory.appendingPathComponent("link.json")
        try Data("[1]".utf8).write(to: real)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.json")
        let throughLink = try FavoritesStore(fileURL: link)
        try throughLink.add(2)
        // Before: the link was replaced by a regular file, real.json kept [1], two lock files.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.json")
        #expect(try FavoritesStore(fileURL: real).ids == [1, 2])
        let direct = try FavoritesStore(fileURL: real)
        try direct.add(3)
        #expect(throughLink.ids == [1, 2, 3])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == ["real.json", "link.json", "real.json.lock"])
    }

    @Test("a file that exists but cannot be read is an error at init and at every change, and is left as it is")
    func unreadableFileIsNeverOverwritten() throws {
        let file = temporaryFile()
        defer { remove(file) }
        let five = [1, 2, 3, 4, 5]
        try JSONEncoder().encode(five).write(to: file)
        let store = try FavoritesStore(fileURL: file)
        #expect(store.ids == Set(five))

        // The favorites move aside and something unreadable takes the path (a directory: root reads any file).
        let aside = file.appendingPathExtension("aside")
        defer { try? FileManager.default.removeItem(at: aside) }
        try FileManager.default.moveItem(at: file, to: aside)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(throws: FavoritesStore.StoreError.self) { try FavoritesStore(fileURL: file) }
        do {
            try store.toggle(6)
            Issue.record("toggle over an unreadable file succeeded")
        } catch {
            guard case .unreadableFile(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == file.path)
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue)

        // Back in place, the store goes on from the file, all five kept.
        try FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: aside, to: file)
        #expect(try store.toggle(6))
        #expect(try FavoritesStore(fileURL: file).ids == Set(five + [6]))

        // Without root, permissions make a regular file unreadable too. Root reads any file: the
        // same refusal is then checked through city-search run as nobody
        // (ToolOptionTests.unreadableFavorites), which CI runs as root.
        if getuid() != 0 {
            #expect(chmod(file.path, 0) == 0)
            defer { chmod(file.path, 0o644) }
            #expect(throws: FavoritesStore.StoreError.self) { try FavoritesStore(fileURL: file) }
            #expect(throws: FavoritesStore.StoreError.self) { try store.add(7) }
        }
    }

    @Test("a corrupt file found at a change is an error, and the file is left as it is")
    func corruptAtChange() throws {
        let file = temporaryFile()
        defer { remove(file) }
        let store = try FavoritesStore(fileURL: file)
        try store.add(1)
        try Data("[1, 2,".utf8).write(to: file)
        #expect(throws: FavoritesStore.StoreError.self) { try store.add(3) }
        #expect(try Data(contentsOf: file) == Data("[1, 2,".utf8))
    }

    @Test("two stores on one file, writing from two threads at once, keep every change")
    func concurrentStores() async throws {
        let file = temporaryFile()
        defer { remove(file) }
        let first = try FavoritesStore(fileURL: file), second = try FavoritesStore(fileURL: file)
        try first.add(0)
        await withTaskGroup(of: Void.self) { group in
            for (store, base) in [(first, 1_000), (second, 2_000)] {
                group.addTask {
                    for id in base ..< base + 200 { try? store.add(id) }
                    try? store.remove(0)
                }
            }
        }
        let expected = Set(1_000 ..< 1_200).union(2_000 ..< 2_200)
        #expect(try FavoritesStore(fileURL: file).ids == expected)
        // Each store sees the other's changes.
        #expect(first.ids == expected)
        #expect(second.contains(1_100) && !second.contains(0))
    }

    @Test("changes() streams the favorites now and after every change, this store's and another's")
    func changeStream() async throws {
        let file = temporaryFile()
        defer { remove(file) }
        let store = try FavoritesStore(fileURL: file), other = try FavoritesStore(fileURL: file)
        var changes = store.changes().makeAsyncIterator()
        #expect(await changes.next() == [])
        try store.add(1)
        #expect(await changes.next() == [1])
        try other.add(2)          // another store (or process) writes the file
        store.reload()            // this store reads it
        #expect(await changes.next() == [1, 2])
        try store.toggle(1)
        #expect(await changes.next() == [2])
    }
}
