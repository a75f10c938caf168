// SearchExplanationTests.swift: explain(_:options:) on Data/: the trace's shape, the plan's order, the same answers as search.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("A search's trace: explain(_:options:)")
struct SearchExplanationTests {
    /// Every stage a plan can hold, in the only order a plan runs them (SearchPlan).
    static let stageOrder = ["prefix walk", "word walk", "forgiving walk", "restricted walk", "skipped words", "initialisms", "whole names",
                             "overshadowed matches", "qualifier", "location bias", "page"]

    static let paris = try! Coordinate(latitude: 48.86, longitude: 2.35)

    /// Option sets that reach every stage between them.
    static let optionSets: [SearchOptions] = [
        SearchOptions(), SearchOptions(limit: 20), SearchOptions(order: .population, limit: 20),
        SearchOptions(matching: .words, limit: 20), .recommended, SearchOptions(matching: .words, order: .population, limit: 7),
        SearchOptions(matching: .words, order: .population, limit: 20, typos: .automatic, near: paris),
        SearchOptions(matching: .words, order: .population, limit: 20, typos: .automatic, near: paris, within: 300_000),
        SearchOptions(matching: .words, order: .alphabetical, limit: 20, typos: .maximum(2), countries: ["FR", "US"]),
        SearchOptions(matching: .prefix, order: .population, limit: 20, typos: .automatic, countries: ["DE"]),
    ]

    static let queries = ["", "p", "paris", "paris tx", "pairs", "sf", "la", "st louis", "rio janeiro", "muenchen", "new yrok",
                          "las palmas de granc anaria", "london, uk", "zzzzzz", "saint petersburg russia"]

    @Test("the stages run in the plan's order; each takes what the one before it handed on; the result is search(_:options:)'s")
    func shape() throws {
        let index = try Fixtures.defaultDataset.get().index
        var seen = Set<String>()
        for options in Self.optionSets {
            for query in Self.queries {
                let explanation = try index.explain(query, options: options)
                let plain = try index.search(query, options: options)
                let label = "\(query) \(options)"
                #expect(explanation.matches.map(\.id) == plain.map(\.id), "\(label)")
                #expect(explanation.matches.map(\.editCount) == plain.map(\.editCount), "\(label)")
                #expect(explanation.matches.map(\.highlightUTF16Range) == plain.map(\.highlightUTF16Range), "\(label)")
                #expect(explanation.matches.totalCount == plain.totalCount, "\(label)")

                let names = explanation.stages.map(\.name)
                seen.formUnion(names)
                #expect(names.last == "page", "\(label): \(names)")
                // Stage 4 runs stages 1 to 3 again for larger windows: each run of them starts
                // with a walk, and within a run the order is the plan's.
                var position = -1
                for (index, stage) in explanation.stages.enumerated() {
                    let rank = try #require(Self.stageOrder.firstIndex(of: stage.name), "\(stage.name)")
                    if stage.name.hasSuffix("walk") && index > 0 {
                        #expect(explanation.stages[index - 1].window != nil, "\(label): a walk after \(names[index - 1])")
                    } else {
                        #expect(rank > position, "\(label): \(names)")
                    }
                    position = rank
                    if index > 0 && !stage.name.hasSuffix("walk") && stage.name != "overshadowed matches" {
                        #expect(stage.candidatesIn == explanation.stages[index - 1].candidatesOut, "\(label): \(names)")
                    }
                }
                #expect(explanation.stages.last?.candidatesOut == plain.count, "\(label)")
                #expect(explanation.stages.last?.totalCount == plain.totalCount, "\(label)")
                // A walk that is a walk of the trie counts itself and the nodes it visited.
                if let walk = explanation.stages.first, walk.name != "restricted walk" || !query.isEmpty {
                    #expect(walk.walks >= 1 && walk.nodesVisited >= (query.isEmpty ? 0 : 1), "\(label): \(walk)")
                }
                #expect(explanation.stages.allSatisfy { ($0.window != nil) == ["prefix walk", "word walk", "forgiving walk",
                        "restricted walk", "skipped words", "initialisms", "whole names"].contains($0.name) }, "\(label)")
            }
        }
        #expect(seen == Set(Self.stageOrder), "stages never traced: \(Set(Self.stageOrder).subtracting(seen))")
    }

    @Test("the rankings say why: population, alternate name, typos, the place named, the distance; weights in the order shown")
    func rankings() throws {
        let index = try Fixtures.defaultDataset.get().index
        let qualified = try index.explain("paris tx", options: .recommended)
        let first = try #require(qualified.rankings.first)
        #expect(first.match.id == 4717560)
        #expect(first.factors == ["population 24,782", "in the place the query names ×100"], "\(first.factors)")
        #expect(first.weight == 2_478_200)

        let typo = try index.explain("pheonix", options: .recommended)
        #expect(typo.rankings.first?.factors == ["population 1,650,070", "1 typo in the name ÷10"], "\(typo.rankings.map(\.factors))")

        let alternate = try index.explain("wien", options: .recommended)
        let vienna = try #require(alternate.rankings.first { $0.match.id == 2761369 })
        #expect(vienna.factors.contains("alternate name ÷10"), "\(vienna.factors)")

        let near = try index.explain("paris", options: SearchOptions(matching: .words, order: .population, limit: 10, near: Self.paris))
        #expect(near.rankings.first?.factors.last?.hasPrefix("1 km away ×") == true, "\(near.rankings.map(\.factors))")
        for explanation in [qualified, typo, alternate, near] {
            let weights = explanation.rankings.map(\.weight)
            #expect(zip(weights, weights.dropFirst()).allSatisfy { $0 >= $1 }, "\(explanation.query): \(weights)")
            #expect(explanation.rankings.map(\.position) == Array(0 ..< explanation.rankings.count))
        }
        // Alphabetical order has no weights to explain.
        #expect(try index.explain("paris", options: SearchOptions(matching: .words, limit: 5)).rankings.isEmpty)
    }

    @Test("the overloads forward to search(_:options:): the same answers")
    func overloadsForward() throws {
        let index = try Fixtures.defaultDataset.get().index
        for query in Self.queries {
            let a = try index.search(query, matching: .words, order: .population, limit: 10, typos: .automatic, countries: ["US"],
                                     near: Self.paris, within: 9_000_000)
            let b = try index.search(query, options: SearchOptions(matching: .words, order: .population, limit: 10, typos: .automatic,
                                                                   countries: ["us"], near: Self.paris, within: 9_000_000))
            #expect(a.map(\.id) == b.map(\.id) && a.totalCount == b.totalCount, "\(query)")
            let c = try index.search(query, matching: .prefix, order: .population, limit: 10, countries: ["FR"])
            let d = try index.search(query, options: SearchOptions(order: .population, limit: 10, countries: ["FR"]))
            #expect(c.map(\.id) == d.map(\.id) && c.totalCount == d.totalCount, "\(query)")
        }
        #expect(throws: IndexFileError.queryTooLong(byteCount: 1_025, limit: 1_024)) {
            try index.explain(String(repeating: "a", count: 1_025), options: .recommended)
        }
    }
}
