// CorruptIndexTests.swift: a damaged or hostile index file throws or answers; it never traps.
@_spi(Testing) import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Opening a corrupt index")
struct CorruptIndexTests {
    static let queries = ["", "m", "mun", "paris", "new y", "서", "zzz", "'t"]

    /// Opens `bytes`; when that succeeds, searches and reads every field of every match.
    /// Returns whether the file opened. A trap here fails the whole test run.
    @discardableResult
    static func exercise(_ bytes: [UInt8]) -> Bool {
        guard let index = try? CityIndex(bytes: bytes) else { return false }
        exercise(index)
        return true
    }

    /// Searches `index` in every mode and order (exact and with typos) and reads every field
    /// of every match. A trap here fails the whole test run.
    static func exercise(_ index: CityIndex) {
        for query in queries {
            for matching in MatchMode.allCases {
            for order in ResultOrder.allCases {
                guard let matches = try? index.search(query, matching: matching, order: order, limit: 50) else { continue }
                _ = matches.totalCount
                for match in matches.prefix(50) {
                    _ = (match.id, match.name, match.countryCode, match.latitude, match.longitude, match.population)
                    _ = (match.highlightUTF16Range, match.highlightRange, match.matchedName, match.matchedAlternateName)
                }
            }
            }
        }
        for query in ["parsi", "munihc", "new yrok"] {
            for matching in MatchMode.allCases {
                guard let matches = try? index.search(query, matching: matching, order: .population, limit: 8, typos: .maximum(2))
                else { continue }
                for match in matches { _ = (match.editCount, match.highlightUTF16Range, match.matchedName) }
            }
        }
        _ = index.city(id: 707860)?.name
        for city in (0 ..< 8).compactMap({ index.city(id: $0) }) + [index.city(id: 707860)].compactMap({ $0 }) {
            _ = (city.region, city.country, city.label)
        }
        for (latitude, longitude) in [(48.8, 2.3), (-16.7, 180.0), (-90.0, 0.0), (89.9, -179.9)] {
            guard let point = try? Coordinate(latitude: latitude, longitude: longitude) else { continue }
            for nearby in (try? index.nearest(to: point, limit: 5)) ?? [] { _ = (nearby.city.name, nearby.distanceMeters, nearby.city.label) }
            _ = try? index.nearest(to: point, limit: 3, within: 1_000_000, minimumPopulation: 1, countries: ["US"])
        }
    }

    @Test("a file shorter than the header is rejected before any read")
    func rejectsTinyFile() {
        #expect(throws: IndexFileError.fileTooSmall(byteCount: 10, minimumByteCount: 32)) {
            try CityIndex(bytes: [UInt8](repeating: 0, count: 10))
        }
    }

    @Test("wrong magic, a newer version and a wrong recorded size are named")
    func headerErrors() {
        var bytes = Fixtures.smallIndexBytes
        bytes[0] = UInt8(ascii: "X")
        #expect(throws: IndexFileError.notAnIndexFile(foundMagic: 0x5844_4958)) { try CityIndex(bytes: bytes) }
        bytes = Fixtures.smallIndexBytes
        bytes[4] = 9
        #expect(throws: IndexFileError.unsupportedFormatVersion(found: 9, supported: 7...8)) { try CityIndex(bytes: bytes) }
        let error = IndexFileError.unsupportedFormatVersion(found: 9, supported: 7...8)
        #expect(error.description.contains("rebuild"))
        #expect(throws: IndexFileError.fileSizeMismatch(recordedByteCount: UInt64(Fixtures.smallIndexBytes.count),
                                                        actualByteCount: Fixtures.smallIndexBytes.count + 1)) {
            try CityIndex(bytes: Fixtures.smallIndexBytes + [0])
        }
    }

    @Test("format version 1 to 6 files (written by earlier build-index versions) are rejected with a clear message, not misread",
          arguments: [1, 2, 3, 4, 5, 6])
    func rejectsOlderVersions(version: UInt32) throws {
        let path = Fixtures.directory.appendingPathComponent("small-v\(version).cidx").path
        #expect(throws: IndexFileError.unsupportedFormatVersion(found: version, supported: 7...8)) { try CityIndex(path: path) }
        let error = IndexFileError.unsupportedFormatVersion(found: version, supported: 7...8)
        #expect(error.description == "the file has format version \(version), which this reader no longer reads (it reads 7...8). "
                + "Rebuild the index with this version's build-index (version 8 adds the regions, country names and "
                + "spatial index; version 7 holds trie leaves of a few entries in their "
                + "parents and stores only the node fields a trie uses; version 6 locates the primary names by blocks of "
                + "records and stores coordinates at the precision the input has; version 5 marks demoted alternate-name matches in the "
                + "word postings; version 4 holds one-entry trie leaves in their parents "
                + "and packs the alternate names' offsets; version 3 stored the tries without their label bytes; "
                + "version 2 added word matching and population order).")
    }

    @Test("every truncation of a small index is rejected at open")
    func everyTruncation() {
        let bytes = Fixtures.smallIndexBytes
        for length in 0..<bytes.count {
            #expect(!Self.exercise(Array(bytes.prefix(length))), "truncated to \(length)")
        }
    }

    @Test("every single-byte change either throws or answers, and verify() detects it (with and without places)",
          arguments: [false, true])
    func everySingleByteChange(withPlaces: Bool) {
        let original = withPlaces ? Fixtures.smallPlacesIndexBytes : Fixtures.smallIndexBytes
        // Every byte outside the fold table; every 8th of the fold table (its 90 KB of
        // Unicode data would otherwise dominate the run).
        let foldStart = 32 + 24 * Int(original[28])
        let foldEnd = foldStart + 8 + 8 * (Int(original[foldStart]) | Int(original[foldStart + 1]) << 8)
        let offsets = original.indices.filter { $0 < foldStart || $0 >= foldEnd || $0 % 8 == 0 }
        var opened = 0
        for offset in offsets {
            var bytes = original
            bytes[offset] ^= offset % 2 == 0 ? 0xFF : 0x01
            if Self.exercise(bytes) {
                opened += 1
                let index = try? CityIndex(bytes: bytes)
                #expect(throws: IndexFileError.self, "change at \(offset)") { try index?.verify() }
            }
        }
        // Most changes land in data that opening does not check; verify() must catch them all.
        #expect(opened > offsets.count / 2)
    }

    /// Whether `error` is one of the checks of the header and section table (FORMAT.md §2, §3).
    static func isHeaderOrTableError(_ error: IndexFileError) -> Bool {
        switch error {
        case .fileTooSmall, .notAnIndexFile, .unsupportedFormatVersion, .unsupportedFlags, .fileSizeMismatch,
             .invalidSectionCount, .sectionOutOfBounds, .sectionMisaligned, .sectionsOverlap,
             .duplicateSection, .missingSection, .unknownRequiredSection:
            return true
        default:
            return false
        }
    }

    @Test("verifyChecksum(): a changed name byte is a checksumMismatch naming both sums, computed here independently; a restamped change passes it")
    func checksumOnly() throws {
        let original = Fixtures.smallIndexBytes
        try CityIndex(bytes: original).verifyChecksum()
        let stored = (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(original[8 + $1]) << (8 * $1) }
        // FORMAT.md §8: the CRC-32 of the file with its checksum field as zeros, which
        // Fixtures.restamped writes into a copy.
        func independentSum(_ bytes: [UInt8]) -> UInt32 {
            let stamped = Fixtures.restamped(bytes)
            return (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(stamped[8 + $1]) << (8 * $1) }
        }
        #expect(independentSum(original) == stored)
        var random = SeededGenerator(seed: 8)
        let name = Fixtures.section("NAME", in: original)
        var checked = 0
        for _ in 0 ..< 40 {
            var changed = original
            let offset = Int.random(in: name, using: &random)
            changed[offset] ^= UInt8.random(in: 1 ... 255, using: &random)
            guard let index = try? CityIndex(bytes: changed) else { continue }   // a name's bytes are not read at open
            checked += 1
            #expect(throws: IndexFileError.checksumMismatch(stored: stored, computed: independentSum(changed)), "byte \(offset)") {
                try index.verifyChecksum()
            }
        }
        #expect(checked == 40)
        // Restamped, the same change passes the checksum (it is verify()'s invariants that catch it).
        var renamed = original
        renamed[name.lowerBound + 1] ^= 0x01
        try CityIndex(bytes: Fixtures.restamped(renamed)).verifyChecksum()
    }

    @Test("random garbage is refused; garbage behind a valid header and section table reaches the sections' checks and the searches")
    func randomGarbage() throws {
        var random = SeededGenerator(seed: 42)
        // No magic: refused, whatever the size.
        for size in [0, 1, 31, 32, 64, 200, 4_096, 100_000] {
            for _ in 0 ..< 20 {
                let bytes = (0 ..< size).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
                #expect(!Self.exercise(bytes), "\(size) random bytes opened")
            }
        }
        // The small index's header and section table, at the size the header states, with a
        // window of its sections' bytes (1 to 256 bytes, or all of them) replaced by garbage.
        let original = Fixtures.smallIndexBytes
        let sectionsStart = 32 + 24 * Int(original[28])
        var (opened, refusedInSections) = (0, 0)
        for trial in 0 ..< 300 {
            var bytes = original
            let length = trial % 10 == 0 ? original.count - sectionsStart : Int.random(in: 1 ... 256, using: &random)
            let start = Int.random(in: sectionsStart ... original.count - length, using: &random)
            for offset in start ..< start + length { bytes[offset] = UInt8.random(in: 0 ... 255, using: &random) }
            guard bytes != original else { continue }
            let index: CityIndex
            do throws(IndexFileError) {
                index = try CityIndex(bytes: bytes)
            } catch {
                if Self.isHeaderOrTableError(error) {
                    Issue.record("garbage in the sections was refused by the header's or table's check: \(error)")
                } else {
                    refusedInSections += 1
                }
                continue
            }
            opened += 1
            Self.exercise(index)
            #expect(throws: IndexFileError.self, "garbage at \(start)..<\(start + length)") { try index.verify() }
        }
        // Both paths are taken: sections' own checks refuse some, and searches run on others.
        #expect(opened > 20 && refusedInSections > 20, "opened \(opened), refused \(refusedInSections)")
    }

    @Test("the fuzzing corpus (Scripts/fuzz.sh) replays without a trap")
    func fuzzRegressions() throws {
        let directory = Fixtures.directory.appendingPathComponent("fuzz-regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.isEmpty)
        var changedAfterOpen = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
            // The fuzzer's "MUT!" inputs: n changes (offset:u32 LE, value:u8) applied after the
            // index that follows them opened (Fuzz/Sources/FuzzIndex/main.swift).
            if bytes.starts(with: Array("MUT!".utf8)), bytes.count >= 5 {
                let changeCount = Int(bytes[4]), indexStart = 5 + 5 * Int(bytes[4])
                guard bytes.count >= indexStart, let index = try? CityIndex(bytes: bytes[indexStart...]) else { continue }
                for change in 0 ..< changeCount {
                    let at = 5 + 5 * change
                    let offset = (0 ..< 4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
                    index.overwriteByteForTesting(at: offset % max(index.fileByteCount, 1), with: bytes[at + 4])
                }
                Self.exercise(index)
                changedAfterOpen += 1
            } else if let changed = Self.countChanged(bytes) {
                Self.exercise(changed)
            } else {
                Self.exercise(bytes)
            }
        }
        #expect(changedAfterOpen > 0, "no input of the corpus changes an index after it opened")
    }

    /// The fuzzer's "CNT!" inputs: n changes (section:u8, offset:u16 LE, value:u32 LE) written
    /// into the sections of the index that follows them before it opens
    /// (Fuzz/Sources/FuzzIndex/main.swift); `nil` for any other input.
    static func countChanged(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.starts(with: Array("CNT!".utf8)), bytes.count >= 5 else { return nil }
        let changeCount = Int(bytes[4]), indexStart = 5 + 7 * Int(bytes[4])
        guard bytes.count >= indexStart + 32 else { return [] }
        var file = Array(bytes[indexStart...])
        let sectionCount = Int(file[28])
        guard sectionCount > 0, file.count >= 32 + 24 * sectionCount else { return file }
        let sections = (0 ..< sectionCount).map { Fixtures.section(String(decoding: file[32 + 24 * $0 ..< 36 + 24 * $0], as: UTF8.self), in: file) }
        for change in 0 ..< changeCount {
            let at = 5 + 7 * change
            let range = sections[Int(bytes[at]) % sectionCount]
            guard !range.isEmpty, range.upperBound <= file.count else { continue }
            let offset = range.lowerBound + (Int(bytes[at + 1]) | Int(bytes[at + 2]) << 8) % range.count
            for index in 0 ..< 4 where offset + index < range.upperBound { file[offset + index] = bytes[at + 3 + index] }
        }
        return file
    }

    @Test("verify() passes on real indexes and finds structural damage behind a valid checksum")
    func deepVerification() throws {
        try Fixtures.defaultDataset.get().index.verify()
        try CityIndex(bytes: Fixtures.restamped(Fixtures.smallIndexBytes)).verify()
        // Swap the first two CITY records: every check but the trie's agreement passes.
        let bytes = Fixtures.smallIndexBytes
        let cities = Fixtures.section("CITY", in: bytes)
        let widths = (0..<4).map { Int(bytes[cities.lowerBound + $0]) }
        let countryCount = Int(bytes[cities.lowerBound + 4]) | Int(bytes[cities.lowerBound + 5]) << 8
        let step = (0 ..< Int(bytes[cities.lowerBound + 6])).reduce(1) { value, _ in value * 10 }
        let coordinateWidths = [180_000_000 / step, 360_000_000 / step].map { Int.bitWidth - $0.leadingZeroBitCount }
        let recordWidth = widths.reduce(coordinateWidths[0] + coordinateWidths[1], +)
        let blockCount = (Fixtures.smallIndex.cityCount + (1 << Int(bytes[cities.lowerBound + 7])) - 1) >> Int(bytes[cities.lowerBound + 7])
        let exceptionCount = (0..<4).reduce(0) { $0 | Int(bytes[cities.lowerBound + 8 + $1]) << (8 * $1) }
        let records = 8 * (cities.lowerBound + 16 + (2 * countryCount + 7) / 8 * 8 + (4 * blockCount + 7) / 8 * 8
                           + 8 * exceptionCount)
        var swapped = bytes
        let first = Self.bits(in: bytes, at: records, width: recordWidth)
        Self.setBits(in: &swapped, at: records, to: Self.bits(in: bytes, at: records + recordWidth, width: recordWidth))
        Self.setBits(in: &swapped, at: records + recordWidth, to: first)
        let index = try CityIndex(bytes: Fixtures.restamped(swapped))
        #expect(throws: IndexFileError.self) { try index.verify() }
        // Rename Hurzuf to Jurzuf in NAME: records, ids and nodes are fine, the keys are not.
        let name = Array("Hurzuf".utf8)
        let nameOffset = try #require((0 ..< bytes.count - name.count).first { Array(bytes[$0 ..< $0 + name.count]) == name })
        var renamed = bytes
        renamed[nameOffset] = UInt8(ascii: "J")
        let renamedIndex = try CityIndex(bytes: Fixtures.restamped(renamed))
        let rank = try #require(renamedIndex.city(id: 707860)?.rank)
        #expect(throws: IndexFileError.invariantViolated(.trieDisagreesWithRecords(rank: rank))) { try renamedIndex.verify() }
    }

    /// The bits `bit ..< bit + width` of `bytes` (bit *b* is bit `b % 8` of byte `b / 8`, as in
    /// FORMAT.md's bit-packed fields), least significant first.
    private static func bits(in bytes: [UInt8], at bit: Int, width: Int) -> [Bool] {
        (bit ..< bit + width).map { bytes[$0 / 8] >> UInt8($0 % 8) & 1 == 1 }
    }

    private static func setBits(in bytes: inout [UInt8], at bit: Int, to values: [Bool]) {
        for (index, value) in values.enumerated() {
            let position = bit + index
            if value { bytes[position / 8] |= 1 << UInt8(position % 8) } else { bytes[position / 8] &= ~(1 << UInt8(position % 8)) }
        }
    }

    @Test("verify() finds damage to the word trie, postings, alternate names and population order behind a valid checksum")
    func deepVerificationOfWordMatching() throws {
        let bytes = Fixtures.smallIndexBytes
        func verifyFails(_ damaged: [UInt8], _ what: Comment, with expected: InvariantViolation) throws {
            let index = try CityIndex(bytes: Fixtures.restamped(damaged))
            #expect(throws: IndexFileError.invariantViolated(expected), what) { try index.verify() }
        }
        // Two postings of different keys swapped: their paths no longer spell their names.
        let section = Fixtures.section("WPST", in: bytes)
        let width = Int(bytes[section.lowerBound]) + Int(bytes[section.lowerBound + 1])   // rank + slot bits
        let count = (0..<4).reduce(0) { $0 | Int(bytes[section.lowerBound + 4 + $1]) << (8 * $1) }
        let postings = 8 * (section.lowerBound + 8)
        func posting(_ index: Int) -> [Bool] { Self.bits(in: bytes, at: postings + index * width, width: width) }
        var swapped = bytes
        Self.setBits(in: &swapped, at: postings, to: posting(1))
        Self.setBits(in: &swapped, at: postings + width, to: posting(0))
        try verifyFails(swapped, "swapped postings", with: .wordTrieDisagreesWithNames(posting: 0))
        // A posting repeated over another: one (city, key) pair is missing.
        var repeated = bytes
        Self.setBits(in: &repeated, at: postings + (count - 1) * width, to: posting(count - 2))
        try verifyFails(repeated, "a repeated posting", with: .wordTrieDisagreesWithNames(posting: count - 1))
        // The alternate name "Munich" renamed: its postings no longer match it. Names are coded
        // (FORMAT.md §7.2), so change an escaped byte of its coding, or the first byte of a
        // symbol no other alternate name uses.
        let symbols = Fixtures.section("SYMB", in: bytes)
        let symbolCount = Int(bytes[symbols.lowerBound])
        func symbol(_ code: Int, in bytes: [UInt8]) -> [UInt8] {
            let length = Int(bytes[symbols.lowerBound + 8 + 8 * symbolCount + code])
            return Array(bytes[symbols.lowerBound + 8 + 8 * code ..< symbols.lowerBound + 8 + 8 * code + length])
        }
        func decoded(_ entry: Range<Int>, in bytes: [UInt8]) -> [UInt8] {
            var text: [UInt8] = [], position = entry.lowerBound
            while position < entry.upperBound {
                if bytes[position] == 255 {
                    text.append(bytes[position + 1])
                    position += 2
                } else {
                    text += symbol(Int(bytes[position]), in: bytes)
                    position += 1
                }
            }
            return text
        }
        let alternates = Fixtures.section("ALTN", in: bytes)
        let cityCount = (0..<4).reduce(0) { $0 | Int(bytes[24 + $1]) << (8 * $1) }
        // FORMAT.md §7.5: header, block starts (padded to 8), a packed array of cityCount + 1 starts.
        let startsOffset = alternates.lowerBound + 8 + ((cityCount / 64 + 1) * 4 + 7) / 8 * 8
        let startsWidth = Int(bytes[startsOffset])
        let textStart = startsOffset + 8 + ((cityCount + 1) * startsWidth + 63) / 64 * 8
        var entries: [Range<Int>] = []
        var position = textStart
        while position < alternates.upperBound {
            let length = Int(bytes[position])   // every alternate of the fixture codes to < 128 bytes
            entries.append(position + 1 ..< position + 1 + length)
            position += 1 + length
        }
        let munich = try #require(entries.first { decoded($0, in: bytes) == Array("Munich".utf8) })
        var otherCodes = Set<UInt8>()
        for entry in entries where entry != munich { otherCodes.formUnion(bytes[entry]) }
        var renamed = bytes
        if let escape = munich.first(where: { bytes[$0] == 255 }) {
            renamed[escape + 1] ^= 1
        } else {
            let code = try #require(bytes[munich].first { !otherCodes.contains($0) })
            renamed[symbols.lowerBound + 8 + 8 * Int(code)] ^= 1   // an ASCII letter stays one
        }
        #expect(decoded(munich, in: renamed) != decoded(munich, in: bytes))
        let renamedIndex = try CityIndex(bytes: Fixtures.restamped(renamed))
        do {
            try renamedIndex.verify()
            Issue.record("a renamed alternate passed verify()")
        } catch .invariantViolated(.wordTrieDisagreesWithNames) {
        } catch {
            Issue.record("a renamed alternate: \(error)")
        }
        // The populations of Paris, FR and Paris, US swapped: PORD (here: no entry moved) and
        // the nodes' best entries no longer follow population order.
        let population = Fixtures.section("POPL", in: bytes)
        let populationWidth = Int(bytes[population.lowerBound])
        let parisRank = try #require(Fixtures.smallIndex.city(id: 2988507)?.rank)
        var reordered = bytes
        let at = 8 * (population.lowerBound + 8) + populationWidth * parisRank
        Self.setBits(in: &reordered, at: at, to: Self.bits(in: bytes, at: at + populationWidth, width: populationWidth))
        Self.setBits(in: &reordered, at: at + populationWidth, to: Self.bits(in: bytes, at: at, width: populationWidth))
        // The node "paris" lists Paris, FR then Paris, US (country order): the entry after Paris,
        // FR's now outranks it.
        let parisUSRank = try #require(Fixtures.smallIndex.city(id: 4717560)?.rank)
        #expect(parisUSRank == parisRank + 1)
        try verifyFails(reordered, "populations out of PORD's order", with: .populationOrderWrong(position: parisUSRank))
        // The undamaged file passes.
        try CityIndex(bytes: Fixtures.restamped(bytes)).verify()
    }

    @Test("top lists (NTOP, WTOP, WALP): searches use them, verify() recomputes them and finds a changed one")
    func topLists() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let bytes = dataset.indexBytes
        for kind in ["NTOP", "WTOP", "WALP"] {
            let section = Fixtures.section(kind, in: bytes)
            let nodeCount = (0..<4).reduce(0) { $0 | Int(bytes[section.lowerBound + 4 + $1]) << (8 * $1) }
            #expect(nodeCount > 10, "Data/ has wide nodes in \(kind)")
            // The first city of the first list swapped with the second: the list is out of order.
            let lists = section.lowerBound + 8 + 4 * nodeCount
            var damaged = bytes
            damaged.replaceSubrange(lists ..< lists + 8, with: bytes[lists + 8 ..< lists + 16])
            damaged.replaceSubrange(lists + 8 ..< lists + 16, with: bytes[lists ..< lists + 8])
            let offset = (0..<4).reduce(0) { $0 | Int(bytes[section.lowerBound + 8 + $1]) << (8 * $1) }
            let index = try CityIndex(bytes: Fixtures.restamped(damaged))
            #expect(throws: IndexFileError.invariantViolated(.topListWrong(nodeOffset: offset))) { try index.verify() }
        }
        // One-letter queries end at listed nodes: the answers are the naive references'.
        for query in ["a", "b", "s", "m"] {
            let prefixMatches = dataset.reference.search(query)   // SEARCH.md order
            let byPopulation = prefixMatches.enumerated().sorted { a, b in
                let (pa, pb) = (dataset.populationByID[a.element.id] ?? 0, dataset.populationByID[b.element.id] ?? 0)
                return pa != pb ? pa > pb : a.offset < b.offset
            }.map(\.element.id)
            let prefix = try dataset.index.search(query, matching: .prefix, order: .population, limit: 20)
            #expect(prefix.map(\.id) == Array(byPopulation.prefix(20)), "prefix \(query)")
            #expect(prefix.totalCount == prefixMatches.count, "prefix \(query)")
            for order in ResultOrder.allCases {
                let expected = dataset.wordReference.search(query, byPopulation: order == .population)
                let words = try dataset.index.search(query, matching: .words, order: order, limit: 20)
                #expect(words.map(\.id) == Array(expected.prefix(20).map(\.id)), "words \(order) \(query)")
                #expect(words.totalCount == expected.count, "words \(order) \(query)")
            }
        }
    }

    @Test("a missing file names the path and errno; a directory or device is refused as not a regular file")
    func missingFile() {
        #expect(throws: IndexFileError.cannotOpenFile(path: "/nonexistent/cities.cidx", errno: 2)) {
            try CityIndex(path: "/nonexistent/cities.cidx")
        }
        #expect(throws: IndexFileError.notARegularFile(path: "/tmp")) { try CityIndex(path: "/tmp") }
        #expect(throws: IndexFileError.notARegularFile(path: "/dev/zero")) { try CityIndex(path: "/dev/zero") }
        #expect(IndexFileError.notARegularFile(path: "/dev/zero").description
                == "'/dev/zero' is not a regular file (a directory, FIFO, socket or device). Pass the path of an index file written by build-index.")
    }
}

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("one index searched from many tasks at once gives every task the right answers")
    func concurrentSearches() async throws {
        let dataset = try Fixtures.defaultDataset.get()
        var generator = QueryGenerator(names: dataset.names, seed: 99)
        let queries = (0..<200).map { _ in generator.next() }
        let expected = try queries.map { try dataset.index.search($0).asReference }
        // Word matching and population order too (their results are arrays built per search).
        let expectedWords = try queries.map { try dataset.index.search($0, matching: .words, order: .population, limit: 20).asWordReference }
        let index = dataset.index
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for (position, query) in queries.enumerated() where position % 16 == task || position % 3 == 0 {
                        guard try index.search(query).asReference == expected[position] else { return false }
                        let words = try index.search(query, matching: .words, order: .population, limit: 20)
                        guard words.asWordReference == expectedWords[position] else { return false }
                    }
                    return true
                }
            }
            for try await agreed in group { #expect(agreed) }
        }
    }
}
