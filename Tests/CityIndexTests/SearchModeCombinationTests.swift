// SearchModeCombinationTests.swift: rules every matching mode and order share.
import CityIndex
import CityIndexTestSupport
import Testing

@Suite("Every matching mode in every order")
struct SearchModeCombinationTests {
    static let queries = ["", " ", "a", "san", "san ", "new y", "münch", "ŁÓDŹ", "zzzz", "saint-e", "東京"]

    @Test("a limit keeps the total count and returns a prefix of the unlimited answer",
          arguments: MatchMode.allCases, ResultOrder.allCases)
    func limitIsAPrefix(matching: MatchMode, order: ResultOrder) throws {
        let index = try Fixtures.defaultDataset.get().index
        for query in Self.queries {
            let all = try index.search(query, matching: matching, order: order)
            #expect(all.count == all.totalCount, "\(query)")
            for limit in [0, 1, 7, 20] {
                let limited = try index.search(query, matching: matching, order: order, limit: limit)
                #expect(limited.totalCount == all.totalCount, "\(query) limit \(limit)")
                #expect(limited.map(\.id) == Array(all.prefix(limit).map(\.id)), "\(query) limit \(limit)")
            }
        }
    }

    @Test("each city appears at most once; alphabetical order is search order",
          arguments: MatchMode.allCases, ResultOrder.allCases)
    func citiesOnceInOrder(matching: MatchMode, order: ResultOrder) throws {
        let index = try Fixtures.defaultDataset.get().index
        for query in Self.queries {
            let matches = try index.search(query, matching: matching, order: order, limit: 500)
            let ranks = matches.map(\.city.rank)
            #expect(Set(ranks).count == ranks.count, "\(query)")
            if order == .alphabetical { #expect(ranks == ranks.sorted(), "\(query)") }
            if order == .population {
                // WORDS.md §5: a tenth for an alternate name, a hundredth for a demoted match;
                // §13: a thousandth again for a borrowed name or a district, 0 for junk.
                let populations = matches.map { match in
                    let weight = (match.population ?? 0) / (match.matchedAlternateName == nil ? 1 : match.isDemoted ? 100 : 10)
                    switch match.overshadowing {
                    case nil: return weight
                    case .junk: return 0
                    case .borrowedName, .district: return weight / 1_000
                    case .forgivenBesideExactName: return weight / 10
                    }
                }
                #expect(populations == populations.sorted(by: >), "\(query)")
            }
        }
    }
}
