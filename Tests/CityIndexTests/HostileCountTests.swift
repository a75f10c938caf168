// HostileCountTests.swift: counts in a file that nothing real bounds are refused at open or
// clamped where read, so no allocation or loop is sized by them (FORMAT.md §1, "Counts").
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Hostile counts")
struct HostileCountTests {
    /// `value` as a FORMAT.md varint (LEB128: 7 bits a byte, low first).
    static func varint(_ value: UInt64) -> [UInt8] {
        var (value, bytes) = (value, [UInt8]())
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return bytes
    }

    /// A `WNOD` whose root is one leaf over `entryCount` postings (FORMAT.md §6: header with
    /// the root at 8, bucket capacity 8, small-leaf count width 3, flags 3; the root's
    /// firstEntryDelta 0, entryCount, shape 0).
    static func oneLeafWordTrie(entryCount: UInt64) -> [UInt8] {
        [8, 0, 0, 0, 8, 3, 3, 0] + varint(0) + varint(entryCount) + varint(0)
    }

    /// `WPST` as a packed array (FORMAT.md §1): widths, then `count`, then the bits.
    static func postings(rankWidth: UInt8, slotWidth: UInt8, count: UInt32, bits: [UInt8]) -> [UInt8] {
        [rankWidth, slotWidth, 0, 0] + (0 ..< 4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) } + bits
    }

    @Test("2^32 - 1 postings of width 0 under one word-trie leaf (8 bytes): refused at open, not searched")
    func zeroWidthPostings() throws {
        let crafted = Fixtures.replacingSections(["WNOD": Self.oneLeafWordTrie(entryCount: 0xFFFF_FFFF),
                                                  "WPST": Self.postings(rankWidth: 0, slotWidth: 0, count: 0xFFFF_FFFF, bits: [])],
                                                 in: Fixtures.smallIndexBytes)
        // Opened, `search("zand", matching: .words)` allocated 51 GB and died; with a limit of 20
        // it counted 4,294,967,295 matches for 13 cities, in 12.7 s.
        #expect(throws: IndexFileError.sectionSizeMismatch(section: .wordPostings, byteCount: 8, expectedByteCount: 536_870_920)) {
            _ = try CityIndex(bytes: crafted)
        }
    }

    @Test("postings narrower than the city count sets (2^32 - 1 of one bit for 13 cities: 512 MiB): refused at open, in O(1)")
    func narrowPostings() throws {
        // Issue 55 crafted 553 MB of one-bit postings: one search took 90 s. The rank field of
        // 13 cities is 4 bits (FORMAT.md §7.7); a smaller list of one-bit postings shows it.
        let count = 1_000_000
        let crafted = Fixtures.replacingSections(
            ["WNOD": Self.oneLeafWordTrie(entryCount: UInt64(count)),
             "WPST": Self.postings(rankWidth: 1, slotWidth: 0, count: UInt32(count), bits: [UInt8](repeating: 0, count: (count + 63) / 64 * 8))],
            in: Fixtures.smallIndexBytes)
        #expect(throws: IndexFileError.invariantViolated(.postingWidthWrong(rankWidth: 1, slotWidth: 0, expectedRankWidth: 4))) {
            _ = try CityIndex(bytes: crafted)
        }
        let wideSlots = Fixtures.replacingSections(
            ["WPST": Self.postings(rankWidth: 4, slotWidth: 18, count: 1, bits: [UInt8](repeating: 0, count: 8))],
            in: Fixtures.smallIndexBytes)
        #expect(throws: IndexFileError.invariantViolated(.postingWidthWrong(rankWidth: 4, slotWidth: 18, expectedRankWidth: 4))) {
            _ = try CityIndex(bytes: wideSlots)
        }
    }

    @Test("a word-trie leaf of 100,000 postings of one city: searches count at most the index's cities and allocate by real sizes")
    func repeatedPostings() throws {
        // 100,000 postings of rank 0, slot 0 (the 4-bit rank field of 13 cities, a 3-bit slot).
        let count = 100_000
        let crafted = Fixtures.replacingSections(
            ["WNOD": Self.oneLeafWordTrie(entryCount: UInt64(count)),
             "WPST": Self.postings(rankWidth: 4, slotWidth: 3, count: UInt32(count), bits: [UInt8](repeating: 0, count: (7 * count + 63) / 64 * 8))],
            in: Fixtures.smallIndexBytes)
        let index = try CityIndex(bytes: crafted)
        for order in ResultOrder.allCases {
            for typos in [TypoTolerance.none, .automatic] {
                let found = try index.search("zand", matching: .words, order: order, limit: 20, typos: typos)
                #expect(found.totalCount <= index.cityCount, "\(order) \(typos): \(found.totalCount)")
                // (The exact walk finds 't Zand through the word "zand"; a typo walk reads the leaf's
                // key from the name's start, "t zand", two edits away.)
                #expect(found.count <= 1, "\(order) \(typos)")
                if typos == .none { #expect(found.first?.name == "'t Zand", "\(order)") }
            }
        }
        #expect(throws: IndexFileError.self) { try index.verify() }
    }
}
