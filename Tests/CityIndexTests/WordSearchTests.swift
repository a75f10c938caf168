// WordSearchTests.swift: word starts, alternate names, punctuation and population order (WORDS.md).
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Word matching and population order (WORDS.md)")
struct WordSearchTests {
    static let citiesJSON = """
        [
        {"country":"US","name":"New York City","_id":1,"coord":{"lon":-74,"lat":40.7},"population":8804190,"alternatenames":["NYC","New York","Big Apple","New York City"]},
        {"country":"GB","name":"York","_id":2,"coord":{"lon":-1.08,"lat":53.96},"population":153717},
        {"country":"FR","name":"Saint-Étienne","_id":3,"coord":{"lon":4.39,"lat":45.43},"population":171057,"alternatenames":["St Etienne","Saint Etienne",""]},
        {"country":"DE","name":"München","_id":4,"coord":{"lon":11.57,"lat":48.13},"population":1260391,"alternatenames":["Munich","Monaco di Baviera","Мюнхен","Munich"]},
        {"country":"FR","name":"Paris","_id":5,"coord":{"lon":2.35,"lat":48.85},"population":2138551},
        {"country":"US","name":"Paris","_id":6,"coord":{"lon":-95.5,"lat":33.6}},
        {"country":"US","name":"Paris","_id":7,"coord":{"lon":-88.3,"lat":36.3},"population":25171},
        {"country":"IT","name":"L'Aquila","_id":8,"coord":{"lon":13.4,"lat":42.35},"population":69753},
        {"country":"US","name":"Coeur d’Alene","_id":9,"coord":{"lon":-116.8,"lat":47.7},"population":54628},
        {"country":"BR","name":"Rio de Janeiro","_id":10,"coord":{"lon":-43.2,"lat":-22.9},"population":6747815},
        {"country":"US","name":"St. Louis","_id":11,"coord":{"lon":-90.2,"lat":38.6},"population":300576,"alternatenames":["Saint Louis"]},
        {"country":"BA","name":"Bosanska Gradiška (Gradiška)","_id":12,"coord":{"lon":17.25,"lat":45.14}},
        {"country":"CH","name":"Biel/Bienne","_id":13,"coord":{"lon":7.25,"lat":47.14},"population":55206},
        {"country":"FR","name":"Aix-en-Provence","_id":14,"coord":{"lon":5.45,"lat":43.53},"population":146821},
        {"country":"US","name":"Newark","_id":15,"coord":{"lon":-74.17,"lat":40.73},"population":311549},
        {"country":"US","name":"Springfield","_id":16,"coord":{"lon":-89.6,"lat":39.8},"population":114394},
        {"country":"US","name":"Springfield","_id":17,"coord":{"lon":-72.6,"lat":42.1},"population":114394}
        ]
        """
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(citiesJSON.utf8)).bytes)
    static let reference = NaiveWordSearch(cities: try! JSONDecoder().decode([ReferenceCity].self, from: Data(citiesJSON.utf8)))

    /// (id, matched alternate, highlight start, length) of each match.
    private func words(_ query: String, order: ResultOrder = .alphabetical, limit: Int = .max) throws -> [ReferenceWordMatch] {
        try Self.index.search(query, matching: .words, order: order, limit: limit).asWordReference
    }

    private func match(_ id: Int, _ start: Int, _ length: Int, alternate: String? = nil) -> ReferenceWordMatch {
        ReferenceWordMatch(id: id, matchedAlternateName: alternate, highlight: [start, length])
    }

    @Test("word starts after a space, hyphen, apostrophe, slash or opening parenthesis; the highlight covers the word")
    func wordStarts() throws {
        #expect(try words("york") == [match(1, 4, 4), match(2, 0, 4)])
        #expect(try words("etienne") == [match(3, 6, 7)])
        #expect(try words("aquila") == [match(8, 2, 6)])
        #expect(try words("alene") == [match(9, 8, 5)])
        #expect(try words("bienne") == [match(13, 5, 6)])
        #expect(try words("provence") == [match(14, 7, 8)])
        // Two words match ("Gradiška" and "(Gradiška)"): the earliest is reported.
        #expect(try words("gradiska") == [match(12, 9, 8)])
        #expect(try words("janeiro") == [match(10, 7, 7)])
    }

    @Test("a word highlight ends after the marks that fold to nothing, wherever the name mixes ASCII and other scalars")
    func highlightsOverMarks() throws {
        // Decomposed accents (U+0301, U+0303: their folds are empty) after ASCII letters, a
        // later word after an earlier one that starts like the query, words after separators.
        let json = """
            [
            {"country":"ES","name":"Ba\\u0301rbara del Rin\\u0303o","_id":1,"coord":{"lon":0,"lat":0}},
            {"country":"HT","name":"Port-au-Prince","_id":2,"coord":{"lon":0,"lat":0}},
            {"country":"XX","name":"Ab Abc\\u0301d","_id":3,"coord":{"lon":0,"lat":0}},
            {"country":"XX","name":"Ñu\\u0301 Año","_id":4,"coord":{"lon":0,"lat":0}}
            ]
            """
        let index = try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes)
        let reference = NaiveWordSearch(cities: try JSONDecoder().decode([ReferenceCity].self, from: Data(json.utf8)))
        let expected: [String: [ReferenceWordMatch]] = [
            "b": [match(1, 0, 1)], "ba": [match(1, 0, 3)], "bar": [match(1, 0, 4)],
            "barbara d": [match(1, 0, 10)], "rino": [match(1, 13, 5)], "rin": [match(1, 13, 4)],
            "au p": [match(2, 5, 4)], "prince": [match(2, 8, 6)],
            "abc": [match(3, 3, 4)], "abcd": [match(3, 3, 5)], "ab a": [match(3, 0, 4)],
            "nu": [match(4, 0, 3)], "nu a": [match(4, 0, 5)], "ano": [match(4, 4, 3)],
        ]
        for (query, matches) in expected {
            let actual = try index.search(query, matching: .words, order: .alphabetical, limit: .max).asWordReference
            #expect(actual == matches, "\(query)")
            #expect(actual == reference.search(query, byPopulation: false), "\(query)")
        }
    }

    @Test("punctuation-insensitive: hyphens, apostrophes, periods and space runs are one separator")
    func punctuation() throws {
        for query in ["saint etienne", "saint-etienne", "SAINT  ETIENNE", "saint.etienne", " saint–étienne"] {
            #expect(try words(query) == [match(3, 0, 13)], "\(query)")
        }
        for query in ["l aquila", "l'aquila", "l’aquila", "L‘Aquila"] {
            #expect(try words(query) == [match(8, 0, 8)], "\(query)")
        }
        #expect(try words("st louis") == [match(11, 0, 9)])
        #expect(try words("st. louis") == [match(11, 0, 9)])
        #expect(try words("aix en pro") == [match(14, 0, 10)])
        #expect(try words("coeur d alene") == [match(9, 0, 13)])
        // "laquila" is one word: apostrophes separate, they do not vanish.
        #expect(try words("laquila").isEmpty)
    }

    @Test("alternate names find the city and say which name matched, with its highlight")
    func alternateNames() throws {
        #expect(try words("munich") == [match(4, 0, 6, alternate: "Munich")])
        #expect(try words("monaco di") == [match(4, 0, 9, alternate: "Monaco di Baviera")])
        #expect(try words("baviera") == [match(4, 10, 7, alternate: "Monaco di Baviera")])
        #expect(try words("мюн") == [match(4, 0, 3, alternate: "Мюнхен")])
        #expect(try words("nyc") == [match(1, 0, 3, alternate: "NYC")])
        #expect(try words("apple") == [match(1, 4, 5, alternate: "Big Apple")])
        #expect(try words("saint louis") == [match(11, 0, 11, alternate: "Saint Louis")])
        let munich = try Self.index.search("munich", matching: .words)[0]
        #expect(munich.name == "München" && munich.matchedName == "Munich")
        #expect(munich.matchedName[munich.highlightRange] == "Munich")
        #expect(try Self.index.search("mün", matching: .words)[0].matchedAlternateName == nil)
    }

    @Test("one city appears once: the primary name is reported when it matches, else the first matching alternate")
    func oneCityOnce() throws {
        // "New York City" matches by its primary name, its alternate "New York" and two words.
        #expect(try words("new york") == [match(1, 0, 8)])
        #expect(try words("mun") == [match(4, 0, 3)])
        let results = try Self.index.search("new york", matching: .words, order: .population)
        #expect(results.count == 1 && results.totalCount == 1)
        // "St Etienne" (first alternate) and the primary both match "s": primary reported.
        #expect(try words("s").first { $0.id == 3 } == match(3, 0, 1))
    }

    @Test("of an alternate's spellings (one word key), the one with most of the query's letters outside ASCII is reported")
    func spellingClosestToTyped() throws {
        let index = try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
            [{"country":"DE","name":"Munich","_id":1,"coord":{"lon":11.58,"lat":48.14},"population":1260391,
              "alternatenames":["Munchen","Minga","München","MUNCHEN","Münchèn","Múnich"]},
             {"country":"VN","name":"Ho Chi Minh City","_id":2,"coord":{"lon":106.63,"lat":10.82},"population":8993082,
              "alternatenames":["Thanh pho Ho Chi Minh","Saigon","Thành phố Hồ Chí Minh","THÀNH PHỐ HỒ CHÍ MINH"]}]
            """.utf8)).bytes)
        func reported(_ query: String, typos: TypoTolerance = .automatic) throws -> String? {
            try index.search(query, matching: .words, order: .population, limit: 1, typos: typos).first?.matchedAlternateName
        }
        // Typed without accents: the first spelling, as before.
        #expect(try reported("munchen") == "Munchen")
        #expect(try reported("thanh pho") == "Thanh pho Ho Chi Minh")
        // Typed with them: the first spelling that has most of them (by lowercase), in every mode.
        #expect(try reported("münchen") == "München")
        #expect(try reported("MÜNCHEN", typos: .none) == "München")
        #expect(try reported("münchèn") == "Münchèn")
        #expect(try reported("münch") == "München")
        #expect(try reported("thành phố") == "Thành phố Hồ Chí Minh")
        // Another alternate is never another's spelling; a letter the name lacks chooses nothing.
        #expect(try reported("mìnga") == "Minga")
        #expect(try reported("mùnchen") == "Munchen")
        // One city once, and the highlight is the spelling's.
        #expect(try index.search("münchen", matching: .words).totalCount == 1)
        let thanh = try #require(try index.search("thành phố hồ", matching: .words).first)
        #expect(thanh.matchedName[thanh.highlightRange] == "Thành phố Hồ")
        // The spelling's stage is traced.
        #expect(try index.explain("münchen", options: SearchOptions(matching: .words)).stages.map(\.name).last == "spellings")
    }

    @Test("multi-word prefixes, and a trailing separator asks for a following word")
    func multiWord() throws {
        #expect(try words("new y") == [match(1, 0, 5)])
        #expect(try words("rio de j") == [match(10, 0, 8)])
        #expect(try words("new").map(\.id) == [1, 15])
        #expect(try words("new ").map(\.id) == [1])
        #expect(try words("new-").map(\.id) == [1])
        #expect(try words("york c") == [match(1, 4, 6)])
        #expect(try words("york x").isEmpty)
    }

    @Test("the empty query and a query of separators match every city, by its primary name")
    func emptyQuery() throws {
        for query in ["", "  ", "-", " . "] {
            let results = try Self.index.search(query, matching: .words)
            #expect(results.count == 17 && results.totalCount == 17)
            #expect(results.allSatisfy { $0.matchedAlternateName == nil && $0.highlightUTF16Range.isEmpty })
        }
    }

    @Test("the default search is unchanged: prefix of the full name, alphabetical")
    func defaultUnchanged() throws {
        #expect(try Self.index.search("york").map(\.id) == [2])
        #expect(try Self.index.search("york", matching: .prefix).map(\.id) == [2])
        #expect(try Self.index.search("saint etienne").isEmpty)
        #expect(try Self.index.search("munich").isEmpty)
        #expect(try Self.index.search("paris").map(\.id) == [5, 6, 7])
    }

    @Test("population order: most populous first, unknown last, ties alphabetical; limit keeps the total count")
    func populationOrder() throws {
        #expect(try words("paris", order: .population).map(\.id) == [5, 7, 6])
        #expect(try words("paris").map(\.id) == [5, 6, 7])
        let prefix = try Self.index.search("p", matching: .prefix, order: .population)
        #expect(prefix.map(\.id) == [5, 7, 6] && prefix.totalCount == 3)
        let top = try Self.index.search("paris", matching: .words, order: .population, limit: 2)
        #expect(top.map(\.id) == [5, 7] && top.count == 2 && top.totalCount == 3)
        // Equal populations: alphabetical (same name and country, so by id).
        #expect(try words("springfield", order: .population).map(\.id) == [16, 17])
        #expect(try words("s", order: .population, limit: 3).map(\.id) == [11, 3, 16])
        // An alternate-name match weighs a tenth of the population: St. Louis (300,576) by its
        // alternate "Saint Louis" comes after Saint-Étienne (171,057) by its own name.
        #expect(try words("saint", order: .population).map(\.id) == [3, 11])
        #expect(try words("saint", order: .population)[1].matchedAlternateName == "Saint Louis")
        #expect(try Self.index.search("", matching: .words, order: .population, limit: 2).map(\.id) == [1, 10])
        #expect(try Self.index.search("paris", matching: .prefix, order: .population, limit: 0).isEmpty)
    }

    @Test("build option: alternate names all, latin (Latin letters only) or none")
    func alternateNameSelection() throws {
        func index(_ selection: AlternateNameSelection) throws -> CityIndex {
            var builder = IndexBuilder()
            builder.alternateNames = selection
            return try CityIndex(bytes: builder.build(jsonBytes: Array(Self.citiesJSON.utf8)).bytes)
        }
        let latin = try index(.latin), none = try index(.none)
        #expect(try latin.search("munich", matching: .words).map(\.id) == [4])
        #expect(try latin.search("мюн", matching: .words).isEmpty)
        #expect(try none.search("munich", matching: .words).isEmpty)
        #expect(try none.search("york", matching: .words).map(\.id) == [1, 2])
        try latin.verify()
        try none.verify()
    }

    @Test("every query of a seeded set agrees with the naive reference, in both orders")
    func smallListDifferential() throws {
        let queries = ["", "a", "s", "sa", "saint", "saint ", "saint e", "n", "ne", "new", "new y", "york", "p", "pa",
                       "paris", "m", "mu", "muni", "мю", "b", "bi", "big a", "l", "l'", "d", "de", "de j", "gradiska)",
                       "(gradiska", "st", "st.", "spring", "x", "ü", "etienne", "provence", "en"]
        let abbreviationReference = NaiveTypoSearch(cities: try JSONDecoder().decode([ReferenceCity].self, from: Data(Self.citiesJSON.utf8)),
                                                    words: true)
        for query in queries {
            for order in ResultOrder.allCases {
                let variants = abbreviationReference.queryKeyVariants(query)
                if variants.count > 1 {
                    // An abbreviation followed by a separator ("st."): WORDS.md §7.
                    let actual = try Self.index.search(query, matching: .words, order: order).asTypoReference
                    let expected = abbreviationReference.search(queryKeys: variants,
                                                                  costs: abbreviationReference.queryKeyVariantsWithCosts(query).map(\.cost), budget: 0, byPopulation: order == .population,
                                                                  typed: query)
                    #expect(actual == expected, "\(query) \(order)")
                    continue
                }
                let actual = try words(query, order: order)
                let expected = Self.reference.search(query, byPopulation: order == .population)
                #expect(actual == expected, "\(query) \(order)")
            }
        }
    }
}

@Suite("Word matching and population order agree with the naive reference on real data")
struct WordSearchDifferentialTests {
    /// 500 in a full run, 100 in a quick one (`TestScale`): the naive reference reads every
    /// name for each query. `CITYINDEX_TEST_QUERIES` sets four times it.
    static let queryCount = ProcessInfo.processInfo.environment["CITYINDEX_TEST_QUERIES"].flatMap { Int($0) }.map { $0 / 4 }
        ?? TestScale.count(full: 500, quick: 100)

    /// Compares word matching (all matches, alphabetical), the population top 10 of word and
    /// prefix matching, and the total counts, for `queryCount` seeded queries.
    private func compare(_ dataset: LoadedDataset, seed: UInt64) throws {
        var generator = WordQueryGenerator(names: dataset.allNames, seed: seed)
        var nonEmptyResults = 0
        var variantQueries = 0
        // Built on the first query with variants (it reads every name once).
        final class Lazy: @unchecked Sendable {
            private var built: NaiveTypoSearch?
            func value(_ dataset: LoadedDataset) -> NaiveTypoSearch {
                if let built { return built }
                let made = NaiveTypoSearch(cities: dataset.cities, words: true)
                built = made
                return made
            }
        }
        let variantReference = Lazy()
        func byPopulation<T>(_ matches: [T], weight: (T) -> Int) -> [T] {
            // The reference lists are alphabetical: a stable sort by weight gives the order.
            matches.enumerated().sorted { a, b in
                let wa = weight(a.element), wb = weight(b.element)
                return wa != wb ? wa > wb : a.offset < b.offset
            }.map(\.element)
        }
        for _ in 0 ..< Self.queryCount {
            let query = generator.next()
            let prefixExpected = dataset.reference.search(query)
            // The references model WORDS.md §2–§9, not the places a query may end with (§10).
            let prefixTop = try dataset.index.searchIgnoringPlaces(query, matching: .prefix, order: .population, limit: 10)
            #expect(prefixTop.totalCount == prefixExpected.count)
            #expect(prefixTop.asReference == Array(byPopulation(prefixExpected, weight: { dataset.populationByID[$0.id]! }).prefix(10)), "prefix population \(String(reflecting: query))")
            // A query with an abbreviation or a transliterated vowel searches several keys
            // (WORDS.md §7, §8): the typo reference, which models them, at a budget of 0.
            let variants = NaiveTypoSearch.wordQueryKeyVariantsWithCosts(query)
            if variants.count > 1 {
                variantQueries += 1
                let reference = variantReference.value(dataset)
                for order in ResultOrder.allCases {
                    let expected = reference.search(queryKeys: variants.map(\.key), costs: variants.map(\.cost), budget: 0,
                                                    byPopulation: order == .population, typed: query)
                    let actual = try dataset.index.searchIgnoringPlaces(query, matching: .words, order: order, limit: 10, typos: .none)
                    #expect(actual.totalCount == expected.count, "variants count \(String(reflecting: query)) \(order)")
                    #expect(actual.asTypoReference == Array(expected.prefix(10)), "variants \(String(reflecting: query)) \(order)")
                }
                continue
            }
            let expected = dataset.wordReference.search(query, byPopulation: false)
            let actual = try dataset.index.searchIgnoringPlaces(query, matching: .words)
            #expect(actual.totalCount == expected.count, "count for \(String(reflecting: query))")
            let actualMatches = actual.asWordReference
            if actualMatches != expected {
                let difference = zip(actualMatches, expected).first { $0 != $1 }
                Issue.record("words \(String(reflecting: query)): first difference \(String(describing: difference)) of \(expected.count)")
            }
            let top = try dataset.index.searchIgnoringPlaces(query, matching: .words, order: .population, limit: 10)
            #expect(top.totalCount == expected.count)
            let expectedTop = dataset.wordReference.search(query, byPopulation: true)
            #expect(top.asWordReference == Array(expectedTop.prefix(10)), "population \(String(reflecting: query))")
            if !expected.isEmpty { nonEmptyResults += 1 }
        }
        #expect(nonEmptyResults > Self.queryCount / 2)
        // The generator's abbreviations and digraphs are compared, not skipped.
        #expect(variantQueries > 0)
    }

    @Test("random word queries on Data/cities500.json.xz (alternate names, populations; 500, 100 quick)")
    func defaultDataset() throws {
        try compare(Fixtures.defaultDataset.get(), seed: 6)
    }

    @Test("alternate names that are another city's whole name (WORDS.md §13's named-city rule), whole and their first letters, agree with the naive reference")
    func namedCityAlternates() throws {
        let dataset = try Fixtures.defaultDataset.get()
        var memo: [Unicode.Scalar: String] = [:]
        func key(_ name: String) -> String { NaiveWordSearch.words(of: name, memo: &memo).joined(separator: " ") }
        let primaryKeys = Set(dataset.cities.map { key($0.name) })
        // The alternates of the most populous cities that are another city's primary name.
        var queries: [String] = []
        for city in dataset.cities.sorted(by: { ($0.population ?? 0) > ($1.population ?? 0) }).prefix(3_000) where queries.count < 240 {
            let own = key(city.name)
            for alternate in city.alternatenames ?? [] {
                let alternateKey = key(alternate)
                guard alternateKey != own, primaryKeys.contains(alternateKey),
                      NaiveTypoSearch.wordQueryKeyVariantsWithCosts(alternate).count == 1 else { continue }
                queries.append(alternate)
                let start = String(alternate.prefix(4))
                if NaiveTypoSearch.wordQueryKeyVariantsWithCosts(start).count == 1 { queries.append(start) }
                break
            }
        }
        #expect(queries.count >= 200)
        var marked = 0
        for query in queries {
            let top = try dataset.index.searchIgnoringPlaces(query, matching: .words, order: .population, limit: 10)
            let expected = dataset.wordReference.search(query, byPopulation: true)
            #expect(top.totalCount == expected.count, "count for \(String(reflecting: query))")
            #expect(top.asWordReference == Array(expected.prefix(10)), "population \(String(reflecting: query))")
            marked += top.count { $0.overshadowing == .namesAnotherCity }
        }
        // The rule is exercised, not only agreed on.
        #expect(marked >= 20)
    }

    @Test("random word queries on the real 209,557-city list (CITYINDEX_SHARED; 500, 100 quick)",
          .enabled(if: Fixtures.sharedDataset != nil, "set CITYINDEX_SHARED to the shared folder (data/cities.json.xz)"))
    func sharedDataset() throws {
        let loaded = try #require(Fixtures.sharedDataset)
        try compare(loaded.get(), seed: 7)
    }
}

extension CityMatches {
    /// The matches in the word reference's shape, for comparison.
    var asWordReference: [ReferenceWordMatch] {
        map { match in
            let highlight = match.highlightUTF16Range
            return ReferenceWordMatch(id: match.id, matchedAlternateName: match.matchedAlternateName,
                                      highlight: [highlight.lowerBound, highlight.count])
        }
    }
}

@Suite("The machine-made rule (WORDS.md §5) agrees with its naive reference")
struct MachineMadeRuleTests {
    static let folder = try! IndexBuilder.folder()

    @Test("random names of ASCII and Latin letters, digits, spaces and punctuation (the ASCII fast path and the Unicode path)")
    func agreesWithReference() {
        var random = SeededGenerator(seed: 17)
        let ascii = (0x20 ..< 0x7F).map { Character(Unicode.Scalar(UInt8($0))) }
        let latin: [Character] = ["é", "Ø", "ß", "ł", "Ŋ", "ǎ", "ʼ", "ḍ", "Ẓ", "ŷ", "Ÿ", "ı", "İ"]
        let other: [Character] = ["д", "Ж", "中", "ا", "ª", "º", "µ"]
        for trial in 0 ..< 20_000 {
            let pool = trial % 4 == 0 ? ascii + latin + other : trial % 4 == 1 ? ascii + latin : ascii
            let name = String((0 ..< Int.random(in: 0 ... 9, using: &random)).map { _ in pool.randomElement(using: &random)! })
            let fast = Array(name.utf8).withUnsafeBytes { AlternateDemotion.looksMachineMade($0, foldTable: Self.folder.table) }
            #expect(fast == NaiveWordSearch.looksMachineMade(name), "\(name.debugDescription)")
        }
    }
}
