// CitySearch.swift: the city-search command.
import ArgumentParser
import CityIndex
import CitySearchKit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct CitySearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city-search",
        abstract: "Search a CityIndex file by name prefix or word starts (case- and diacritic-insensitive).",
        discussion: """
            Prints how many cities match, then matches OFFSET ..< OFFSET+LIMIT in search order \
            (folded name, country, id) or, with --order population, most populous first, with the \
            matched part of each name in bold on a terminal. With --match words a query matches the \
            start of any word of the name or of an alternate name, ignoring punctuation (WORDS.md); \
            "(matched NAME)" then shows which alternate matched. With --typos a query also matches \
            names a few typing mistakes away (WORDS.md §6); "(1 typo)" marks such a match, and a \
            query of several words that finds fewer than 20 cities also matches names with words \
            between its words ("rio janeiro", WORDS.md §9), marked "(words skipped)". With \
            --match words, "st", "ft", "mt"… followed by another word also search "saint", "fort", \
            "mount"… (WORDS.md §7). \
            Several QUERY words are joined with single spaces; no QUERY matches every city.

            --add-favorite, --remove-favorite and --list-favorites manage the favorites file and exit; \
            a favorite must be a city of --index (checked when the index opens).

            --index also opens a compressed artifact (build-index --compress), recognised by its \
            first bytes and decompressed into a private temporary file. --id prints one city; \
            --inspect prints what the file holds. Results print as text (matched part in bold on a \
            terminal, unless NO_COLOR is set or TERM is dumb), or with --format as one JSON object, \
            NDJSON (one result per line) or CSV.

            Exit status: 0 success (also when nothing matches); 1 --id names no city; 64 usage error \
            (also --interactive without a terminal, and --add-favorite with an id the index does not have); 65 the index file is invalid or damaged; 66 the \
            index file cannot be opened; 74 the favorites file cannot be read or written.
            """,
        version: CityIndexRelease.description)

    @Option(help: "The index file written by build-index (or its .gz/.xz artifact).", completion: .file(extensions: ["cidx", "xz", "gz"]))
    var index: String = "cities.cidx"

    @Option(help: ArgumentHelp("With a .gz or .xz --index: refuse one that decompresses to more bytes than this (a guard against decompression bombs).", valueName: "bytes"))
    var maxInputBytes: Int = IndexOpening.defaultMaximumIndexByteCount

    @Option(help: "How many matches to print.")
    var limit: Int = 20

    @Option(help: "How many matches to skip first.")
    var offset: Int = 0

    @Option(help: ArgumentHelp("How the query matches: prefix (of the full name, SEARCH.md) or words (word starts of the name and its alternate names, punctuation-insensitive).", valueName: "prefix|words"))
    var match: MatchMode = .prefix

    @Option(name: [.customLong("order"), .customLong("rank")],
            help: ArgumentHelp("Result order: alphabetical (SEARCH.md) or population (largest first, ties alphabetical). --rank is its earlier name, still accepted.", valueName: "alphabetical|population"))
    var order: ResultOrder = .alphabetical

    @Option(help: ArgumentHelp("Typing mistakes forgiven (WORDS.md §6): auto (0 edits below 4 letters, 1 from 4, 2 from 8), or at most 0, 1, 2 or 3 edits.", valueName: "auto|0|1|2|3"))
    var typos: TypoTolerance = .none

    @Flag(help: "Print one JSON object: {\"query\", \"count\", \"results\": [{\"id\", \"name\", \"country\", \"lat\", \"lon\", \"highlights\"}]} (same as --format json).")
    var json = false

    @Option(help: ArgumentHelp("Output: text, json (one object), ndjson (one result object per line) or csv (a header line, then id,name,country,lat,lon,matched_name,edits).", valueName: "text|json|ndjson|csv"))
    var format: OutputFormat = .text

    @Option(name: .customLong("country"), help: ArgumentHelp("Only cities of this country (two letters, e.g. FR; repeatable), in every mode.", valueName: "CC"))
    var countries: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("List the cities nearest to this point, nearest first (reverse geocoding; --limit, --within, --min-population and --country apply).", valueName: "LAT,LON"))
    var nearest: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --nearest or --near: only cities at most this many kilometres away.", valueName: "KM"))
    var within: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Search from this point: with --order population nearer cities rank higher (WORDS.md §11); results show their distance. Also with --interactive.", valueName: "LAT,LON"))
    var near: String?

    @Option(help: ArgumentHelp("With --nearest: only cities with at least this population.", valueName: "N"))
    var minPopulation: Int = 0

    @Option(help: "Print the city with this id (and nothing else).")
    var id: Int?

    @Flag(help: "Print the file's format version, city count, checksum state and sections with their sizes.")
    var inspect = false

    @Flag(help: "Check the whole index (checksum and invariants) before searching.")
    var verify = false

    @Flag(help: "Live type-ahead search in the terminal (↑/↓, Enter details, Ctrl-F favorite, Tab favorites only, Esc quits).")
    var interactive = false

    @Option(help: "The favorites file (a JSON array of city ids) of --interactive and the favorite options.", completion: .file(extensions: ["json"]))
    var favorites: String = "cities-favorites.json"

    @Option(name: .customLong("add-favorite"), help: ArgumentHelp("Add a city id to the favorites file, then exit (repeatable; each is saved as it is added, safe beside other processes).", valueName: "id"))
    var favoritesToAdd: [Int] = []

    @Option(name: .customLong("remove-favorite"), help: ArgumentHelp("Remove a city id from the favorites file, then exit (repeatable).", valueName: "id"))
    var favoritesToRemove: [Int] = []

    @Flag(help: "Print the favorites (id, and name and country when the index has the city), then exit.")
    var listFavorites = false

    @Option(help: "With --interactive: milliseconds a query must stay unchanged before it runs.")
    var debounceMilliseconds: Int = 120

    @Argument(help: "The name prefix (or, with --match words, word prefixes) to look for.")
    var query: [String] = []

    mutating func validate() throws {
        guard maxInputBytes > 0 else { throw ValidationError("--max-input-bytes must be positive; got \(maxInputBytes).") }
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more; got \(limit).") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more; got \(offset).") }
        guard debounceMilliseconds >= 0 else { throw ValidationError("--debounce-milliseconds must be 0 or more.") }
        if json { format = .json }
        for country in countries where country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("--country takes a two-letter country code such as FR; got '\(country)'.")
        }
    }

    func run() async throws {
        if listFavorites || !favoritesToAdd.isEmpty || !favoritesToRemove.isEmpty {
            try manageFavorites()
            return
        }
        let queryText = query.joined(separator: " ")
        if interactive && !Terminal.isInteractive {
            throw fail("--interactive needs a terminal: standard input and output must be a terminal, and TERM not dumb", status: 64)
        }
        let cityIndex: CityIndex
        do {
            cityIndex = try IndexOpening.open(path: index, maximumIndexByteCount: maxInputBytes)
            if verify { try cityIndex.verify() }
        } catch let error as IndexOpening.Failure {
            throw fail("\(index): \(error)", status: error.isOpenError ? 66 : 65)
        } catch {
            throw fail("\(index): \(error)", status: 65)
        }
        if inspect {
            print(ResultFormatting.inspection(of: cityIndex, path: index))
            return
        }
        if let nearest {
            try printNearest(to: nearest, in: cityIndex)
            return
        }
        let nearPoint = try near.map { text throws in
            guard let point = PointArgument.parse(text) else {
                throw fail("--near takes LAT,LON in degrees (latitude -90...90, longitude -180...180), such as 48.8566,2.3522; got '\(text)'",
                           status: 64)
            }
            return point
        }
        if let within, !(within.isFinite && within >= 0) {
            throw fail("--within takes a distance in kilometres, 0 or more; got \(within)", status: 64)
        }
        if let id {
            guard let city = cityIndex.city(id: id) else { throw fail("\(index): no city has id \(id)", status: 1) }
            print(ResultFormatting.city(city, format: format))
            return
        }
        if interactive {
            let store: FavoritesStore
            do { store = try FavoritesStore(fileURL: URL(fileURLWithPath: favorites)) } catch {
                throw fail("\(error)", status: 65)
            }
            await InteractiveSearch(index: cityIndex, favorites: store, debounce: .milliseconds(debounceMilliseconds),
                                    matching: match, order: order, typos: typos, countries: countryFilter, near: nearPoint).run()
            return
        }
        do {
            let (wanted, overflow) = offset.addingReportingOverflow(limit)
            let matches = try cityIndex.search(queryText, matching: match, order: order, limit: overflow ? .max : wanted,
                                               typos: typos, countries: countryFilter, near: nearPoint, within: within.map { $0 * 1000 })
            let page = matches.dropFirst(offset).prefix(limit)
            let output: String
            switch format {
            case .json: output = ResultFormatting.json(query: queryText, count: matches.totalCount, page: page, near: nearPoint)
            case .ndjson: output = ResultFormatting.ndjson(page: page, near: nearPoint)
            case .csv: output = ResultFormatting.csv(page: page, near: nearPoint)
            case .text:
                output = ResultFormatting.text(query: queryText, count: matches.totalCount, page: page,
                                               emphasize: Terminal.allowsEmphasis(on: STDOUT_FILENO), near: nearPoint)
            }
            try cityIndex.checkFileUnchanged()   // rewritten in place meanwhile: print nothing wrong
            if !output.isEmpty { print(output) }
            // A country the index has no city of finds nothing: say so, rather than leave the
            // user to wonder about the query (one pass over the cities per country given).
            for country in Set(countries.map { $0.uppercased() }).sorted()
            where try cityIndex.search("", matching: .prefix, limit: 1, countries: [country]).totalCount == 0 {
                warn("no city of \(index) is in \(country)")
            }
        } catch .queryTooLong(let byteCount, let limit) {
            throw fail("the query has \(byteCount) bytes, more than the \(limit) a search takes", status: 64)
        } catch {
            throw fail("\(index): \(error)", status: 65)
        }
    }

    /// `--add-favorite`, `--remove-favorite`, `--list-favorites`: each change is one locked
    /// read-change-write of the file (FavoritesStore), so concurrent runs lose nothing.
    /// A favorite is a city of the index: an id it does not have is refused (status 64), and
    /// without an index that opens the ids are added as given, with a warning.
    private func manageFavorites() throws {
        let cityIndex = try? CityIndex(path: index)
        if let cityIndex {
            for id in favoritesToAdd where cityIndex.city(id: id) == nil {
                throw fail("no city has id \(id) in \(index): a favorite is one of its cities (--id \(id) looks one up)", status: 64)
            }
        } else if !favoritesToAdd.isEmpty {
            warn("\(index) does not open, so the ids are added without a check that they are cities")
        }
        do {
            let store = try FavoritesStore(fileURL: URL(fileURLWithPath: favorites))
            for id in favoritesToAdd { try store.add(id) }
            for id in favoritesToRemove { try store.remove(id) }
            guard listFavorites else { return }
            let ids = store.ids.sorted()
            if ids.isEmpty { warn("no favorites in \(favorites) (--add-favorite ID adds one)") }
            for id in ids {
                if let city = cityIndex?.city(id: id) {
                    print("\(id)\t\(TerminalText.safe(city.name)), \(TerminalText.safe(city.countryCode))")
                } else if cityIndex != nil {
                    print("\(id)\t(not a city of \(TerminalText.safe(index)))")
                } else {
                    print(id)
                }
            }
        } catch {
            throw fail("\(error)", status: 74)
        }
    }

    /// A note on standard error that does not change the exit status.
    private func warn(_ message: String) {
        var standardError = StandardError()
        print("city-search: " + message, to: &standardError)
    }

    /// `--nearest`: a bad point, distance or population is one line and status 64.
    private func printNearest(to text: String, in cityIndex: CityIndex) throws {
        guard let point = PointArgument.parse(text) else {
            throw fail("--nearest takes LAT,LON in degrees (latitude -90...90, longitude -180...180), such as 48.8566,2.3522; got '\(text)'",
                       status: 64)
        }
        if let within, !(within.isFinite && within >= 0) {
            throw fail("--within takes a distance in kilometres, 0 or more; got \(within)", status: 64)
        }
        guard minPopulation >= 0 else { throw fail("--min-population must be 0 or more; got \(minPopulation)", status: 64) }
        do {
            let found = try cityIndex.nearest(to: point, limit: limit, within: within.map { $0 * 1000 },
                                              minimumPopulation: minPopulation, countries: countryFilter)
            let output = ResultFormatting.nearest(found, to: point, format: format)
            try cityIndex.checkFileUnchanged()
            if !output.isEmpty { print(output) }
        } catch .missingSection(.spatialIndex) {
            throw fail("\(index): the index has no spatial index (format 7); rebuild it with this version's build-index", status: 65)
        } catch {
            throw fail("\(index): \(error)", status: 65)
        }
    }

    /// `--country` as a search filter: nil (every country) when none was given.
    private var countryFilter: Set<String>? { countries.isEmpty ? nil : Set(countries) }

    /// Prints `message` as one line on standard error and returns the exit status to throw.
    private func fail(_ message: String, status: Int32) -> ExitCode {
        var standardError = StandardError()
        print("city-search: " + message, to: &standardError)
        return ExitCode(status)
    }
}

/// Writes to standard error.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { systemWrite(STDERR_FILENO, $0.baseAddress, $0.count) }
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
