// PlaceQueryTests.swift: qualified queries (WORDS.md §10) and searches from a location (§11) on Data/.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Queries that name a place, and searches from a location")
struct PlaceQueryTests {
    static let recommended: (matching: MatchMode, order: ResultOrder, typos: TypoTolerance) = (.words, .population, .automatic)

    func first(_ query: String, near: Coordinate? = nil, matching: MatchMode = .words) throws -> [Int] {
        let index = try Fixtures.defaultDataset.get().index
        let matches = try index.search(query, matching: matching, order: .population, limit: 5, typos: .automatic, near: near)
        return matches.map(\.id)
    }

    @Test("each WORDS.md §10 rule: names, aliases, codes, typos, commas, ambiguity, in every match mode", arguments: [
        ("paris tx", 4717560), ("paris, texas", 4717560), ("london canada", 6058560), ("london ontario", 6058560),
        ("london on", 6058560), ("paris, france", 2988507), ("paris fr", 2988507), ("london, uk", 2643743),
        ("münchen deutschland", 2867714), ("saint petersburg russia", 498817), ("portland me", 4975802),
        ("perth scotland", 2640358), ("springfield il", 4250542), ("portland mainee", 4975802),
        ("athens georgia", 4180386), ("sydney nsw", 2147714), ("paris xyzzy", 0), ("portlnd maine", 4975802),
        ("san jose ca", 5392171), ("new york ny", 5128581),
    ])
    func qualified(query: String, expectedID: Int) throws {
        let ids = try first(query)
        if expectedID == 0 {
            // "xyzzy" names no place: no reading, the words are searched as they are.
            let index = try Fixtures.defaultDataset.get().index
            let plain = try index.searchIgnoringPlaces(query, matching: .words, order: .population, limit: 5, typos: .automatic)
            #expect(ids == plain.map(\.id), "\(query)")
        } else {
            #expect(ids.first == expectedID, "\(query): \(ids)")
        }
        if !query.contains("ü") && expectedID != 0 {
            let prefix = try first(query, matching: .prefix)
            #expect(prefix.first == expectedID, "\(query) prefix: \(prefix)")
        }
    }

    @Test("beside qualified matches, a match of the whole query keeps its own highlight: \"sna fran\" highlights \"San Fran\"")
    func highlightsOfMergedMatches() throws {
        let index = try Fixtures.defaultDataset.get().index
        // "sna" in a place named like "fran" is a qualified reading; San Francisco matches the
        // whole query with one swap.
        for query in ["sna fran", "asn fran", "paris tx", "london canada"] {
            let found = try index.search(query, matching: .words, order: .population, limit: 20, typos: .automatic)
            for match in found { #expect(!match.highlightUTF16Range.isEmpty, "\(query): \(match)") }
        }
        let sanFrancisco = try #require(try index.search("sna fran", matching: .words, order: .population, limit: 10, typos: .automatic)
            .first { $0.id == 5391959 })
        #expect(sanFrancisco.highlightUTF16Range == 0 ..< 8)
    }

    @Test("a place named only with a typo counts that typo and earns no boost: \"sna fran\" is San Francisco, not Mashhad in Iran")
    func forgivenPlaceCountsItsTypo() throws {
        let index = try Fixtures.defaultDataset.get().index
        let found = try index.search("sna fran", matching: .words, order: .population, limit: 20, typos: .automatic)
        #expect(found.first?.id == 5391959, "\(found.map(\.label))")
        // Mashhad matches "sna" exactly (its alternate "snabad") in Iran, one edit from "fran".
        let mashhad = try #require(found.first { $0.id == 124665 })
        #expect(mashhad.editCount == 1)
        #expect(mashhad.highlightUTF16Range == 0 ..< 3)
        // Above no whole-query match with as few edits and a larger weight.
        let position = try #require(found.firstIndex { $0.id == 124665 })
        for earlier in found.prefix(position) { #expect(earlier.editCount <= 1) }
        // An exactly named place keeps its boost and reports no edit.
        let paris = try #require(try index.search("paris tx", matching: .words, order: .population, limit: 1, typos: .automatic).first)
        #expect(paris.id == 4717560 && paris.editCount == 0)
        let portland = try #require(try index.search("portland mainee", matching: .words, order: .population, limit: 1, typos: .automatic).first)
        #expect(portland.id == 4975802 && portland.editCount == 1)
    }

    @Test("a query that matches a city as typed is not read as qualified: new york, san jo, hong kong")
    func namesStayNames() throws {
        let index = try Fixtures.defaultDataset.get().index
        for query in ["new york", "san jo", "hong kong", "rio de janeiro", "santa cruz", "la paz"] {
            for matching in MatchMode.allCases {
                let found = try index.search(query, matching: matching, order: .population, limit: 10, typos: .automatic)
                let plain = try index.searchIgnoringPlaces(query, matching: matching, order: .population, limit: 10, typos: .automatic)
                #expect(found.map(\.id) == plain.map(\.id) && found.totalCount == plain.totalCount, "\(query) \(matching)")
            }
        }
    }

    @Test("on Data/: a city's name followed by its region or country keeps exactly the name's matches there (500 seeded cities)")
    func qualifiedAgreesWithFilteredSearch() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let index = dataset.index
        var random = SeededGenerator(seed: 11)
        var checked = 0
        for _ in 0 ..< 500 {
            let reference = dataset.cities[Int.random(in: 0 ..< dataset.cities.count, using: &random)]
            guard let city = index.city(id: reference.id), let region = city.region, let regionName = region.name,
                  let countryName = city.country?.name, !reference.name.contains(where: { ",()".contains($0) }) else { continue }
            // (A query ending in ")" matches no name in word matching, with or without a place.)
            for (qualifier, inPlace) in [(regionName, { (c: City) in c.region == region }),
                                         (countryName, { (c: City) in c.countryCode == reference.country })] {
                let query = reference.name + ", " + qualifier
                let found = try index.search(query, matching: .words, order: .population, limit: .max)
                let expected = try index.searchIgnoringPlaces(reference.name, matching: .words, order: .population)
                    .filter { inPlace($0.city) }
                // The qualifier may name more places than this one (an alias two share): a superset.
                #expect(found.contains { $0.id == reference.id }, "\(query)")
                #expect(Set(expected.map(\.id)).isSubset(of: Set(found.map(\.id))), "\(query)")
                checked += 1
            }
        }
        #expect(checked > 500)
    }

    @Test("on Data/: exact before forgiven: a name's exact matches in the country named first, in order, then the whole query's (400 seeded cities)")
    func qualifiedExactMatchesComeFirst() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let index = dataset.index
        var random = SeededGenerator(seed: 12)
        var checked = 0
        for round in 0 ..< 400 {
            let reference = dataset.cities[Int.random(in: 0 ..< dataset.cities.count, using: &random)]
            guard let city = index.city(id: reference.id), let code3 = city.country?.code3,
                  !reference.name.contains(where: { ",()".contains($0) }) else { continue }
            // The alpha-3 code names one country: "lyon, FRA".
            let matching: MatchMode = round % 3 == 0 ? .prefix : .words
            // (The reading trims the words before the comma: so does the typed prefix.)
            let typed = round % 2 == 0 ? reference.name
                : String(reference.name.prefix(max(3, reference.name.count / 2))).trimmingCharacters(in: .whitespaces)
            let expected = try index.searchIgnoringPlaces(typed, matching: matching, order: .alphabetical)
                .filter { $0.city.countryCode == reference.country }
            guard !expected.isEmpty else { continue }
            let found = try index.search(typed + ", " + code3, matching: matching, order: .alphabetical, limit: .max, typos: .automatic)
            let comment: Comment = "\(typed), \(code3) \(matching)"
            #expect(Array(found.prefix(expected.count).map(\.id)) == expected.map(\.id), comment)
            #expect(Array(found.prefix(expected.count).map(\.matchedName)) == expected.map(\.matchedName), comment)
            // In population order too, the place's cities are its exact matches only (typos are
            // forgiven in the place only when nothing matches exactly), beside the whole query's.
            let ranked = try index.search(typed + ", " + code3, matching: matching, order: .population, limit: .max, typos: .automatic)
            let whole = try index.searchIgnoringPlaces(typed + ", " + code3, matching: matching, order: .population, typos: .automatic)
            #expect(Set(ranked.map(\.id)) == Set(expected.map(\.id)).union(whole.map(\.id)), comment)
            #expect(ranked.totalCount == ranked.count, comment)
            checked += 1
        }
        #expect(checked > 300)
    }

    /// The documented bias applied to the index's own unbiased answer (a metamorphic check:
    /// the biased search must be that answer's first 64 matches ordered by the formula, with
    /// Vincenty distances and the dataset's populations). The matches' edits, demotions and
    /// §13 marks are the ones the unbiased search reports; PublicSearchDifferentialTests
    /// checks the same stage against the weights the naive references work out themselves.
    /// `initialism` tells a match of an initialism (WORDS.md §12), which weighs ten times the
    /// population; an overshadowed match (§13) weighs less again.
    static func expectedBiased(_ unbiased: CityMatches, near point: Coordinate, populations: [Int: Int],
                               initialism: (CityMatch) -> Bool = { _ in false },
                               wholeName: (CityMatch) -> Bool = { _ in false }) -> [Int] {
        let scored = unbiased.prefix(64).enumerated().map { position, match -> (score: Double, position: Int, id: Int) in
            var weight = Double(populations[match.id] ?? 0)
            if initialism(match) {
                weight *= 10
            } else if wholeName(match) {
                // WORDS.md §14: a whole name weighs its population alone in the bias.
            } else {
                if match.matchedAlternateName != nil { weight = (weight / 10).rounded(.down) }
                if match.isDemoted { weight = (weight / 10).rounded(.down) }
                for _ in 0 ..< match.editCount + (match.skipsWords ? 1 : 0) { weight /= 10 }
            }
            // WORDS.md §13: an overshadowed match's weight is divided again.
            switch match.overshadowing {
            case nil: break
            case .junk, .borrowedName, .district, .forgivenBesideExactName: weight = 0
            case .forgivenBesideSmallerExactName, .namesAnotherCity: weight /= 10
            }
            let meters = NaiveNearest.distance(latitude: point.latitude, longitude: point.longitude,
                                               toLatitude: match.city.latitude, longitude: match.city.longitude)
            return ((weight + 1) * (1 + 100 * exp(-meters / 50_000)), position, match.id)
        }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.position < $1.position }.map(\.id)
    }

    @Test("on Data/: the biased order is the documented score over the unbiased search's first 64 matches (300 seeded queries and points)")
    func biasAgreesWithFormula() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let index = dataset.index
        var generator = QueryGenerator(names: dataset.names, seed: 21)
        var random = SeededGenerator(seed: 22)
        let namesByID = Dictionary(uniqueKeysWithValues: zip(dataset.cities.map(\.id), dataset.allNames))
        for round in 0 ..< 300 {
            let query = generator.next()
            let city = dataset.cities[Int.random(in: 0 ..< dataset.cities.count, using: &random)]
            let point = try Coordinate(latitude: city.coord.lat, longitude: city.coord.lon)
            let matching: MatchMode = round % 2 == 0 ? .words : .prefix
            let typos: TypoTolerance = round % 3 == 0 ? .none : .automatic
            let unbiased = try index.search(query, matching: matching, order: .population, limit: 64, typos: typos)
            let biased = try index.search(query, matching: matching, order: .population, limit: 20, typos: typos, near: point)
            let key = NaiveWordSearch.queryKey(query)
            // WORDS.md §14: per key that costs nothing (§7), the most populous city whose primary
            // name is that whole key (ties: alphabetical).
            let costFreeKeys = NaiveTypoSearch.wordQueryKeyVariantsWithCosts(query).filter { $0.cost == 0 }.map {
                Array(String(String.UnicodeScalarView($0.key.compactMap(Unicode.Scalar.init))).utf8)
            }.filter { !$0.isEmpty && $0.last != 0x20 }
            let wholeNames = Set(costFreeKeys.compactMap(dataset.wordReference.wholeNameCity(key:)))
            let expected = Self.expectedBiased(unbiased, near: point, populations: dataset.populationByID, initialism: { match in
                guard matching == .words, let names = namesByID[match.id],
                      let slot = NaiveWordSearch.initialismSlot(names: names, key: key) else { return false }
                return match.matchedAlternateName == names[slot]
            }, wholeName: { match in matching == .words && wholeNames.contains(match.id) })
            #expect(biased.map(\.id) == Array(expected.prefix(20)), "\(query) \(matching) near \(city.name)")
            #expect(biased.totalCount == unbiased.totalCount, "\(query)")
        }
    }

    @Test("the bias's anchors: a namesake next door first, a famous far city not buried")
    func biasAnchors() throws {
        let springfieldIL = try Coordinate(latitude: 39.80172, longitude: -89.64371)
        #expect(try first("springfield", near: springfieldIL).first == 4250542)
        // The bias orders the merged matches (WORDS.md §10, then §11): qualified by "us", the
        // Springfield next door before Springfield, Missouri, the largest.
        #expect(try first("springfield us", near: springfieldIL).first == 4250542)
        #expect(try first("springfield us").first == 4409896)
        let portlandME = try Coordinate(latitude: 43.65737, longitude: -70.2589)
        #expect(try first("portland", near: portlandME).first == 4975802)
        #expect(try first("portland").first == 5746545)   // Oregon without a location
        let montreal = try Coordinate(latitude: 45.50884, longitude: -73.58781)
        #expect(try first("paris", near: montreal).contains(2988507))
        let sydney = try Coordinate(latitude: -33.86785, longitude: 151.20732)
        #expect(try first("london", near: sydney).contains(2643743))
    }

    @Test("on Data/: within a radius keeps exactly the matches that near, in order")
    func radius() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let index = dataset.index
        let paris = try Coordinate(latitude: 48.85341, longitude: 2.3488)
        for (query, kilometres) in [("saint", 50.0), ("sa", 20), ("paris", 30), ("mont", 100)] {
            for order in ResultOrder.allCases {
                let all = try index.search(query, matching: .words, order: order)
                let expected = all.filter {
                    NaiveNearest.distance(latitude: 48.85341, longitude: 2.3488, toLatitude: $0.city.latitude, longitude: $0.city.longitude)
                        <= kilometres * 1000
                }
                let found = try index.search(query, matching: .words, order: order, near: paris, within: kilometres * 1000)
                if order == .alphabetical {
                    #expect(found.map(\.id) == expected.map(\.id), "\(query) \(order)")
                } else {
                    #expect(Set(found.map(\.id)) == Set(expected.map(\.id)), "\(query) \(order)")
                }
                #expect(found.totalCount == expected.count, "\(query) \(order)")
            }
        }
    }
}
