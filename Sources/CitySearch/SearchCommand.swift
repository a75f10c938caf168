// SearchCommand.swift: `city-search [search] QUERY…`, the search box's search.
import ArgumentParser
import CityIndex
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search as a search box does (the default command).",
        discussion: """
            Prints how many cities match, then matches OFFSET ..< OFFSET+LIMIT. By default a query \
            matches the start of any word of a city's name or alternate names, forgives typos by its \
            length, and ranks the most populous first (WORDS.md): the mode of a search box. \
            "(matched NAME)" shows which alternate name matched, "(1 typo)" a forgiven mistake, \
            "(words skipped)" words of the name between the query's ("rio janeiro"). A query may end \
            with a region or country ("paris tx", "london, uk"). --match prefix --order alphabetical \
            --typos 0 is SEARCH.md's search: the folded name's prefix, in alphabetical order. \
            Several QUERY words are joined with single spaces; no QUERY matches every city.
            """)

    @OptionGroup var indexOptions: IndexOptions
    @OptionGroup var mode: ModeOptions
    @OptionGroup var countries: CountryOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Search from this point: nearer cities rank higher (WORDS.md §11, population order) and results show their distance.", valueName: "LAT,LON"))
    var near: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --near: only cities at most this many kilometres away.", valueName: "KM"))
    var within: Double?

    @OptionGroup var page: PageOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Show how the search ran instead of the results alone: each stage with its time, candidates in and out, walks and trie nodes; then why each of the first matches is where it is (its weight and what changed it). With --json, one object.")
    var explain = false

    @Argument(help: "The query: a name's start, or (the default) word starts, a place after it.")
    var query: [String] = []

    func validate() throws {
        if let near { _ = try coordinate(near, option: "--near") }
        if within != nil && near == nil {
            throw ValidationError("--within needs --near (the point the distance is measured from); to list the cities within a distance of a point, use `city-search nearest LAT,LON --within KM`.")
        }
        _ = try withinMeters(within)
        if explain && output.chosen != .text && output.chosen != .json {
            throw ValidationError("--explain prints text or JSON, not \(output.chosen.rawValue).")
        }
    }

    /// The search's options, as the library takes them.
    func options(limit: Int) throws -> SearchOptions {
        SearchOptions(matching: mode.match, order: mode.order, limit: limit, typos: mode.typos, countries: countries.filter,
                      near: try near.map { try coordinate($0, option: "--near") }, within: try withinMeters(within))
    }

    func run() async throws {
        try await CommandFailure.reporting {
            let index = try indexOptions.open()
            let queryText = query.joined(separator: " ")
            let path = indexOptions.index
            let (wanted, overflow) = page.offset.addingReportingOverflow(page.limit)
            let options = try options(limit: overflow ? .max : wanted)
            let nearPoint = options.near
            do throws(IndexFileError) {
                let explanation = explain ? try index.explain(queryText, options: options, rankings: options.limit) : nil
                let matches: CityMatches
                if let explanation { matches = explanation.matches } else { matches = try index.search(queryText, options: options) }
                let shown = matches.dropFirst(page.offset).prefix(page.limit)
                let text: String
                switch output.chosen {
                case .json:
                    text = ResultFormatting.json(query: queryText, count: matches.totalCount, page: shown, near: nearPoint,
                                                 explanation: explanation)
                case .ndjson: text = ResultFormatting.ndjson(page: shown, near: nearPoint)
                case .csv: text = ResultFormatting.csv(page: shown, near: nearPoint)
                case .text:
                    if let explanation {
                        text = ExplanationFormatting.text(explanation, page: shown, offset: page.offset)
                    } else {
                        text = ResultFormatting.text(query: queryText, count: matches.totalCount, page: shown,
                                                     emphasize: Terminal.allowsEmphasis(on: STDOUT_FILENO), near: nearPoint)
                    }
                }
                try index.checkFileUnchanged()   // rewritten in place meanwhile: print nothing wrong
                if !text.isEmpty { print(text) }
                try countries.warnAboutEmptyCountries(in: index, path: path)
            } catch .queryTooLong(let byteCount, let limit) {
                throw CommandFailure("the query has \(byteCount) bytes, more than the \(limit) a search takes", status: 64)
            } catch {
                throw CommandFailure("\(path): \(error)", status: 65)
            }
        }
    }
}
