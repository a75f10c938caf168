// AllocationTests.swift: README.md's "nothing allocated by the default search", counted.
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Heap allocations of the default search")
struct AllocationTests {
    @Test("index.search(query) on Data/ and reading its count and first 20 ids and coordinates calls malloc not once")
    func defaultSearchAllocatesNothing() throws {
        let directory = try temporaryDirectory("allocations")
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = try writeDataIndex(in: directory)
        // Short and long prefixes, one letter, several words, no match, non-Latin, a typo.
        let queries = ["s", "san", "san jo", "new york", "frankfurt am", "xq", "москва", "東京", "pheonix", "st. louis", ""]
        let outcome = try Tool(name: "AllocationProbe").run([index] + queries)
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        let output = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #if os(Linux)
        #expect(output.hasPrefix("allocations: 0 in \(10 * queries.count) searches"), "\(output)")
        #else
        #expect(output == "unsupported" || output.hasPrefix("allocations: 0 in"), "\(output)")
        #endif
    }
}
