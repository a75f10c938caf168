// CommandOptions.swift: the option groups city-search's commands share.
import ArgumentParser
import CityIndex

/// `--index` and the bomb guard of a compressed one: every command that reads an index.
struct IndexOptions: ParsableArguments {
    @Option(help: "The index file written by build-index (or its .gz/.xz artifact).", completion: .file(extensions: ["cidx", "xz", "gz"]))
    var index: String = "cities.cidx"

    @Option(help: ArgumentHelp("With a .gz or .xz --index: refuse one that decompresses to more bytes than this (a guard against decompression bombs).", valueName: "bytes"))
    var maxInputBytes: Int = IndexOpening.defaultMaximumIndexByteCount

    func validate() throws {
        guard maxInputBytes > 0 else { throw ValidationError("--max-input-bytes must be positive; got \(maxInputBytes).") }
    }

    /// The index, opened: a file that cannot be opened is status 66, an invalid one 65 (its
    /// message says "invalid: " first when `namingInvalid`, as `verify`'s verdict does).
    func open(namingInvalid: Bool = false) throws -> CityIndex {
        do {
            return try IndexOpening.open(path: index, maximumIndexByteCount: maxInputBytes)
        } catch {
            let verdict = namingInvalid && !error.isOpenError ? "invalid: " : ""
            throw CommandFailure("\(index): \(verdict)\(error)", status: error.isOpenError ? 66 : 65)
        }
    }
}

/// How a query matches and how matches are ordered. The defaults are the search box's
/// (WORDS.md: words, population, typos by length); `--match prefix --order alphabetical
/// --typos 0` is SEARCH.md's order.
struct ModeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How the query matches: words (the start of any word of a name or alternate name, WORDS.md) or prefix (of the whole name, SEARCH.md).", valueName: "words|prefix"))
    var match: MatchMode = .words

    @Option(name: [.customLong("order"), .customLong("rank")],
            help: ArgumentHelp("Result order: population (largest first, WORDS.md §5) or alphabetical (SEARCH.md). --rank is its earlier name, still accepted.", valueName: "population|alphabetical"))
    var order: ResultOrder = .population

    @Option(help: ArgumentHelp("Typing mistakes forgiven (WORDS.md §6): auto (none below 4 letters, 1 from 4, 2 from 8), or at most 0, 1, 2 or 3 edits.", valueName: "auto|0|1|2|3"))
    var typos: TypoTolerance = .automatic
}

/// Which matches to print: `--limit` and `--offset`, taken as given so that a negative value
/// is named as such rather than read as an option.
struct PageOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "How many matches to print.")
    var limit: Int = 20

    @Option(parsing: .unconditional, help: "How many matches to skip first.")
    var offset: Int = 0

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more; got \(limit).") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more; got \(offset).") }
    }
}

/// `--format` and its `--json` shorthand.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object (same as --format json).")
    var json = false

    @Option(help: ArgumentHelp("Output: text, json (one object: query, count, results), ndjson (one result object per line) or csv (a header line, then \(ResultFormatting.matchColumns.joined(separator: ",")), and distance_meters with --near).", valueName: "text|json|ndjson|csv"))
    var format: OutputFormat = .text

    /// `--format`, `--json` included.
    var chosen: OutputFormat { json ? .json : format }

    func validate() throws {
        if json && format != .text && format != .json {
            throw ValidationError("--json and --format \(format.rawValue) ask for two formats; give one.")
        }
    }
}

/// `--country`, repeatable.
struct CountryOptions: ParsableArguments {
    @Option(name: .customLong("country"), help: ArgumentHelp("Only cities of this country (two letters, e.g. FR; repeatable).", valueName: "CC"))
    var countries: [String] = []

    func validate() throws {
        for country in countries where country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("--country takes a two-letter country code such as FR; got '\(country)'.")
        }
    }

    /// The filter: `nil` (every country) when none was given.
    var filter: Set<String>? { countries.isEmpty ? nil : Set(countries.map { $0.uppercased() }) }

    /// Says on standard error which of the countries given has no city in `index` (a filter
    /// that finds nothing for that reason, not for the query's). One pass per country.
    func warnAboutEmptyCountries(in index: CityIndex, path: String) throws(IndexFileError) {
        for country in (filter ?? []).sorted() where try index.search("", matching: .prefix, limit: 1, countries: [country]).totalCount == 0 {
            CommandFailure.warn("no city of \(path) is in \(country)")
        }
    }
}

/// `--favorites`: the favorites file of `interactive` and `favorites`.
struct FavoritesFileOptions: ParsableArguments {
    @Option(help: "The favorites file (a JSON array of city ids).", completion: .file(extensions: ["json"]))
    var favorites: String = "cities-favorites.json"
}

/// A `LAT,LON` option's value, or a usage error naming the option.
func coordinate(_ text: String, option: String) throws -> Coordinate {
    guard let point = Coordinate(text: text) else {
        throw ValidationError("\(option) takes LAT,LON in degrees (latitude -90...90, longitude -180...180), such as 48.8566,2.3522; got '\(text)'.")
    }
    return point
}

/// A `--within` value in kilometres as metres, or a usage error.
func withinMeters(_ kilometres: Double?) throws -> Double? {
    guard let kilometres else { return nil }
    guard kilometres.isFinite && kilometres >= 0 else {
        throw ValidationError("--within takes a distance in kilometres, 0 or more; got \(kilometres).")
    }
    return kilometres * 1000
}
