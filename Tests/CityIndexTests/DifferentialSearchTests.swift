// DifferentialSearchTests.swift: the index against the naive filter, on real data.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Search agrees with the naive filter of SEARCH.md")
struct DifferentialSearchTests {
    /// 2,000 in a full run, 500 in a quick one (`TestScale`); `CITYINDEX_TEST_QUERIES` sets it
    /// outright (sanitizer runs lower it).
    static let queryCount = ProcessInfo.processInfo.environment["CITYINDEX_TEST_QUERIES"].flatMap { Int($0) }
        ?? TestScale.count(full: 2_000, quick: 500)

    /// Runs `queryCount` seeded queries and compares count, order, ids and highlights.
    private func compare(_ dataset: LoadedDataset, queryCount: Int, seed: UInt64) throws {
        var generator = QueryGenerator(names: dataset.names, seed: seed)
        var nonEmptyResults = 0
        for _ in 0..<queryCount {
            let query = generator.next()
            let expected = dataset.reference.search(query)
            let actual = try dataset.index.search(query)
            #expect(actual.count == expected.count, "count for \(String(reflecting: query))")
            guard actual.count == expected.count else { continue }
            let actualMatches = actual.asReference
            if actualMatches != expected {
                let firstDifference = zip(actualMatches, expected).first { $0 != $1 }
                Issue.record("query \(String(reflecting: query)): first difference \(String(describing: firstDifference))")
            }
            if !expected.isEmpty { nonEmptyResults += 1 }
        }
        // The generator must exercise real matches, not just misses.
        #expect(nonEmptyResults > queryCount / 2)
    }

    @Test("random queries on Data/cities500.json.xz (2,000; 500 quick)")
    func defaultDataset() throws {
        let dataset = try Fixtures.defaultDataset.get()
        #expect(dataset.index.cityCount == dataset.reference.cityCount)
        try compare(dataset, queryCount: Self.queryCount, seed: 500)
    }

    @Test("random queries on the real 209,557-city list (CITYINDEX_SHARED; 2,000; 500 quick)",
          .enabled(if: Fixtures.sharedDataset != nil, "set CITYINDEX_SHARED to the shared folder (data/cities.json.xz)"))
    func sharedDataset() throws {
        let loaded = try #require(Fixtures.sharedDataset)
        let dataset = try loaded.get()
        #expect(dataset.index.cityCount == 209_557)
        try compare(dataset, queryCount: Self.queryCount, seed: 209_557)
    }

    @Test("hand-picked queries on a small list", arguments: [
        "", "m", "MÜN", "munchen", "Mu\u{0308}nchen", "stras", "strasse", "straße", "lodz", "ŁÓD", "zu", "zür",
        "new", "new ", "new y", "  new", "newa", "서", "서울", "ㅅ", "αθ", "ΑΘΉΝΑ", "'t", "paris", "x",
    ])
    func smallList(query: String) throws {
        #expect(try Fixtures.smallIndex.search(query).asReference == Fixtures.smallReference.search(query))
    }
}
