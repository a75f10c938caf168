// InteractiveCommand.swift: `city-search interactive`, the search box in a terminal.
import ArgumentParser
import CityIndex
import CitySearchKit
import Foundation

struct InteractiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "Search as you type in the terminal: ↑/↓ select, Enter details, Ctrl-F favorite, Tab favorites only, Esc quits.",
        discussion: "Needs a terminal (standard input and output, TERM not dumb); without one, status 64.")

    @OptionGroup var indexOptions: IndexOptions
    @OptionGroup var mode: ModeOptions
    @OptionGroup var countries: CountryOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Search from this point: nearer cities rank higher and show their distance.", valueName: "LAT,LON"))
    var near: String?

    @OptionGroup var favoritesFile: FavoritesFileOptions

    @Option(parsing: .unconditional, help: "Milliseconds a query must stay unchanged before it runs.")
    var debounceMilliseconds: Int = 120

    func validate() throws {
        if let near { _ = try coordinate(near, option: "--near") }
        guard debounceMilliseconds >= 0 else { throw ValidationError("--debounce-milliseconds must be 0 or more; got \(debounceMilliseconds).") }
    }

    func run() async throws {
        try await CommandFailure.reporting {
            guard Terminal.isInteractive else {
                throw CommandFailure("interactive needs a terminal: standard input and output must be a terminal, and TERM not dumb", status: 64)
            }
            let index = try indexOptions.open()
            let store: FavoritesStore
            do { store = try FavoritesStore(fileURL: URL(fileURLWithPath: favoritesFile.favorites)) } catch {
                throw CommandFailure("\(error)", status: 65)
            }
            await InteractiveSearch(index: index, favorites: store, debounce: .milliseconds(debounceMilliseconds),
                                    matching: mode.match, order: mode.order, typos: mode.typos, countries: countries.filter,
                                    near: try near.map { try coordinate($0, option: "--near") }).run()
        }
    }
}
