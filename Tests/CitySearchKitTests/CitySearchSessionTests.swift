// CitySearchSessionTests.swift: the seed's search flows, driven by a manual clock.
import CityIndex
import CityIndexTestSupport
import CitySearchKit
import Foundation
import Testing

@Suite("Search session (seed flows: rapid typing, duplicate, too short, empty, cancellation)", .timeLimit(.minutes(10)))
struct CitySearchSessionTests {
    let clock = ManualClock()
    let debounce = Duration.milliseconds(250)

    private func session(minimum: Int = 1, favorites: FavoritesStore? = nil) -> CitySearchSession {
        CitySearchSession(index: Fixtures.smallIndex, favorites: favorites,
                          configuration: .init(debounce: debounce, minimumCharacterCount: minimum), clock: clock)
    }

    /// Runs `query` on `session`, advancing the clock past the debounce, and returns what it delivers.
    private func deliver(_ query: String, on session: CitySearchSession) async throws -> CitySearchResults {
        let call = Task { try await session.search(queryFragment: query) }
        await clock.waitForSleepers(1)
        clock.advance(by: debounce)
        return try await call.value
    }

    @Test("a query runs once it has waited out the debounce, not before")
    func debounced() async throws {
        let session = session()
        let call = Task { try await session.search(queryFragment: "mun") }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(249))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let results = try await call.value
        #expect(results.map(\.name) == ["Munchen", "München"])
        #expect(results.count == 2)
    }

    @Test("rapid typing: older calls end with .superseded, only the last delivers")
    func rapidTyping() async throws {
        let session = session()
        var calls: [Task<CitySearchResults, any Error>] = []
        for (number, fragment) in ["p", "pa", "par"].enumerated() {
            let deadline = clock.now.advanced(by: debounce)
            calls.append(Task { try await session.search(queryFragment: fragment) })
            await clock.waitForSleeper(until: deadline)
            if number < 2 { clock.advance(by: .milliseconds(100)) }
        }
        #expect(clock.sleeperCount == 1)
        clock.advance(by: debounce)
        for call in calls.dropLast() {
            await #expect(throws: CitySearchError.superseded) { try await call.value }
        }
        #expect(try await calls.last!.value.map(\.id) == [2988507, 4717560])
    }

    @Test("repeating the delivered query gives .sameAsPreviousQuery")
    func duplicate() async throws {
        let session = session()
        let first = Task { try await session.search(queryFragment: "new") }
        await clock.waitForSleepers(1)
        clock.advance(by: debounce)
        #expect(try await first.value.count == 2)
        await #expect(throws: CitySearchError.sameAsPreviousQuery("new")) { try await session.search(queryFragment: "new") }
    }

    @Test("resetRepeatDetection() lets the delivered query run again; rejectsRepeatedQueries: false never rejects it")
    func repeatDetection() async throws {
        let session = session()
        #expect(try await deliver("new", on: session).count == 2)
        await #expect(throws: CitySearchError.sameAsPreviousQuery("new")) { try await session.search(queryFragment: "new") }
        await session.resetRepeatDetection()
        #expect(try await deliver("new", on: session).count == 2)
        await #expect(throws: CitySearchError.sameAsPreviousQuery("new")) { try await session.search(queryFragment: "new") }

        let accepting = CitySearchSession(index: Fixtures.smallIndex, favorites: nil,
                                          configuration: .init(debounce: debounce, minimumCharacterCount: 1, rejectsRepeatedQueries: false),
                                          clock: clock)
        for _ in 0 ..< 3 { #expect(try await deliver("new", on: accepting).count == 2) }
    }

    @Test("too few characters gives .tooFewCharacters at once; the empty query gives every city")
    func tooShortAndEmpty() async throws {
        let session = session(minimum: 3)
        await #expect(throws: CitySearchError.tooFewCharacters(found: 2, minimum: 3)) {
            try await session.search(queryFragment: "  mu")
        }
        let all = Task { try await session.search(queryFragment: "") }
        await clock.waitForSleepers(1)
        clock.advance(by: debounce)
        #expect(try await all.value.count == Fixtures.smallIndex.cityCount)
    }

    @Test("cancelling the calling task ends the call with .cancelled, promptly")
    func cancellation() async throws {
        let session = session()
        let call = Task { try await session.search(queryFragment: "paris") }
        await clock.waitForSleepers(1)
        call.cancel()
        await #expect(throws: CitySearchError.cancelled) { try await call.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("favorites only: the favorites among the matches, in search order, persisted across restarts")
    func favoritesOnly() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(atPath: file.path + ".lock") }
        let favorites = try FavoritesStore(fileURL: file)
        try favorites.add(4717560)   // Paris, US
        try favorites.add(707860)    // Hurzuf
        #expect(try favorites.toggle(2657896))   // Zürich: now a favorite
        #expect(try !favorites.toggle(2657896))  // and not any more
        let session = session(favorites: favorites)
        await session.setFavoritesOnly(true)
        for (query, expected) in [("", [707860, 4717560]), ("par", [4717560]), ("z", [])] {
            #expect(try await deliver(query, on: session).map(\.id) == expected, "query \(query)")
        }
        #expect(try FavoritesStore(fileURL: file).ids == [4717560, 707860])
    }

    @Test("an index file rewritten in place is reported as .index(.fileChangedWhileOpen), its results not delivered")
    func indexChangedUnderneath() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID()).cidx").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(Fixtures.smallIndexBytes).write(to: URL(fileURLWithPath: path))
        let session = CitySearchSession(index: try CityIndex(path: path), configuration: .init(debounce: .zero))
        #expect(try await session.search(queryFragment: "z").count > 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(repeating: 0, count: 100))
        try handle.close()
        await #expect(throws: CitySearchError.index(.fileChangedWhileOpen(path: path))) {
            try await session.search(queryFragment: "zu")
        }
    }

    @Test("a session restricted to countries delivers only their cities")
    func countries() async throws {
        let session = CitySearchSession(index: Fixtures.smallIndex,
                                        configuration: .init(debounce: .zero, countries: ["US"]))
        let results = try await session.search(queryFragment: "par")
        #expect(results.count == 1 && results.allSatisfy { $0.countryCode == "US" })
    }

    @Test("a corrupt favorites file is an error, not an empty set")
    func corruptFavorites() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(atPath: file.path + ".lock") }
        try Data("[1, 2,".utf8).write(to: file)
        #expect(throws: FavoritesStore.StoreError.self) { try FavoritesStore(fileURL: file) }
    }

    @Test("highlights convert to NSRange and AttributedString")
    func presentation() throws {
        let match = try #require(try Fixtures.smallIndex.search("zu").first)
        #expect(match.highlightNSRange == NSRange(location: 0, length: 3))   // "Zu" plus the combining diaeresis
        let attributed = match.highlightedName()
        let highlighted = attributed.runs.filter { $0[CityNameHighlightAttribute.self] == true }
        #expect(highlighted.count == 1)
        #expect(String(attributed[highlighted.first!.range].characters) == "Zü")

        // An alternate name matched: the subtitle carries the highlight, the name none.
        let munich = try #require(try Fixtures.smallIndex.search("mun", matching: .words).first { $0.id == 2867714 })
        #expect(munich.matchedAlternateName == nil)   // the primary name "München" matches "mun"
        let alternate = try #require(try Fixtures.smallIndex.search("munich", matching: .words).first)
        #expect(alternate.name == "München" && alternate.highlightNSRange == NSRange(location: 0, length: 6))
        #expect(!alternate.highlightedName().runs.contains { $0[CityNameHighlightAttribute.self] == true })
        let subtitle = try #require(alternate.highlightedMatchedAlternateName())
        let marked = subtitle.runs.filter { $0[CityNameHighlightAttribute.self] == true }
        #expect(marked.count == 1 && String(subtitle[marked.first!.range].characters) == "Munich")
    }

    @Test("word matching and population order in a session; favorites only filters them")
    func wordsAndPopulation() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("favorites-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file); try? FileManager.default.removeItem(atPath: file.path + ".lock") }
        let favorites = try FavoritesStore(fileURL: file)
        try favorites.add(4717560)   // Paris, US
        let session = CitySearchSession(index: Fixtures.smallIndex, favorites: favorites,
                                        configuration: .init(debounce: debounce, matching: .words, order: .population,
                                                             populationOrderLimit: 1), clock: clock)
        let paris = try await deliver("paris", on: session)
        #expect(paris.map(\.id) == [2988507] && paris.totalCount == 2)   // top 1 of 2: Paris, FR
        #expect(try await deliver("york", on: session).map(\.id) == [5128581])
        await session.setFavoritesOnly(true)
        #expect(try await deliver("paris", on: session).map(\.id) == [4717560])
    }

    @Test("a location ranks nearer cities higher and gives each result its distance; setLocation moves it")
    func location() async throws {
        let parisTexas = try Coordinate(latitude: 33.66, longitude: -95.55)
        let session = CitySearchSession(index: Fixtures.smallIndex,
                                        configuration: .init(debounce: debounce, matching: .words, order: .population,
                                                             location: parisTexas), clock: clock)
        let near = try await deliver("paris", on: session)
        // 25,171 people next door count for more than 2.1 million 8,000 km away (WORDS.md §11).
        #expect(near.map(\.id) == [4717560, 2988507])
        #expect((near.distanceMeters(of: near[0]) ?? .infinity) < 1_000)
        #expect((near.distanceMeters(of: near[1]) ?? 0) > 7_000_000)
        await session.setLocation(nil)
        let anywhere = try await deliver("paris", on: session)
        #expect(anywhere.map(\.id) == [2988507, 4717560] && anywhere.distanceMeters(of: anywhere[0]) == nil)
        #expect(Coordinate.formattedDistance(meters: 350) == "350 m" && Coordinate.formattedDistance(meters: 4_049) == "4.0 km")
        #expect(Coordinate.formattedDistance(meters: 1_204_400) == "1,204 km")
    }

    @Test("within: only cities that close to the location; none without one; the options are one SearchOptions value")
    func within() async throws {
        let parisTexas = try Coordinate(latitude: 33.66, longitude: -95.55)
        var configuration = CitySearchSession.Configuration(debounce: debounce, matching: .words, order: .population,
                                                            location: parisTexas, within: 50_000)
        #expect(configuration.options == SearchOptions(matching: .words, order: .population, limit: 50, near: parisTexas, within: 50_000))
        let session = CitySearchSession(index: Fixtures.smallIndex, configuration: configuration, clock: clock)
        let near = try await deliver("paris", on: session)
        #expect(near.map(\.id) == [4717560] && near.totalCount == 1)
        // Without a location there is nothing to measure from: the radius keeps everything.
        await session.setLocation(nil)
        #expect(try await deliver("paris", on: session).map(\.id) == [2988507, 4717560])
        // In alphabetical order the limit does not apply: every match is delivered.
        configuration.options = SearchOptions(matching: .words, limit: 1)
        let alphabetical = CitySearchSession(index: Fixtures.smallIndex, configuration: configuration, clock: clock)
        #expect(try await deliver("paris", on: alphabetical).count == 2)
    }

    @Test("the recommended configuration forgives typos; the default stays exact")
    func typos() async throws {
        #expect(CitySearchSession.Configuration().typos == .none)
        var configuration = CitySearchSession.Configuration.recommended
        #expect(configuration.matching == .words && configuration.order == .population && configuration.typos == .automatic)
        configuration.debounce = debounce
        let session = CitySearchSession(index: Fixtures.smallIndex, configuration: configuration, clock: clock)
        let found = try await deliver("hurzfu", on: session)
        #expect(found.map(\.id) == [707860] && found.first?.editCount == 1)
        let exact = CitySearchSession(index: Fixtures.smallIndex, configuration: .init(debounce: debounce), clock: clock)
        #expect(try await deliver("hurzfu", on: exact).isEmpty)
    }
}

@Suite("Coordinate (CoordinatesApp seed)")
struct CoordinateTests {
    @Test("validated ranges with the seed's messages")
    func validation() {
        #expect(throws: Coordinate.ValidationError.latitudeOutOfRange(91)) { try Coordinate(latitude: 91, longitude: 0) }
        #expect(throws: Coordinate.ValidationError.longitudeOutOfRange(-180.5)) { try Coordinate(latitude: 0, longitude: -180.5) }
        #expect(throws: Coordinate.ValidationError.self) { try Coordinate(latitude: .nan, longitude: 0) }
        #expect(Coordinate.ValidationError.latitudeOutOfRange(91).description == "Latitude must be between -90 and 90")
        #expect(Coordinate.ValidationError.longitudeOutOfRange(200).description == "Longitude must be between -180 and 180")
    }

    @Test("two-decimal and degrees-minutes-seconds formatting")
    func formatting() throws {
        let sanFrancisco = try Coordinate(latitude: 37.7749, longitude: -122.4194)
        #expect(sanFrancisco.formattedLatitude == "37.77")
        #expect(sanFrancisco.formattedLongitude == "-122.42")
        #expect(sanFrancisco.degreesMinutesSeconds == "37°46′30″N, 122°25′10″W")
        #expect(try Coordinate(latitude: 37.77, longitude: 0.05).degreesMinutesSeconds == "37°46′12″N, 0°3′0″E")
        #expect(try Coordinate(latitude: -0.001, longitude: 0).formattedLatitude == "0.00")
        let hurzuf = try #require(Fixtures.smallIndex.city(id: 707860))
        #expect(hurzuf.coordinate.formattedLatitude == "44.55")
    }
}
