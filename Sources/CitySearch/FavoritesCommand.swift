// FavoritesCommand.swift: `city-search favorites add|remove|list`, the favorites file.
import ArgumentParser
import CityIndex
import CitySearchKit
import Foundation

/// The favorites file: each change is one locked read-change-write (FavoritesStore), so
/// concurrent runs lose nothing. A favorite is a city of the index: an id it does not have is
/// refused (status 64); when no index opens, ids are added as given, with a warning.
struct FavoritesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorites",
        abstract: "Add, remove or list favorite cities (the file `interactive` marks them in).",
        subcommands: [Add.self, Remove.self, List.self])

    @OptionGroup var indexOptions: IndexOptions
    @OptionGroup var favoritesFile: FavoritesFileOptions

    // The spellings of earlier releases, which may be combined: adds, then removals, then the list.
    @Option(name: .customLong("add-favorite"), help: .hidden) var toAdd: [Int] = []
    @Option(name: .customLong("remove-favorite"), help: .hidden) var toRemove: [Int] = []
    @Flag(name: .customLong("list-favorites"), help: .hidden) var list = false

    func run() async throws {
        // Runs only without a subcommand.
        try await CommandFailure.reporting {
            if toAdd.isEmpty && toRemove.isEmpty && !list {
                throw CommandFailure("favorites needs a command: add ID…, remove ID… or list", status: 64)
            }
            try FavoritesChange(indexOptions: indexOptions, file: favoritesFile.favorites).apply(adding: toAdd, removing: toRemove, listing: list)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add city ids (each saved as it is added).")
        @OptionGroup var indexOptions: IndexOptions
        @OptionGroup var favoritesFile: FavoritesFileOptions
        @Argument(help: "City ids.") var ids: [Int]

        func run() async throws {
            try await CommandFailure.reporting {
                try FavoritesChange(indexOptions: indexOptions, file: favoritesFile.favorites).apply(adding: ids, removing: [], listing: false)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove city ids.")
        @OptionGroup var indexOptions: IndexOptions
        @OptionGroup var favoritesFile: FavoritesFileOptions
        @Argument(help: "City ids.") var ids: [Int]

        func run() async throws {
            try await CommandFailure.reporting {
                try FavoritesChange(indexOptions: indexOptions, file: favoritesFile.favorites).apply(adding: [], removing: ids, listing: false)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the favorites: id, and name and country when the index has the city.")
        @OptionGroup var indexOptions: IndexOptions
        @OptionGroup var favoritesFile: FavoritesFileOptions

        func run() async throws {
            try await CommandFailure.reporting {
                try FavoritesChange(indexOptions: indexOptions, file: favoritesFile.favorites).apply(adding: [], removing: [], listing: true)
            }
        }
    }
}

/// One run's changes to the favorites file, checked against the index.
struct FavoritesChange {
    let indexOptions: IndexOptions
    let file: String

    func apply(adding toAdd: [Int], removing toRemove: [Int], listing: Bool) throws {
        let path = indexOptions.index
        let cityIndex = try? CityIndex(path: path)
        if let cityIndex {
            for id in toAdd where cityIndex.city(id: id) == nil {
                throw CommandFailure("no city has id \(id) in \(path): a favorite is one of its cities (city-search city \(id) looks one up)", status: 64)
            }
        } else if !toAdd.isEmpty {
            CommandFailure.warn("\(path) does not open, so the ids are added without a check that they are cities")
        }
        do {
            let store = try FavoritesStore(fileURL: URL(fileURLWithPath: file))
            for id in toAdd { try store.add(id) }
            for id in toRemove { try store.remove(id) }
            guard listing else { return }
            let ids = store.ids.sorted()
            if ids.isEmpty { CommandFailure.warn("no favorites in \(file) (city-search favorites add ID adds one)") }
            for id in ids {
                if let city = cityIndex?.city(id: id) {
                    print("\(id)\t\(TerminalText.safe(city.name)), \(TerminalText.safe(city.countryCode))")
                } else if cityIndex != nil {
                    print("\(id)\t(not a city of \(TerminalText.safe(path)))")
                } else {
                    print(id)
                }
            }
        } catch {
            throw CommandFailure("\(error)", status: 74)
        }
    }
}
