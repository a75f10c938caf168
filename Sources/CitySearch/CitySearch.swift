// CitySearch.swift: the city-search command.
import ArgumentParser
import CityIndex
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct CitySearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city-search",
        abstract: "Search a CityIndex file by name prefix (case- and diacritic-insensitive).",
        discussion: """
            Prints how many cities match, then matches OFFSET ..< OFFSET+LIMIT in search order \
            (folded name, country, id), with the matched part of each name in bold on a terminal. \
            Several QUERY words are joined with single spaces; no QUERY matches every city.

            Exit status: 0 success (also when nothing matches); 64 usage error; 65 the index file is \
            invalid or damaged; 66 the index file cannot be opened.
            """)

    @Option(help: "The index file written by build-index.")
    var index: String = "cities.cidx"

    @Option(help: "How many matches to print.")
    var limit: Int = 20

    @Option(help: "How many matches to skip first.")
    var offset: Int = 0

    @Flag(help: "Print one JSON object: {\"query\", \"count\", \"results\": [{\"id\", \"name\", \"country\", \"lat\", \"lon\", \"highlights\"}]}.")
    var json = false

    @Flag(help: "Check the whole index (checksum and invariants) before searching.")
    var verify = false

    @Argument(help: "The name prefix to look for.")
    var query: [String] = []

    mutating func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more; got \(limit).") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more; got \(offset).") }
    }

    func run() throws {
        let queryText = query.joined(separator: " ")
        do {
            let cityIndex = try CityIndex(path: index)
            if verify { try cityIndex.verify() }
            let matches = try cityIndex.search(queryText)
            let page = matches.dropFirst(offset).prefix(limit)
            if json {
                print(ResultFormatting.json(query: queryText, count: matches.count, page: page))
            } else {
                print(ResultFormatting.text(query: queryText, count: matches.count, page: page,
                                            emphasize: isatty(STDOUT_FILENO) == 1))
            }
        } catch {
            var standardError = StandardError()
            print("city-search: \(index): \(error)", to: &standardError)
            if case .cannotOpenFile = error { throw ExitCode(66) }
            throw ExitCode(65)
        }
    }
}

/// Writes to standard error.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { systemWrite(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
