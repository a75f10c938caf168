// InteractiveSearch.swift: city-search --interactive, a live type-ahead search box.
import CityIndex
import CitySearchKit
import Foundation

/// A type-ahead search screen in the terminal: results update as you type through a
/// `CitySearchSession` (debounce, cancellation of superseded searches), matches show with the
/// matched part in bold and the total count; ↑/↓ move the selection, Enter shows the city's
/// details, Ctrl-F toggles it as a favorite, Tab toggles favorites only, Esc or Ctrl-C quits.
@MainActor
final class InteractiveSearch {
    private let session: CitySearchSession
    private let favorites: FavoritesStore
    private var query = ""
    private var results: CitySearchResults?
    private var selection = 0
    private var message: String?
    private var showingDetails = false
    private var favoritesOnly = false

    init(index: CityIndex, favorites: FavoritesStore, debounce: Duration,
         matching: MatchMode = .prefix, order: ResultOrder = .alphabetical, typos: TypoTolerance = .none,
         countries: Set<String>? = nil, near: Coordinate? = nil) {
        self.favorites = favorites
        session = CitySearchSession(index: index, favorites: favorites,
                                    configuration: .init(debounce: debounce, minimumCharacterCount: 1, rejectsRepeatedQueries: true,
                                                         matching: matching, order: order, populationOrderLimit: 200, typos: typos,
                                                         countries: countries, location: near))
    }

    /// Runs until the user quits or input ends. The terminal is restored on every way out.
    func run() async {
        guard Terminal.enterRawMode() else {
            FileHandle.standardError.write(Data("city-search: --interactive needs a terminal\n".utf8))
            return
        }
        defer { Terminal.restore() }
        render()
        startSearch()
        for await chunk in Self.keyboardInput() {
            for key in Key.decode(chunk) {
                if await handle(key) == false { return }
            }
            render()
        }
    }

    /// Handles one key; returns false to quit.
    private func handle(_ key: Key) async -> Bool {
        switch key {
        case .quit: return false
        case .escape:
            if showingDetails { showingDetails = false } else { return false }
        case .character(let character):
            showingDetails = false
            message = nil
            query.append(character)
            startSearch()
        case .backspace:
            showingDetails = false
            message = nil
            if !query.isEmpty {
                query.removeLast()
                startSearch()
            }
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(max(0, (results?.count ?? 0) - 1), selection + 1)
        case .enter: showingDetails = selectedMatch != nil && !showingDetails
        case .controlF:
            guard let match = selectedMatch else { break }
            do {
                let isFavorite = try favorites.toggle(match.id)
                message = isFavorite ? "★ added \(TerminalText.safe(match.name)) to favorites" : "removed \(TerminalText.safe(match.name)) from favorites"
            } catch {
                message = "\(error)"
            }
            if favoritesOnly { await rerun() }
        case .tab:
            favoritesOnly.toggle()
            await session.setFavoritesOnly(favoritesOnly)
            selection = 0
            await rerun()
        }
        return true
    }

    private var selectedMatch: CityMatch? {
        guard let results, selection < results.count else { return nil }
        return results[selection]
    }

    private func rerun() async {
        await session.resetRepeatDetection()
        startSearch()
    }

    /// Starts a search for the current query; the session supersedes the previous one.
    private func startSearch() {
        let fragment = query
        Task { @MainActor in
            do throws(CitySearchError) {
                let delivered = try await session.search(queryFragment: fragment)
                results = delivered
                selection = min(selection, max(0, delivered.count - 1))
                if fragment != query { return }
                render()
            } catch .superseded, .cancelled, .sameAsPreviousQuery {
                return
            } catch .tooFewCharacters(_, let minimum) {
                message = "type at least \(minimum) characters"
                render()
            } catch .index(let error) {
                if case .fileChangedWhileOpen = error { results = nil }   // its results may be junk
                message = "\(error)"
                render()
            }
        }
    }

    // MARK: Drawing

    private func render() {
        let (rows, columns) = Terminal.size
        var lines: [String] = []
        lines.append("Search: " + query)
        let count = results?.totalCount ?? 0
        var status = "\(count) \(count == 1 ? "city" : "cities")" + (favoritesOnly ? " · favorites only" : "")
        if let message { status += " · " + message }
        lines.append(status)
        lines.append(String(repeating: "─", count: min(columns, 60)))
        let listRows = max(1, rows - 5)
        if showingDetails, let match = selectedMatch {
            lines += details(of: match)
        } else if let results {
            let top = max(0, selection - listRows + 1)
            for position in top ..< min(results.count, top + listRows) {
                let match = results[position]
                let marker = position == selection ? "\u{1B}[7m>\u{1B}[0m " : "  "
                let star = favorites.contains(match.id) ? "★ " : "  "
                let distance = results.distanceMeters(of: match).map { "  " + Coordinate.formattedDistance(meters: $0) } ?? ""
                lines.append(marker + star + emphasized(match) + ", " + match.city.locationLabel + distance)
            }
        }
        while lines.count < rows - 1 { lines.append("") }
        let footer = "↑/↓ select · Enter details · Ctrl-F favorite · Tab favorites only · Esc quit"
        lines.append(footer.count <= columns ? footer : "↑↓ · Enter · Ctrl-F ★ · Tab ★ only · Esc")
        // Each line is cut to the width: a wrapped line would push the "Search:" line off the top.
        var screen = "\u{1B}[H"
        for (number, line) in lines.prefix(rows).enumerated() {
            screen += TerminalText.clipped(line, to: columns) + "\u{1B}[K" + (number < rows - 1 ? "\r\n" : "")
        }
        screen += "\u{1B}[1;\(9 + query.count)H"
        Terminal.write(screen)
    }

    /// The name with the matched part in bold; when an alternate name matched, the name
    /// followed by "· Alternate" with the matched part in bold; "(1 typo)" after a match that
    /// needed edits, "(words skipped)" after one with words between the query's (WORDS.md §9).
    private func emphasized(_ match: CityMatch) -> String {
        let matched = match.matchedName
        let range = match.highlightRange
        let bold: String
        if range.isEmpty {
            bold = TerminalText.safe(matched)
        } else {
            let (before, part, after) = (matched[..<range.lowerBound], matched[range], matched[range.upperBound...])
            bold = TerminalText.safe(before) + "\u{1B}[1m" + TerminalText.safe(part) + "\u{1B}[0m" + TerminalText.safe(after)
        }
        let typos = (match.editCount == 0 ? "" : " (\(match.editCount) \(match.editCount == 1 ? "typo" : "typos"))")
            + (match.skipsWords ? " (words skipped)" : "")
        return (match.matchedAlternateName == nil ? bold : TerminalText.safe(match.name) + " · " + bold) + typos
    }

    private func details(of match: CityMatch) -> [String] {
        let coordinate = match.city.coordinate
        var lines = [
            "\u{1B}[1m\(TerminalText.safe(match.name))\u{1B}[0m, \(TerminalText.safe(match.city.locationLabel))" + (favorites.contains(match.id) ? "  ★ favorite" : ""),
            "id:          \(match.id)",
            "coordinates: \(coordinate.formattedLatitude), \(coordinate.formattedLongitude)",
            "             \(coordinate.degreesMinutesSeconds)",
        ]
        if let population = match.population { lines.append("population:  \(population)") }
        if let region = match.city.region, let name = region.name {
            lines.append("region:      \(TerminalText.safe(name))" + (region.isoCode.map { " (\(TerminalText.safe($0)))" } ?? ""))
        }
        if let distance = results?.distanceMeters(of: match) { lines.append("distance:    \(Coordinate.formattedDistance(meters: distance))") }
        lines.append("")
        lines.append("(Esc or Enter: back to the list)")
        return lines
    }

    /// Chunks of bytes from standard input, read on a background thread; ends at end of input.
    private static func keyboardInput() -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            let thread = Thread {
                var buffer = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = buffer.withUnsafeMutableBytes { systemRead(STDIN_FILENO, $0.baseAddress, $0.count) }
                    if count <= 0 {
                        if count < 0 && errno == EINTR { continue }
                        continuation.finish()
                        return
                    }
                    continuation.yield(Array(buffer[..<count]))
                }
            }
            thread.start()
        }
    }
}
