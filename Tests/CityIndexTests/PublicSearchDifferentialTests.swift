// PublicSearchDifferentialTests.swift: the search a user calls, with places, countries, a
// location and a radius, against the naive reference composed stage by stage.
import CityIndex
import CityIndexArtifacts
import CityIndexTestSupport
import Foundation
import Synchronization
import Testing

@Suite("The public search agrees with the naive reference of every stage (WORDS.md §2–§13) on real data")
struct PublicSearchDifferentialTests {
    /// A share of Data/: its cities of 100,000 people or more and every 16th other (by id),
    /// built with Data/places.json; and the reference over the same records and places.
    struct Subset: Sendable {
        let dataset: LoadedDataset
        let reference: NaivePublicSearch
        let places: [String: (names: [String], regions: [String: [String]])]
    }

    static let subset: Result<Subset, any Error> = Result {
        let json = try InputReading.decompressedBytes(path: Fixtures.defaultDataPath)
        guard let all = try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]] else { throw TestSetupError("Data/ is not a list") }
        let kept = all.filter { city in
            ((city["population"] as? Int) ?? 0) >= 100_000 || ((city["_id"] as? Int) ?? 0) % 16 == 0
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-public-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: path))
        let dataset = try LoadedDataset(path: path, placesPath: Fixtures.defaultPlacesPath)
        let placesJSON = try Data(contentsOf: URL(fileURLWithPath: Fixtures.defaultPlacesPath))
        let places = try NaivePlaces(placesJSON: placesJSON, cities: dataset.cities)
        // What people type after a city: names, aliases and codes of its country and region.
        guard let file = try JSONSerialization.jsonObject(with: placesJSON) as? [String: [[String: Any]]] else {
            throw TestSetupError("Data/places.json is not an object of lists")
        }
        var qualifiers: [String: (names: [String], regions: [String: [String]])] = [:]
        for country in file["countries"] ?? [] {
            guard let code = country["code"] as? String else { continue }
            qualifiers[code, default: ([], [:])].names = [code, country["code3"] as? String, country["name"] as? String].compactMap { $0 }
                + ((country["aliases"] as? [String]) ?? []).prefix(2)
        }
        for region in file["regions"] ?? [] {
            guard let country = region["country"] as? String, let code = region["code"] as? String else { continue }
            let iso = (region["iso"] as? String).map { String($0.split(separator: "-").last ?? "") }
            qualifiers[country, default: ([], [:])].regions[code] = [iso, region["name"] as? String, code].compactMap { $0 }
                + ((region["aliases"] as? [String]) ?? []).prefix(1)
        }
        return Subset(dataset: dataset, reference: NaivePublicSearch(cities: dataset.cities, places: places), places: qualifiers)
    }

    /// One seeded question: a query and every option `search` takes.
    struct Question: CustomStringConvertible {
        var query: String
        var matching: MatchMode
        var order: ResultOrder
        var limit: Int
        var typos: TypoTolerance
        var countries: Set<String>?
        var near: (latitude: Double, longitude: Double)?
        var within: Double?

        var description: String {
            "\(String(reflecting: query)) \(matching) \(order) limit \(limit) \(typos)"
                + (countries.map { " countries \($0.sorted())" } ?? "")
                + (near.map { " near \($0.latitude),\($0.longitude)" } ?? "") + (within.map { " within \(Int($0)) m" } ?? "")
        }
    }

    /// `count` questions: a city's name (whole, cut, with a typo, with "saint" as "st"), or a
    /// word query of the generator's, often followed by a name or code of the city's region
    /// or country (after a comma or not, sometimes with a typo), with random options.
    static func questions(_ subset: Subset, count: Int, seed: UInt64) -> [Question] {
        var random = SeededGenerator(seed: seed)
        var generator = WordQueryGenerator(names: subset.dataset.allNames, seed: seed + 1)
        let cities = subset.dataset.cities
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func typo(_ text: String) -> String {
            var characters = Array(text)
            guard characters.count >= 5 else { return text }
            let at = Int.random(in: 1 ..< characters.count - 1, using: &random)
            switch Int.random(in: 0 ..< 3, using: &random) {
            case 0: characters.remove(at: at)
            case 1: characters[at] = letters.randomElement(using: &random)!
            default: characters.swapAt(at, at + 1)
            }
            return String(characters)
        }
        return (0 ..< count).map { round in
            let city = cities.randomElement(using: &random)!
            let names = [city.name] + (city.alternatenames ?? []).prefix(3)
            var query = names.randomElement(using: &random)!.lowercased()
            switch round % 6 {
            case 0: break
            case 1: query = String(query.prefix(max(3, query.count * 2 / 3)))
            case 2: query = typo(query)
            case 3: query = query.replacingOccurrences(of: "saint ", with: "st ").replacingOccurrences(of: "sankt ", with: "st. ")
            case 4: query = generator.next()
            default: query = String(query.prefix(Int.random(in: 1 ... 4, using: &random)))
            }
            let known = subset.places[city.country]
            var qualifier: String?
            switch round % 4 {
            case 1: qualifier = city.region.flatMap { known?.regions[$0]?.randomElement(using: &random) }
            case 2: qualifier = known?.names.randomElement(using: &random)
            case 3: qualifier = (known?.names.randomElement(using: &random)).map(typo)
            default: break
            }
            if let qualifier, !qualifier.isEmpty {
                query += (round % 3 == 0 ? ", " : " ") + qualifier.lowercased()
            }
            // Each option drawn on its own: a point (a third), near the city or anywhere, and a
            // radius (a sixth of those); countries (a sixth); the mode, order, limit and typos.
            let point = Bool.random(using: &random) ? city.coord : cities.randomElement(using: &random)!.coord
            let near = Int.random(in: 0 ..< 3, using: &random) == 0 ? (point.lat, point.lon) : nil
            let countries: Set<String>? = switch Int.random(in: 0 ..< 12, using: &random) {
            case 0: [city.country]
            case 1: [city.country.lowercased(), "US"]
            default: nil
            }
            return Question(query: query, matching: Int.random(in: 0 ..< 4, using: &random) == 0 ? .prefix : .words,
                            order: Int.random(in: 0 ..< 5, using: &random) == 0 ? .alphabetical : .population,
                            limit: [10, 20, 5].randomElement(using: &random)!,
                            typos: [.automatic, .none, .maximum(1), .automatic, .maximum(2)].randomElement(using: &random)!,
                            countries: countries, near: near,
                            within: near != nil && Int.random(in: 0 ..< 6, using: &random) == 0 ? 1_000_000 : nil)
        }
    }

    /// Asks `question` of the index and of the reference: the reference's answer, and how the
    /// index's differs from it (its first differing match, or the error it threw), nil when
    /// they agree on every match (id, edits, name, highlight) and the count.
    static func compare(_ question: Question, in subset: Subset) -> (difference: String?, expected: NaivePublicSearch.Answer) {
        let expected = subset.reference.search(question.query, matching: question.matching, order: question.order, limit: question.limit,
                                               typos: question.typos, countries: question.countries, near: question.near,
                                               within: question.within)
        let found: CityMatches
        do {
            let point = try question.near.map { try Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            found = try subset.dataset.index.search(question.query, matching: question.matching, order: question.order,
                                                    limit: question.limit, typos: question.typos, countries: question.countries,
                                                    near: point, within: question.within)
        } catch {
            return ("\(question): \(error)", expected)
        }
        let actual = NaivePublicSearch.Answer(matches: found.map { match in
            let highlight = match.highlightUTF16Range
            return NaivePublicSearch.Match(id: match.id, edits: match.editCount, matchedAlternateName: match.matchedAlternateName,
                                           highlight: [highlight.lowerBound, highlight.count])
        }, totalCount: found.totalCount)
        guard actual != expected else { return (nil, expected) }
        let first = zip(actual.matches, expected.matches).enumerated().first { $0.element.0 != $0.element.1 }
        return ("\(question): count \(actual.totalCount) vs \(expected.totalCount); "
                + (first.map { "at \($0.offset): \($0.element.0) vs \($0.element.1)" }
                   ?? "\(actual.matches.count) vs \(expected.matches.count) matches"), expected)
    }

    @Test("seeded questions through search(…): places, countries, a location and a radius, in every mode and order (100, 300 full)")
    func agrees() throws {
        let subset = try Self.subset.get()
        let questions = Self.questions(subset, count: TestScale.count(full: 300, quick: 100, atLeast: 12), seed: 31)
        let failures = Mutex<[String]>([])
        // Answers with a match, and with a qualified match.
        let coverage = Mutex((answered: 0, qualified: 0))
        DispatchQueue.concurrentPerform(iterations: questions.count) { number in
            let (difference, expected) = Self.compare(questions[number], in: subset)
            if let difference { failures.withLock { $0.append(difference) } }
            coverage.withLock {
                $0.answered += expected.matches.isEmpty ? 0 : 1
                $0.qualified += expected.qualifiedCount > 0 ? 1 : 0
            }
        }
        let found = failures.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) of \(questions.count) differ:\n\(found.prefix(12).joined(separator: "\n"))")
        // The questions reach the stages: most find something, many through a place named.
        let reached = coverage.withLock { $0 }
        #expect(reached.answered > questions.count / 2 && reached.qualified > questions.count / 5, "\(reached)")
    }

    /// Questions where every stage after the walk has work: a name many cities share, with
    /// and without a place after it, searched from near one of its cities, so that the
    /// qualifier's matches, the whole query's and the bias all meet.
    static func namesakeQuestions(_ subset: Subset, count: Int, seed: UInt64) -> [Question] {
        var random = SeededGenerator(seed: seed)
        var byName: [String: [ReferenceCity]] = [:]
        for city in subset.dataset.cities { byName[city.name.lowercased(), default: []].append(city) }
        let shared = byName.filter { $0.value.count >= 3 }.keys.sorted()
        return (0 ..< count).map { round in
            let name = shared.randomElement(using: &random)!
            let city = byName[name]!.randomElement(using: &random)!
            let known = subset.places[city.country]
            let qualifier = round % 3 == 0 ? nil
                : round % 3 == 1 ? city.region.flatMap { known?.regions[$0]?.first } : known?.names.first
            let other = byName[name]!.randomElement(using: &random)!
            return Question(query: name + (qualifier.map { " " + $0.lowercased() } ?? ""), matching: .words, order: .population,
                            limit: 10, typos: round % 2 == 0 ? .automatic : .none, countries: nil,
                            near: (other.coord.lat + 0.05, other.coord.lon - 0.05), within: nil)
        }
    }

    @Test("namesakes with a place, from near one of them: the qualifier, the merge and the bias meet (40)")
    func namesakes() throws {
        let subset = try Self.subset.get()
        let questions = Self.namesakeQuestions(subset, count: 40, seed: 33)
        var differences: [String] = []
        var merged = 0
        for question in questions {
            let (difference, expected) = Self.compare(question, in: subset)
            if let difference { differences.append(difference) }
            if expected.qualifiedCount > 0 && expected.qualifiedCount < expected.matches.count { merged += 1 }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(questions.count) differ:\n\(differences.prefix(8).joined(separator: "\n"))")
        // Pages that hold both qualified matches and the whole query's.
        #expect(merged >= 5, "\(merged)")
    }
}

