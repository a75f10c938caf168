// CitySearch.swift: the city-search command and its subcommands.
import ArgumentParser
import CityIndex

@main
struct CitySearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city-search",
        abstract: "Search a CityIndex file as a search box does, list the cities near a point, check a file.",
        discussion: """
            With no command, searches: `city-search pheonix` is `city-search search pheonix`. \
            A query that is also a command's name is searched with `search` before it.

            The options of earlier releases still work: --nearest LAT,LON is `nearest`, --id ID \
            `city`, --inspect `inspect`, --verify `verify`, --interactive `interactive`, and \
            --add-favorite, --remove-favorite and --list-favorites `favorites`.

            Exit status: 0 success (also when nothing matches); 1 `city` names no city; 64 usage \
            error (also an option given to a command it does nothing in); 65 the index file is \
            invalid or damaged; 66 the index file cannot be opened; 74 the favorites file cannot \
            be read or written.
            """,
        version: CityIndexRelease.description,
        subcommands: [SearchCommand.self, NearestCommand.self, CityCommand.self, InspectCommand.self, VerifyCommand.self,
                      InteractiveCommand.self, FavoritesCommand.self],
        defaultSubcommand: SearchCommand.self)

    /// Parses the arguments (earlier spellings rewritten) and runs the command. A usage
    /// error is one line on standard error, "city-search: MESSAGE", and status 64.
    static func main() async {
        let arguments = LegacySpellings.rewritten(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // A command's own failure has printed its line already (`CommandFailure`).
            if exitCode(for: error) == .validationFailure && !(error is ExitCode) {
                let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "usage error"
                CommandFailure.warn(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)
            }
            exit(withError: exitCode(for: error) == .validationFailure ? ExitCode.validationFailure : error)
        }
    }
}

/// The `--format` choices.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, ndjson, csv
}

extension MatchMode: ExpressibleByArgument {}
extension ResultOrder: ExpressibleByArgument {}

extension TypoTolerance: ExpressibleByArgument {
    /// `auto`, or a number of edits 0…3 (`0` is `.none`).
    public init?(argument: String) {
        switch argument {
        case "auto": self = .automatic
        case "0": self = .none
        case "1", "2", "3": self = .maximum(Int(argument) ?? 0)
        default: return nil
        }
    }

    public var defaultValueDescription: String {
        switch self {
        case .none: "0"
        case .automatic: "auto"
        case .maximum(let n): String(n)
        }
    }
}
