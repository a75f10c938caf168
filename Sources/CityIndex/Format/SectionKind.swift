// SectionKind.swift: the four-character names of the file's sections (FORMAT.md §3).

/// Names a section of an index file by its four ASCII characters, such as `NODE`.
public struct SectionKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The four characters read as a little-endian `UInt32`.
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Makes a kind from four ASCII characters.
    package init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4, "a section kind has four characters")
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(name.utf8Start[index]) << (8 * UInt32(index)) }
        self.rawValue = value
    }

    /// The fold table: how the builder folded names, so queries fold the same way.
    public static let foldTable = SectionKind("FOLD")
    /// The radix trie over folded names.
    public static let nodes = SectionKind("NODE")
    /// Fixed-size city records in search order.
    public static let cities = SectionKind("CITY")
    /// The UTF-8 bytes of the primary names.
    public static let names = SectionKind("NAME")
    /// The symbol table that codes the alternate names.
    public static let nameSymbols = SectionKind("SYMB")
    /// City ranks sorted by id, for `city(id:)`.
    public static let idIndex = SectionKind("IDIX")
    /// Optional: population per city, in search order.
    public static let population = SectionKind("POPL")
    /// The radix trie over word suffix keys (word matching).
    public static let wordNodes = SectionKind("WNOD")
    /// The postings of the word trie: (city rank, name slot) pairs.
    public static let wordPostings = SectionKind("WPST")
    /// The alternate names of each city.
    public static let alternateNames = SectionKind("ALTN")
    /// Optional (with `POPL`): ranks of each run of equal folded names, by population.
    public static let populationOrder = SectionKind("PORD")
    /// Optional: the top cities in population order of the widest `NODE` nodes.
    public static let nodeTopLists = SectionKind("NTOP")
    /// Optional: the top cities in population order of the widest `WNOD` nodes.
    public static let wordTopLists = SectionKind("WTOP")
    /// Optional: the first cities in alphabetical order of the widest `WNOD` nodes.
    public static let wordAlphabeticalLists = SectionKind("WALP")
    public static let regions = SectionKind("REGN")
    public static let countryNames = SectionKind("CTRY")
    public static let spatialIndex = SectionKind("GEOK")

    /// The four characters, with bytes outside printable ASCII shown as `\xNN`.
    public var description: String {
        var text = ""
        for index in 0..<4 {
            let byte = UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32(index)))
            if (0x20...0x7E).contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: true)
            }
        }
        return text
    }
}
