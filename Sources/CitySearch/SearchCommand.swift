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

    @Argument(help: "The query: a name's start, or (the default) word starts, a place after it.")
    var query: [String] = []

    func validate() throws {
        if let near { _ = try coordinate(near, option: "--near") }
        if within != nil && near == nil {
            throw ValidationError("--within needs --near (the point the distance is measured from); to list the cities within a distance of a point, use `city-search nearest LAT,LON --within KM`.")
        }
        _ = try withinMeters(within)
    }

    func run() async throws {
        try await CommandFailure.reporting {
            let index = try indexOptions.open()
            let queryText = query.joined(separator: " ")
            let nearPoint = try near.map { try coordinate($0, option: "--near") }
            let path = indexOptions.index
            let radius = try withinMeters(within)
            do throws(IndexFileError) {
                let (wanted, overflow) = page.offset.addingReportingOverflow(page.limit)
                let matches = try index.search(queryText, matching: mode.match, order: mode.order, limit: overflow ? .max : wanted,
                                               typos: mode.typos, countries: countries.filter, near: nearPoint,
                                               within: radius)
                let shown = matches.dropFirst(page.offset).prefix(page.limit)
                let text: String
                switch output.chosen {
                case .json: text = ResultFormatting.json(query: queryText, count: matches.totalCount, page: shown, near: nearPoint)
                case .ndjson: text = ResultFormatting.ndjson(page: shown, near: nearPoint)
                case .csv: text = ResultFormatting.csv(page: shown, near: nearPoint)
                case .text:
                    text = ResultFormatting.text(query: queryText, count: matches.totalCount, page: shown,
                                                 emphasize: Terminal.allowsEmphasis(on: STDOUT_FILENO), near: nearPoint)
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
