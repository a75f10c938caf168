// TypoToleranceTests.swift: typo-tolerant search (WORDS.md §6) on a small list and on Data/.
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Synchronization
import Testing

/// A result in the reference's shape.
extension CityMatches {
    var asTypoReference: [ReferenceTypoMatch] {
        map { match in
            let highlight = match.highlightUTF16Range
            return ReferenceTypoMatch(id: match.id, matchedAlternateName: match.matchedAlternateName,
                                      highlight: [highlight.lowerBound, highlight.count], edits: match.editCount)
        }
    }
}

@Suite("Typo tolerance (WORDS.md §6)")
struct TypoToleranceTests {
    static let citiesJSON = """
        [
        {"country":"US","name":"Seattle","_id":1,"coord":{"lon":-122.3,"lat":47.6},"population":737015},
        {"country":"US","name":"Phoenix","_id":2,"coord":{"lon":-112.1,"lat":33.4},"population":1608139},
        {"country":"US","name":"Chicago","_id":3,"coord":{"lon":-87.6,"lat":41.9},"population":2746388},
        {"country":"CO","name":"Bogotá","_id":4,"coord":{"lon":-74.1,"lat":4.6},"population":7674366},
        {"country":"RO","name":"Bogata","_id":5,"coord":{"lon":24.1,"lat":46.5},"population":1903},
        {"country":"BR","name":"Rio de Janeiro","_id":6,"coord":{"lon":-43.2,"lat":-22.9},"population":6747815},
        {"country":"US","name":"Philadelphia","_id":7,"coord":{"lon":-75.2,"lat":40},"population":1603797},
        {"country":"DE","name":"München","_id":8,"coord":{"lon":11.6,"lat":48.1},"population":1260391,"alternatenames":["Munich","Мюнхен","慕尼黑"]},
        {"country":"RU","name":"Москва","_id":9,"coord":{"lon":37.6,"lat":55.8},"population":12506468,"alternatenames":["Moskva","Moscow"]},
        {"country":"CN","name":"北京","_id":10,"coord":{"lon":116.4,"lat":39.9},"population":21540000,"alternatenames":["Beijing","Peking"]},
        {"country":"US","name":"Seaside","_id":11,"coord":{"lon":-121.9,"lat":36.6},"population":32366},
        {"country":"US","name":"New York City","_id":12,"coord":{"lon":-74,"lat":40.7},"population":8804190,"alternatenames":["New York"]},
        {"country":"US","name":"Sea Cliff","_id":13,"coord":{"lon":-73.6,"lat":40.8}}
        ]
        """
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(citiesJSON.utf8)).bytes)
    static let cities = try! JSONDecoder().decode([ReferenceCity].self, from: Data(citiesJSON.utf8))
    static let wordReference = NaiveTypoSearch(cities: cities, words: true)
    static let prefixReference = NaiveTypoSearch(cities: cities, words: false)

    private func top(_ query: String, _ matching: MatchMode = .words, typos: TypoTolerance = .automatic) throws -> [(id: Int, edits: Int)] {
        try Self.index.search(query, matching: matching, order: .population, limit: 5, typos: typos).map { ($0.id, $0.editCount) }
    }

    @Test("a transposed, missing, doubled, wrong or wrong-first letter still finds the city, one edit away")
    func oneEdit() throws {
        for (query, id) in [("seatle", 1), ("pheonix", 2), ("chicgo", 3), ("chiccago", 3), ("chicaho", 3), ("xeattle", 1),
                            ("zhicago", 3), ("philadelpha", 7)] {
            let found = try top(query)
            #expect(found.first?.id == id && found.first?.edits == 1, "\(query): \(found)")
            #expect(try Self.index.search(query, matching: .words).isEmpty, "\(query) matches exactly")
        }
    }

    @Test("two edits from 8 letters; a typo in the last word of a multi-word query is forgiven")
    func twoEditsAndLastWord() throws {
        #expect(try top("philadelfia").first.map { [$0.id, $0.edits] } == [7, 2])
        #expect(try top("rio de janiero").first.map { [$0.id, $0.edits] } == [6, 1])
        #expect(try top("newyork").first.map { [$0.id, $0.edits] } == [12, 1])  // the missing space is one edit
        #expect(try top("phladelfia", typos: .maximum(1)).isEmpty)
    }

    @Test("the budget table: nothing forgiven below 4 letters unless asked; .none is the exact search")
    func budgetTable() throws {
        #expect(TypoTolerance.automatic.budget(forLetterCount: 3) == 0)
        #expect(TypoTolerance.automatic.budget(forLetterCount: 4) == 1)
        #expect(TypoTolerance.automatic.budget(forLetterCount: 7) == 1)
        #expect(TypoTolerance.automatic.budget(forLetterCount: 8) == 2)
        #expect(TypoTolerance.maximum(9).budget(forLetterCount: 1) == TypoTolerance.largestBudget)
        #expect(TypoTolerance.maximum(-1).budget(forLetterCount: 20) == 0)
        #expect(try top("sex").isEmpty)  // "sea" is one edit away, but 3 letters get no budget
        #expect(try top("sex", typos: .maximum(1)).map(\.id).contains(1))
        for query in ["sea", "seattle", "", "x", "new y"] {
            for matching in MatchMode.allCases {
                let exact = try Self.index.search(query, matching: matching, order: .population)
                let none = try Self.index.search(query, matching: matching, order: .population, typos: .none)
                #expect(exact.map(\.id) == none.map(\.id) && exact.totalCount == none.totalCount)
                #expect(none.allSatisfy { $0.editCount == 0 })
            }
        }
    }

    @Test("ranking is one formula: each edit divides the weight by 10, so Bogotá one edit away beats the exact hamlet")
    func rankingFormula() throws {
        let found = try top("bogata")
        #expect(found.map(\.id).prefix(2) == [4, 5], "\(found)")
        #expect(found.first?.edits == 1 && found.dropFirst().first?.edits == 0)
        // The other way round, the exact match leads and the hamlet follows at a tenth.
        let exactFirst = try top("bogota")
        #expect(exactFirst.map(\.id).prefix(2) == [4, 5] && exactFirst.first?.edits == 0 && exactFirst.dropFirst().first?.edits == 1)
    }

    @Test("highlights cover the part of the name within the edits")
    func highlights() throws {
        let seattle = try #require(Self.index.search("seatle", matching: .words, order: .population, limit: 1, typos: .automatic).first)
        #expect(seattle.highlightUTF16Range == 0 ..< 7)
        let rio = try #require(Self.index.search("rio de janiero", matching: .words, order: .population, limit: 1, typos: .automatic).first)
        #expect(rio.highlightUTF16Range == 0 ..< 14)
        let janeiro = try #require(Self.index.search("janiero", matching: .words, order: .population, limit: 1, typos: .automatic).first)
        #expect(janeiro.highlightUTF16Range == 7 ..< 14)
        let munich = try #require(Self.index.search("munchne", matching: .prefix, order: .population, limit: 1, typos: .automatic).first)
        #expect(munich.name == "München" && munich.highlightUTF16Range == 0 ..< 7)
    }

    @Test("typos stay within the query's script: Cyrillic forgiven in Cyrillic, no CJK letter brought in")
    func scripts() throws {
        #expect(try top("москба").first.map { [$0.id, $0.edits] } == [9, 1])
        #expect(try top("moskba").first.map { [$0.id, $0.edits] } == [9, 1])
        // "慕x黑": replacing x by 尼 would bring a CJK letter in, which no edit does.
        #expect(try top("慕x黑尼尼", typos: .maximum(1)).isEmpty)
        // Deleting the query's own extra letter is an edit whatever its script.
        #expect(try top("北x京", typos: .maximum(1)).first?.id == 10)
    }

    @Test("every query of a seeded set agrees with the naive reference, both modes and orders")
    func smallListDifferential() throws {
        let queries = ["seatle", "pheonix", "chicgo", "xeattle", "bogata", "rio de janiero", "philadelfia", "munchen",
                       "munihc", "москба", "moskba", "beijng", "pekin", "sea", "seaclif", "sea clif", "newyork",
                       "new yrok", "ciago", "aaaa", "e", "ch", "北x京", "rio janeiro", "de janeiro", "o de j"]
        for query in queries {
            for budget in 0 ... 2 {
                let typos: TypoTolerance = budget == 0 ? .none : .maximum(budget)
                for (matching, reference) in [(MatchMode.words, Self.wordReference), (.prefix, Self.prefixReference)] {
                    for order in ResultOrder.allCases {
                        let actual = try Self.index.search(query, matching: matching, order: order, typos: typos)
                        let keys = matching == .words ? reference.queryKeyVariants(query) : [reference.queryKey(query)]
                        let costs = matching == .words ? reference.queryKeyVariantsWithCosts(query).map(\.cost) : [0]
                        let expected = reference.search(queryKeys: keys, costs: costs, budget: budget, byPopulation: order == .population,
                                                        skippingWords: typos != .none, typed: query)
                        #expect(actual.asTypoReference == expected, "\(query) \(matching) \(order) budget \(budget)")
                        #expect(actual.totalCount == expected.count, "count: \(query) \(matching) \(order) budget \(budget)")
                    }
                }
            }
        }
    }
}

@Suite("Typo-tolerant search agrees with the naive reference on Data/")
struct TypoToleranceDifferentialTests {
    /// How many typo'd names are drawn (30 in a full run, 12 in a quick one: `TestScale`), and a
    /// third as many wrong first letters; a deep run sets `CITYINDEX_TYPO_QUERIES` higher (each
    /// query costs the naive reference about a second) and `CITYINDEX_TYPO_SEED` (12 by default)
    /// to draw others.
    static let drawnQueryCount = ProcessInfo.processInfo.environment["CITYINDEX_TYPO_QUERIES"].flatMap { Int($0) }
        ?? TestScale.count(full: 30, quick: 12)
    static let drawSeed = ProcessInfo.processInfo.environment["CITYINDEX_TYPO_SEED"].flatMap { UInt64($0) } ?? 12

    /// Names of populous cities with one or two random edits (deletion, insertion,
    /// substitution, transposition, at any position including the first), cut to 4–12 letters.
    static func typoQueries(names: [[String]], populations: [Int], count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let candidates = zip(names, populations).filter { $0.1 >= 50_000 }.map { $0.0 }
        var queries: [String] = []
        while queries.count < count {
            let city = candidates.randomElement(using: &random)!
            let name = city.randomElement(using: &random)!
            var scalars = Array(name.lowercased())
            guard scalars.count >= 4 else { continue }
            scalars = Array(scalars.prefix(Int.random(in: 4 ... 12, using: &random)))
            for _ in 0 ..< Int.random(in: 1 ... 2, using: &random) {
                let position = Int.random(in: 0 ..< scalars.count, using: &random)
                switch Int.random(in: 0 ..< 4, using: &random) {
                case 0 where scalars.count > 1: scalars.remove(at: position)
                case 1: scalars.insert(letters.randomElement(using: &random)!, at: position)
                case 2: scalars[position] = letters.randomElement(using: &random)!
                default:
                    if position + 1 < scalars.count { scalars.swapAt(position, position + 1) }
                }
            }
            queries.append(String(scalars))
        }
        return queries
    }

    /// Words of any city's names (small places' words are the ones that end in word-trie
    /// buckets) with their first letter replaced, 5–10 letters, sometimes followed by the
    /// name's next word: the walk then spends its edits at the root and must search the rest of
    /// the query exactly below, through buckets (`TypoTolerantTrieWalk.exactContinuations`).
    static func wrongFirstLetterQueries(names: [[String]], count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var queries: [String] = []
        while queries.count < count {
            let name = names.randomElement(using: &random)!.randomElement(using: &random)!
            let words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
            guard !words.isEmpty else { continue }   // a name of separators only
            let index = Int.random(in: 0 ..< words.count, using: &random)
            var scalars = Array(words[index])
            guard scalars.count >= 5, scalars.allSatisfy({ $0.isASCII && $0.isLetter }) else { continue }
            if index + 1 < words.count && Bool.random(using: &random) { scalars += [" "] + Array(words[index + 1]) }
            scalars = Array(scalars.prefix(Int.random(in: 5 ... 10, using: &random)))
            scalars[0] = letters.filter { $0 != scalars[0] }.randomElement(using: &random)!
            queries.append(String(scalars))
        }
        return queries
    }

    @Test("typical typos, abbreviations, typo'd names of populous cities and wrong first letters: counts, top 20 by population and first 20 alphabetical, both modes")
    func defaultDataset() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let cities = dataset.cities
        let words = NaiveTypoSearch(cities: cities, words: true)
        let prefix = NaiveTypoSearch(cities: cities, words: false)
        // All of these in release builds; a tenth in a debug build, where the naive reference
        // takes tens of seconds a query (TestScale).
        let typical = ["pari", "seatle", "philadelfia", "londn", "moskba", "sanfrancisco", "rio de janiero", "москба",
                       "st louis", "ste foy", "mt vernon", "sta cruz", "muenchen", "duesseldorf",
                       "mar plata", "san tucuman", "sao campos", "ho city", "rio jan", "cagayan oro", "santiago cuba ",
                       // A wrong first letter, then a bucket searched for "adasan" from above it, where
                       // "eqron ha hadasha" has an earlier word with the letter h ("ha").
                       "padasan", "xadasan",
                       // A trailing space: prefix matching highlights it at a budget of 0 (the exact
                       // search, SEARCH.md §4) and not within a typo's budget (WORDS.md §6).
                       "ba ", "pari "]
        let queries = TestScale.cases(typical, quick: typical.count)
            + Self.typoQueries(names: dataset.allNames, populations: cities.map { $0.population ?? 0 }, count: Self.drawnQueryCount,
                               seed: Self.drawSeed)
            + Self.wrongFirstLetterQueries(names: dataset.allNames, count: max(1, Self.drawnQueryCount / 3), seed: Self.drawSeed + 1)
        // Both cores: the reference reads every name of Data/ for each query.
        let found = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: queries.count) { number in
            let query = queries[number]
            for (matching, reference) in [(MatchMode.words, words), (.prefix, prefix)] {
                let budget = NaiveTypoSearch.automaticBudget(queryKey: reference.queryKey(query))
                let order: ResultOrder = number % 3 == 2 ? .alphabetical : .population
                let keys = matching == .words ? reference.queryKeyVariants(query) : [reference.queryKey(query)]
                let costs = matching == .words ? reference.queryKeyVariantsWithCosts(query).map(\.cost) : [0]
                let expected = reference.search(queryKeys: keys, costs: costs, budget: budget, byPopulation: order == .population,
                                                skippingWords: true, typed: query)
                let actual: CityMatches
                do {
                    // The reference models WORDS.md §2–§9: "santiago cuba" is also a qualified query (§10).
                    actual = try dataset.index.searchIgnoringPlaces(query, matching: matching, order: order, limit: 20, typos: .automatic)
                } catch {
                    Issue.record(error, "\(String(reflecting: query)) \(matching)")
                    continue
                }
                #expect(actual.totalCount == expected.count, "count: \(String(reflecting: query)) \(matching)")
                #expect(actual.asTypoReference == Array(expected.prefix(20)), "\(String(reflecting: query)) \(matching) \(order)")
                if !expected.isEmpty { found.withLock { $0 += 1 } }
            }
        }
        #expect(found.withLock { $0 } > queries.count)
    }
}

/// Compares word matching on `index` with `reference` for each query, in both orders, without
/// typos and with one: the query's keys and their costs come from the reference (WORDS.md §7, §8).
func expectVariantSearchesAgree(_ queries: [String], index: CityIndex, reference: NaiveTypoSearch) throws {
    for query in queries {
        let variants = reference.queryKeyVariantsWithCosts(query)
        for (budget, typos) in [(0, TypoTolerance.none), (1, .maximum(1))] {
            for order in ResultOrder.allCases {
                let actual = try index.search(query, matching: .words, order: order, typos: typos)
                let expected = reference.search(queryKeys: variants.map(\.key), costs: variants.map(\.cost), budget: budget,
                                                byPopulation: order == .population, skippingWords: typos != .none, typed: query)
                #expect(actual.asTypoReference == expected, "\(query) \(order) budget \(budget)")
                #expect(actual.totalCount == expected.count, "count: \(query) \(order) budget \(budget)")
            }
        }
    }
}

@Suite("Abbreviations (WORDS.md §7)")
struct AbbreviationTests {
    static let citiesJSON = """
        [
        {"country":"US","name":"St. Louis","_id":1,"coord":{"lon":-90.2,"lat":38.6},"population":300576},
        {"country":"SN","name":"Saint-Louis","_id":2,"coord":{"lon":-16.5,"lat":16},"population":176000},
        {"country":"CA","name":"Sainte-Foy","_id":3,"coord":{"lon":-71.3,"lat":46.8},"population":109000},
        {"country":"BO","name":"Santa Cruz de la Sierra","_id":4,"coord":{"lon":-63.2,"lat":-17.8},"population":1364389},
        {"country":"US","name":"Fort Worth","_id":5,"coord":{"lon":-97.3,"lat":32.7},"population":918915},
        {"country":"US","name":"Mount Vernon","_id":6,"coord":{"lon":-73.8,"lat":40.9},"population":68000},
        {"country":"US","name":"Mont Vernon","_id":7,"coord":{"lon":-71.7,"lat":42.9},"population":2500},
        {"country":"SE","name":"Stockholm","_id":8,"coord":{"lon":18.1,"lat":59.3},"population":1515017},
        {"country":"CH","name":"Sankt Gallen","_id":9,"coord":{"lon":9.4,"lat":47.4},"population":75833,"alternatenames":["St. Gallen"]},
        {"country":"ES","name":"Puerto Real","_id":10,"coord":{"lon":-6.2,"lat":36.5},"population":41000}
        ]
        """
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(citiesJSON.utf8)).bytes)
    static let reference = NaiveTypoSearch(cities: try! JSONDecoder().decode([ReferenceCity].self, from: Data(citiesJSON.utf8)),
                                           words: true)

    private func ids(_ query: String, typos: TypoTolerance = .none) throws -> [Int] {
        try Self.index.search(query, matching: .words, order: .population, typos: typos).map(\.id)
    }

    @Test("an abbreviation followed by another word also searches its expansions; the last word is never expanded")
    func expansions() throws {
        #expect(try ids("st louis") == [1, 2])
        #expect(try ids("st. louis") == [1, 2])
        #expect(try ids("ste foy") == [3])
        #expect(try ids("sta cruz") == [4])
        #expect(try ids("ft worth") == [5])
        #expect(try ids("mt vernon") == [6, 7])
        #expect(try ids("pto real") == [10])
        #expect(try ids("st gallen") == [9])   // its own alternate, and "sankt gallen"
        #expect(try ids("st") == [8, 1, 9])    // a prefix: Stockholm, St. Louis, St. Gallen; no expansion
        #expect(try Self.index.search("st louis", matching: .words).totalCount == 2)
        #expect(try Self.index.search("st louis", matching: .prefix).map(\.id) == [])  // prefix matching: no words, no expansions
        let sainteFoy = try #require(Self.index.search("ste foy", matching: .words).first)
        #expect(sainteFoy.highlightUTF16Range == 0 ..< 10)
        #expect(try ids("ste fyo", typos: .automatic) == [3])   // with a typo too
    }

    @Test("abbreviated queries agree with the naive reference, both orders, with and without typos")
    func differential() throws {
        let queries = ["st louis", "st. louis", "st lo", "st l", "st ", "ste foy", "sta cruz de", "ft worth", "mt vernon",
                       "mt  v", "st gallen", "saint louis", "pto real", "st st louis", "mt ft", "st"]
        try expectVariantSearchesAgree(queries, index: Self.index, reference: Self.reference)
    }
}

@Suite("Transliterated vowels (WORDS.md §8)")
struct TransliteratedVowelTests {
    static let citiesJSON = """
        [
        {"country":"DE","name":"München","_id":1,"coord":{"lon":11.6,"lat":48.1},"population":1260391},
        {"country":"DE","name":"Köln","_id":2,"coord":{"lon":6.9,"lat":50.9},"population":963395},
        {"country":"SE","name":"Göteborg","_id":3,"coord":{"lon":12,"lat":57.7},"population":572799},
        {"country":"DK","name":"Århus","_id":4,"coord":{"lon":10.2,"lat":56.2},"population":285273},
        {"country":"DK","name":"Tønder","_id":5,"coord":{"lon":8.9,"lat":54.9},"population":7500},
        {"country":"AR","name":"Buenos Aires","_id":6,"coord":{"lon":-58.4,"lat":-34.6},"population":13076300},
        {"country":"US","name":"Queens","_id":7,"coord":{"lon":-73.8,"lat":40.7},"population":2272771},
        {"country":"DE","name":"Bad Dürkheim","_id":8,"coord":{"lon":8.2,"lat":49.5},"population":18469}
        ]
        """
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(citiesJSON.utf8)).bytes)
    static let reference = NaiveTypoSearch(cities: try! JSONDecoder().decode([ReferenceCity].self, from: Data(citiesJSON.utf8)),
                                           words: true)

    @Test("ae, oe, ue and aa also read as ä/a, ö/o/ø, ü/u and å/a; the digraph as typed still matches")
    func vowels() throws {
        func ids(_ query: String) throws -> [Int] { try Self.index.search(query, matching: .words, order: .population).map(\.id) }
        #expect(try ids("muenchen") == [1])
        #expect(try ids("koeln") == [2])
        #expect(try ids("goeteborg") == [3])
        #expect(try ids("aarhus") == [4])
        #expect(try ids("toender") == [5])
        #expect(try ids("bad duerk") == [8])
        #expect(try ids("buenos") == [6])
        #expect(try ids("quee") == [7])
        let munich = try #require(Self.index.search("muenchen", matching: .words).first)
        #expect(munich.highlightUTF16Range == 0 ..< 7 && munich.editCount == 1)   // a collapsed digraph counts as an edit
        // ... so the letters as typed come first when both match: "Buenos" is exact, not "Bunos".
        #expect(try Self.index.search("buenos", matching: .words).first?.editCount == 0)
        #expect(try Self.index.search("muenchen", matching: .prefix).isEmpty)   // prefix matching: SEARCH.md only
    }

    @Test("transliterated queries agree with the naive reference, both orders, with and without typos")
    func differential() throws {
        let queries = ["muenchen", "koeln", "goeteborg", "aarhus", "toender", "bad duerkheim", "buenos aires", "queens", "ae",
                       "st. goeteborg", "mue", "aa", "kooeln"]
        try expectVariantSearchesAgree(queries, index: Self.index, reference: Self.reference)
    }
}
