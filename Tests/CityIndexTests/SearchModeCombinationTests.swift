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

    @Test("each city appears at most once; alphabetical order is search order; population order is the references'",
          arguments: MatchMode.allCases, ResultOrder.allCases)
    func citiesOnceInOrder(matching: MatchMode, order: ResultOrder) throws {
        let index = try Fixtures.defaultDataset.get().index
        for query in Self.queries {
            let matches = try index.search(query, matching: matching, order: order, limit: 500)
            let ranks = matches.map(\.city.rank)
            #expect(Set(ranks).count == ranks.count, "\(query)")
            if order == .alphabetical { #expect(ranks == ranks.sorted(), "\(query)") }
            if order == .population {
                // The order of the naive references (WORDS.md §5, §12, §13 in word matching;
                // SEARCH.md's matches by population, ties in search order, in prefix matching).
                let dataset = try Fixtures.defaultDataset.get()
                let expected: [Int]
                if matching == .words {
                    expected = dataset.wordReference.search(query, byPopulation: true).prefix(500).map(\.id)
                } else {
                    let all = dataset.reference.search(query)
                    expected = all.indices.sorted { a, b in
                        let (pa, pb) = (dataset.populationByID[all[a].id] ?? 0, dataset.populationByID[all[b].id] ?? 0)
                        return pa != pb ? pa > pb : a < b
                    }.prefix(500).map { all[$0].id }
                }
                #expect(matches.map(\.id) == expected, "\(query)")
            }
        }
    }
}
