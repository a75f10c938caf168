// CountryFilterTests.swift: a search restricted to countries is the unrestricted search,
// filtered, on real data.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Country filter")
struct CountryFilterTests {
    @Test("on Data/: every mode, order and typo setting gives the unrestricted matches of those countries, in order")
    func matchesUnrestrictedSearchFiltered() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let index = dataset.index
        let countryOfID = Dictionary(uniqueKeysWithValues: dataset.cities.map { ($0.id, $0.country) })
        var generator = QueryGenerator(names: dataset.names, seed: 7)
        let largeCountries: Set<String> = ["US", "IN", "MX", "BR", "DE", "FR", "IT", "ES", "PH", "CN"]
        for round in 0 ..< 200 {
            let query = generator.next()
            let matching: MatchMode = round % 2 == 0 ? .prefix : .words
            let order: ResultOrder = round % 3 == 0 ? .alphabetical : .population
            let typos: TypoTolerance = round % 5 < 2 ? .automatic : .none
            let all = try index.search(query, matching: matching, order: order, limit: .max, typos: typos)
            // The countries of the first match (if any) and of a country absent from most
            // queries; every seventh round, most of the index.
            let countries: Set<String> = round % 7 == 0 ? largeCountries
                : Set([all.first.map { countryOfID[$0.id] ?? "FR" } ?? "FR", "NZ"])
            let expected = all.filter { countries.contains(countryOfID[$0.id] ?? "") }
            for limit in [5, Int.max] {
                let filtered = try index.search(query, matching: matching, order: order, limit: limit, typos: typos,
                                                countries: Set(countries.map { $0.lowercased() }))
                let comment: Comment = "\(query) \(matching) \(order) \(typos) \(countries) limit \(limit)"
                #expect(filtered.totalCount == expected.count, comment)
                if matching == .words && order == .population {
                    // WORDS.md §13: the marks come from the matches kept (a match of another
                    // country overshadows nothing), so the order may differ; the matches do not.
                    let byID = Dictionary(uniqueKeysWithValues: expected.map { ($0.id, $0) })
                    #expect(limit != .max || Set(filtered.map(\.id)) == Set(byID.keys), comment)
                    for match in filtered {
                        #expect(byID[match.id]?.matchedName == match.matchedName, comment)
                        #expect(byID[match.id]?.editCount == match.editCount, comment)
                    }
                    continue
                }
                #expect(filtered.map(\.id) == Array(expected.prefix(limit).map(\.id)), comment)
                #expect(filtered.map(\.matchedName) == Array(expected.prefix(limit).map(\.matchedName)), comment)
                #expect(filtered.map(\.editCount) == Array(expected.prefix(limit).map(\.editCount)), comment)
                #expect(filtered.map(\.highlightUTF16Range) == Array(expected.prefix(limit).map(\.highlightUTF16Range)), comment)
            }
        }
    }

    @Test("prefix matches of a country agree with the naive reference; no country or an invalid code matches nothing")
    func againstNaiveReference() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let countryOfID = Dictionary(uniqueKeysWithValues: dataset.cities.map { ($0.id, $0.country) })
        for (query, country) in [("san", "MX"), ("par", "FR"), ("mün", "DE"), ("", "LI")] {
            let reference = dataset.reference.search(query).filter { countryOfID[$0.id] == country }
            let filtered = try dataset.index.search(query, countries: [country])
            #expect(filtered.map(\.id) == reference.map(\.id), "\(query) \(country)")
            #expect(filtered.count > 0)
        }
        #expect(try dataset.index.search("par", countries: []).totalCount == 0)
        #expect(try dataset.index.search("par", countries: ["France", "F1"]).totalCount == 0)
    }
}
