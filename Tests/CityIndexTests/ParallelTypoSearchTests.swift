// ParallelTypoSearchTests.swift: a typo-tolerant search walked on several threads answers
// exactly what one thread does (`CityIndex.typoSearchThreads`, WORDS.md §6).
@_spi(Testing) import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Typo-tolerant search on several threads")
struct ParallelTypoSearchTests {
    /// Everything a search answers that a user can see, per match.
    struct Answer: Equatable, CustomStringConvertible {
        var totalCount: Int
        var matches: [[String]]

        init(_ found: CityMatches) {
            totalCount = found.totalCount
            matches = found.map { match in
                [String(match.id), String(match.editCount), match.matchedAlternateName ?? "-",
                 "\(match.highlightUTF16Range)", String(match.skipsWords)]
            }
        }

        var description: String { "\(totalCount): \(matches.prefix(5))" }
    }

    /// `index` with `threads` threads per typo-tolerant search.
    static func index(_ index: CityIndex, threads: Int) -> CityIndex {
        var index = index
        index.typoSearchThreads = threads
        return index
    }

    @Test("on Data/, 1, 2, 3 and 8 threads give the same counts, matches, edits, names and highlights: typo'd names, wrong first letters, both modes and orders, one to three edits")
    func sameAnswersOnData() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let queries = ["pari", "seatle", "philadelfia", "rio de janiero", "st louis", "москба", "ab", "xq"]
            + TypoToleranceDifferentialTests.typoQueries(names: dataset.allNames, populations: dataset.cities.map { $0.population ?? 0 },
                                                         count: 60, seed: 77)
            + TypoToleranceDifferentialTests.wrongFirstLetterQueries(names: dataset.allNames, count: 20, seed: 78)
        let single = Self.index(dataset.index, threads: 1)
        let (two, three, eight) = (Self.index(dataset.index, threads: 2), Self.index(dataset.index, threads: 3),
                                   Self.index(dataset.index, threads: 8))
        // The comparisons that matter: answers that hold forgiven matches, which the threads walked.
        var answersWithTypos = 0
        for (number, query) in queries.enumerated() {
            let typos: TypoTolerance = number % 4 == 3 ? .maximum(number % 8 == 3 ? 3 : 2) : .automatic
            for matching in MatchMode.allCases {
                for order in ResultOrder.allCases {
                    let expected = Answer(try single.search(query, matching: matching, order: order, limit: 20, typos: typos))
                    // Eight: most helpers come after the caller has claimed everything and are cancelled.
                    for (threads, index) in [(2, two), (3, three), (8, eight)] {
                        let actual = Answer(try index.search(query, matching: matching, order: order, limit: 20, typos: typos))
                        #expect(actual == expected, "\(String(reflecting: query)) \(matching) \(order) \(typos), \(threads) threads")
                    }
                    if expected.matches.contains(where: { $0[1] != "0" }) { answersWithTypos += 1 }
                }
            }
        }
        #expect(answersWithTypos >= queries.count * 2, "\(answersWithTypos) of \(queries.count * 4) answers hold a forgiven match")
    }

    @Test("a damaged word trie answers or throws the same with several threads as with one: the error one walk meets first")
    func damagedTriesAgree() throws {
        let json = try Data(contentsOf: Fixtures.directory.appendingPathComponent("small.json"))
        let bytes = try IndexBuilder().build(jsonBytes: Array(json)).bytes
        var random = SeededGenerator(seed: 5)
        var errors = 0
        for kind in ["WNOD", "NODE"] {
            let section = Fixtures.section(kind, in: bytes)
            for _ in 0 ..< 150 {
                var damaged = bytes
                for _ in 0 ..< 3 { damaged[Int.random(in: section, using: &random)] = UInt8.random(in: 0 ... 255, using: &random) }
                guard let opened = try? CityIndex(bytes: damaged) else { continue }
                for query in ["berlni", "sant paulo", "munchn", "xyz"] {
                    for matching in MatchMode.allCases {
                        let expected = Result { () throws(IndexFileError) in
                            Answer(try Self.index(opened, threads: 1).search(query, matching: matching, order: .population,
                                                                            limit: 20, typos: .maximum(2)))
                        }
                        let actual = Result { () throws(IndexFileError) in
                            Answer(try Self.index(opened, threads: 2).search(query, matching: matching, order: .population,
                                                                            limit: 20, typos: .maximum(2)))
                        }
                        #expect(actual == expected, "\(kind) \(query) \(matching)")
                        if case .failure = expected { errors += 1 }
                    }
                }
            }
        }
        #expect(errors > 0, "no damaged trie made a walk throw: the test compares no error")
    }
}
