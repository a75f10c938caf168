// QueryLengthTests.swift: a query longer than CityIndex.maximumQueryByteCount is refused in
// every search, before any work (a 1 MB query with three typos took 21 s of CPU).
import CityIndex
import CityIndexTestSupport
import Testing

@Suite("Query length")
struct QueryLengthTests {
    @Test("1,024 bytes are searched; 1,025 throw queryTooLong in every entry point")
    func limit() throws {
        let index = Fixtures.smallIndex
        let longest = String(repeating: "a", count: CityIndex.maximumQueryByteCount)
        let tooLong = longest + "é"   // 1,026 bytes
        #expect(try index.search(longest).isEmpty)
        #expect(try index.search(longest, matching: .words, order: .population, limit: 5, typos: .maximum(3)).isEmpty)
        let refused = IndexFileError.queryTooLong(byteCount: 1_026, limit: 1_024)
        #expect(throws: refused) { try index.search(tooLong) }
        for matching in MatchMode.allCases {
            #expect(throws: refused) { try index.search(tooLong, matching: matching, typos: .maximum(3)) }
            #expect(throws: refused) { try index.search(tooLong, matching: matching, countries: ["FR"]) }
            #expect(throws: refused) { try index.search(tooLong, matching: matching, near: Coordinate(latitude: 48, longitude: 2)) }
        }
        #expect(refused.description.contains("1026 bytes") || refused.description.contains("1,026 bytes"))
    }
}
