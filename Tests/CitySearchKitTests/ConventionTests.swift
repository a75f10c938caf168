// ConventionTests.swift: what Swift and SwiftUI code expects of the package's types.
import CityIndex
import CityIndexArtifacts
import CityIndexTestSupport
import CitySearchKit
import Foundation
import Testing

@Suite("Swift conventions")
struct ConventionTests {
    @Test("every public error's localizedDescription is its own sentence")
    func localizedDescriptions() {
        let errors: [any Error & CustomStringConvertible] = [
            IndexFileError.notAnIndexFile(foundMagic: 0x41414141),
            IndexFileError.fileChangedWhileOpen(path: "/tmp/x.cidx"),
            CitySearchError.tooFewCharacters(found: 1, minimum: 2),
            CitySearchError.index(.notARegularFile(path: "/dev/zero")),
            IndexStore.RefreshError.digestMismatch(expected: "a", found: "b"),
            IndexStore.StoreError.unavailable(reason: .timedOut(.stall, limit: .seconds(30))),
            FavoritesStore.StoreError.unreadableFile(path: "/f", reason: "Permission denied"),
            InputError.inputTooLarge(limitByteCount: 10),
        ]
        for error in errors {
            #expect(error.localizedDescription == error.description)
            #expect(!error.localizedDescription.contains("The operation could not be completed"))
        }
        #expect(CitySearchError.tooFewCharacters(found: 1, minimum: 2).localizedDescription == "type at least 2 characters (1 so far)")
    }

    @Test("City and CityMatch are Identifiable by city id; an index opens from a file URL")
    func identifiableAndURL() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("conventions-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("small.cidx")
        try Data(Fixtures.smallIndexBytes).write(to: url)
        let index = try CityIndex(contentsOf: url)
        let matches = try index.search("", matching: .words, order: .population, limit: 100)
        func identity<Item: Identifiable>(_ item: Item) -> Item.ID { item.id }
        #expect(matches.map { identity($0) } == matches.map { $0.city.id })
        #expect(Set(matches.map { identity($0.city) }).count == matches.count)
        #expect(throws: IndexFileError.self) { try CityIndex(contentsOf: URL(string: "https://example.com/x.cidx")!) }
    }
}
