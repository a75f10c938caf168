// FoldingTests.swift: SEARCH.md §1, the fold table, and the reference folding.
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Folding (SEARCH.md §1)")
struct FoldingTests {
    static let folder = try! IndexBuilder.folder()

    /// The examples SEARCH.md itself gives, checked even without the shared folder.
    @Test("the examples of SEARCH.md", arguments: [
        ("Łódź", "lodz"), ("São Paulo", "sao paulo"), ("Straße", "strasse"), ("Ærøskøbing", "aeroskobing"),
        ("Đà Nẵng", "da nang"), ("Þórshöfn", "thorshofn"), ("İstanbul", "istanbul"), ("ΣΊΣΥΦΟΣ", "σισυφοσ"),
        ("ﬁnland", "finland"), ("Zu\u{0308}rich", "zurich"), ("서울", "\u{1109}\u{1165}\u{110B}\u{116E}\u{11AF}"),
        ("ẞ", "ss"), ("Ꭰ", "Ꭰ"), ("ꭰ", "Ꭰ"), ("ᲀ", "в"),
    ])
    func specExamples(input: String, expected: String) {
        #expect(Self.folder.fold(input) == expected)
    }

    /// The query trimming every search uses (SEARCH.md §2: leading Unicode White_Space is
    /// ignored, trailing kept), whose ASCII scalars are classified without a property lookup,
    /// against the standard library's White_Space for every scalar up to U+3000 and beyond.
    @Test("leading white space: exactly Unicode White_Space is skipped, and only at the start")
    func leadingWhiteSpace() {
        let scalars = (0 ... 0x3100).compactMap(Unicode.Scalar.init) + ["\u{FEFF}", "\u{205F}", "\u{1680}", "\u{10FFFF}"]
        for scalar in scalars {
            for query in ["\(scalar)a \(scalar)", "\(scalar)\(scalar)", " \t\(scalar)b"] {
                let expected = Array(query.unicodeScalars.drop { $0.properties.isWhitespace })
                #expect(Array(query.scalarsAfterLeadingWhiteSpace) == expected, "U+\(String(scalar.value, radix: 16))")
            }
        }
        #expect(Array("".scalarsAfterLeadingWhiteSpace).isEmpty)
        #expect(String(String.UnicodeScalarView("\u{3000}\n  rio de ".scalarsAfterLeadingWhiteSpace)) == "rio de ")
    }

    @Test("every vector of the external fold vectors (CITYINDEX_SHARED)",
          .enabled(if: SharedData.file("spec/fold-vectors.tsv") != nil, "set CITYINDEX_SHARED to the shared folder (spec/fold-vectors.tsv)"))
    func sharedVectors() throws {
        let url = try #require(SharedData.file("spec/fold-vectors.tsv"))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(lines.count > 200)
        for line in lines {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(columns.count == 2)
            let input = try JSONDecoder().decode(String.self, from: Data(columns[0].utf8))
            let expected = try JSONDecoder().decode(String.self, from: Data(columns[1].utf8))
            #expect(Self.folder.fold(input) == expected, "fold(\(String(reflecting: input)))")
            #expect(ReferenceFolding.fold(input) == expected, "reference fold(\(String(reflecting: input)))")
        }
    }

    /// The table (standard-library case mappings) against Foundation's case folding for
    /// every scalar of the planes people write in. They differ only where Foundation does
    /// not follow CaseFolding.txt: the Cyrillic letter variants U+1C80…U+1C88, which
    /// CaseFolding.txt folds to their ordinary letters and the table does too, and letters
    /// added in Unicode 16, which Foundation's case data does not have yet.
    @Test("the fold table agrees with the independent reference folding")
    func tableAgreesWithReference() {
        var differences: [UInt32] = []
        for value in UInt32(0)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else { continue }
            var bytes: [UInt8] = []
            Self.folder.appendFolded(CollectionOfOne(scalar), to: &bytes)
            if String(decoding: bytes, as: UTF8.self) != ReferenceFolding.fold(scalar) { differences.append(value) }
        }
        let unexplained = differences.filter { value in
            guard !(0x1C80...0x1C88).contains(value), let age = Unicode.Scalar(value)!.properties.age else { return false }
            return age.major < 16
        }
        #expect(unexplained.isEmpty, "\(unexplained.prefix(20).map { String($0, radix: 16) })")
        #expect(differences.count < 100)
    }

    @Test("Hangul syllables fold by the algorithm exactly as Foundation decomposes them")
    func hangulAlgorithm() {
        for value in FormatConstants.hangulSyllables {
            let scalar = Unicode.Scalar(value)!
            var bytes: [UInt8] = []
            Self.folder.appendFolded(CollectionOfOne(scalar), to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == ScalarFolding.fold(scalar))
        }
    }

    @Test("the fold table round-trips: every entry reads back as written")
    func foldTableRoundTrip() throws {
        let bytes = IndexBuilder.foldSectionBytes
        let entryCount = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        let outputByteCount = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        #expect(bytes.count == 8 + entryCount * 8 + outputByteCount)
        #expect(Self.folder.table.entryCount == entryCount)
        #expect(entryCount > 8_000)
        // Each entry, parsed here from FORMAT.md §5's layout, reads back through the reader's
        // table as its output; the scalars increase and skip the Hangul syllables (§5.2).
        func u32(_ at: Int) -> UInt32 { (0 ..< 4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        let outputs = 8 + entryCount * 8
        var previous: UInt32?
        var mismatches: [String] = []
        for entry in 0 ..< entryCount {
            let (value, packed) = (u32(8 + 8 * entry), u32(12 + 8 * entry))
            guard let scalar = Unicode.Scalar(value), !(0xAC00 ... 0xD7A3).contains(value) else {
                Issue.record("entry \(entry): \(value) is not a listed scalar")
                continue
            }
            #expect(previous.map { $0 < value } ?? true, "entry \(entry) out of order")
            previous = value
            let (offset, length) = (Int(packed & 0xFF_FFFF), Int(packed >> 24))
            guard offset + length <= outputByteCount else {
                Issue.record("entry \(entry): output \(offset)+\(length) outside the outputs")
                continue
            }
            // Compared as bytes: String's == holds canonically equivalent strings equal (U+F900 and U+8C48).
            let written = Array(bytes[outputs + offset ..< outputs + offset + length])
            #expect(written != Array(String(scalar).utf8), "entry \(entry) folds U+\(String(value, radix: 16)) to itself: not worth listing")
            if Array(Self.folder.fold(String(scalar)).utf8) != written { mismatches.append("U+\(String(value, radix: 16))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) entries read back otherwise: \(mismatches.prefix(10))")
        // Spot checks of the encoding: ASCII capitals, and a lone mark folding to nothing.
        #expect(Self.folder.fold("ABCXYZ") == "abcxyz")
        #expect(Self.folder.fold("\u{0301}") == "")
    }
}
