// SearchEntryLimitTests.swift: `CityIndex.searchEntryLimit` bounds the work of one search, and only the costly ones.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("A limit on the entries one search reads")
struct SearchEntryLimitTests {
    /// The limit city-server sets: far above what a search box's queries read.
    static let limit = 300_000

    /// A seeded mix of what people type into a search box, as Scripts/load-server.sh sends it:
    /// name prefixes, swapped letters, alternate names, "name cc", first words of big cities.
    static func typedQueries(count: Int, dataset: LoadedDataset) -> [String] {
        var random = SeededGenerator(seed: 45)
        let big = dataset.cities.filter { ($0.population ?? 0) > 0 }.sorted { ($0.population ?? 0) > ($1.population ?? 0) }.prefix(5_000)
        let names = Array(big)
        return (0 ..< count).map { _ in
            let city = names[Int.random(in: 0 ..< names.count, using: &random)]
            let name = city.name.lowercased()
            let kind = Double.random(in: 0 ..< 1, using: &random)
            if kind < 0.4 { return String(name.prefix(Int.random(in: 2 ... max(2, name.count), using: &random))) }
            if kind < 0.6, name.count >= 5 {
                var letters = Array(name)
                let i = Int.random(in: 1 ..< letters.count - 1, using: &random)
                letters.swapAt(i, i + 1)
                return String(letters)
            }
            if kind < 0.75, let alternate = (city.alternatenames ?? []).randomElement(using: &random) { return String(alternate.prefix(12)) }
            if kind < 0.9 { return name + " " + city.country.lowercased() }
            return String(name.split(separator: " ").first ?? "")
        }
    }

    @Test("on Data/: the search box's queries answer as without a limit, in every option city-server takes (seeded)")
    func ordinarySearchesAreUnchanged() throws {
        let dataset = try Fixtures.defaultDataset.get()
        var limited = dataset.index
        limited.searchEntryLimit = Self.limit
        let tokyo = try Coordinate(latitude: 35.69, longitude: 139.69)
        var checked = 0
        for (number, query) in Self.typedQueries(count: TestScale.count(full: 1_000, quick: 300), dataset: dataset).enumerated() {
            let near: Coordinate? = number % 3 == 0 ? tokyo : nil
            let within: Double? = number % 6 == 0 ? 50_000 : nil
            let countries: Set<String>? = number % 5 == 0 ? ["US"] : nil
            let order: ResultOrder = number % 7 == 0 ? .alphabetical : .population
            let free = try dataset.index.search(query, matching: .words, order: order, limit: 20, typos: .automatic,
                                                countries: countries, near: near, within: within)
            let bounded = try limited.search(query, matching: .words, order: order, limit: 20, typos: .automatic,
                                             countries: countries, near: near, within: within)
            #expect(bounded.map(\.id) == free.map(\.id) && bounded.totalCount == free.totalCount, "\(query)")
            checked += 1
        }
        #expect(checked >= 30)
    }

    @Test("the costly requests throw searchTooCostly: three letters with three typos over the whole earth, or in alphabetical order")
    func costlySearchesThrow() throws {
        var index = try Fixtures.defaultDataset.get().index
        index.searchEntryLimit = Self.limit
        let tokyo = try Coordinate(latitude: 35.7, longitude: 139.7)
        do {
            _ = try index.search("aaa", matching: .words, order: .population, limit: 1_100, typos: .maximum(3),
                                 near: tokyo, within: 20_037_509)
            Issue.record("\"aaa\" with 3 typos over the whole earth read under \(Self.limit) entries")
        } catch .searchTooCostly(let entryCount, let limit) {
            #expect(limit == Self.limit && entryCount > limit)
        } catch {
            Issue.record("\(error)")
        }
        do {
            _ = try index.search("aa", matching: .words, order: .alphabetical, limit: 1_100, typos: .maximum(3))
            Issue.record("an alphabetical search of \"aa\" with 3 typos read under \(Self.limit) entries")
        } catch .searchTooCostly(let entryCount, let limit) {
            #expect(limit == Self.limit && entryCount > limit)
        } catch {
            Issue.record("\(error)")
        }
        // Without a limit the same search answers (the default).
        index.searchEntryLimit = nil
        #expect(try index.search("aa", matching: .words, order: .alphabetical, limit: 5, typos: .maximum(3)).totalCount > 100_000)
    }
}
