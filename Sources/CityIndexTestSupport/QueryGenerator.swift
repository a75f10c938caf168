// QueryGenerator.swift: seeded random queries of the kinds people type.
import Foundation

/// A small, fast, seeded generator (SplitMix64), so every run draws the same queries.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Draws queries from real names: prefixes of 0–12 characters, in upper or lower case,
/// with accents stripped, decomposed (NFD), with leading spaces, from non-Latin names, and
/// a share of strings that match nothing.
public struct QueryGenerator {
    private var random: SeededGenerator
    private let names: [String]
    private let nonLatinNames: [String]

    public init(names: [String], seed: UInt64) {
        random = SeededGenerator(seed: seed)
        self.names = names
        let nonLatin = names.filter { $0.unicodeScalars.contains { $0.value >= 0x370 && $0.properties.isAlphabetic } }
        nonLatinNames = nonLatin.isEmpty ? ["Москва", "東京", "서울", "Αθήνα"] : nonLatin
    }

    public mutating func next() -> String {
        let kind = Int.random(in: 0..<10, using: &random)
        let source = kind == 0 ? nonLatinNames.randomElement(using: &random)! : names.randomElement(using: &random)!
        let length = Int.random(in: 0...12, using: &random)
        var query = String(source.prefix(length))
        switch kind {
        case 1: query = query.uppercased()
        case 2: query = query.lowercased()
        case 3: query = query.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        case 4: query = query.decomposedStringWithCanonicalMapping
        case 5: query = "  " + query
        case 6: query += " "
        case 7:
            let alphabet = Array("abcxyzéßøŁ -'’qü東")
            query = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
        default: break
        }
        return query
    }
}

/// Draws word-matching queries from real cities: a name (primary or alternate), from a
/// random word on, one to three words joined by random separators, cut to a random length,
/// in random case, with accents stripped or not; and a share of random strings.
public struct WordQueryGenerator {
    private var random: SeededGenerator
    private let names: [[String]]

    /// `names`: each city's primary name followed by its alternates.
    public init(names: [[String]], seed: UInt64) {
        random = SeededGenerator(seed: seed)
        self.names = names.filter { !$0.isEmpty }
    }

    public mutating func next() -> String {
        let kind = Int.random(in: 0..<10, using: &random)
        if kind == 0 {
            let alphabet = Array("abcsy '-.éø")
            return String((0..<Int.random(in: 1...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        let city = names.randomElement(using: &random)!
        let name = Bool.random(using: &random) || city.count == 1 ? city[0] : city[Int.random(in: 1..<city.count, using: &random)]
        let words = name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "'" || $0 == "/" || $0 == "(" })
        guard !words.isEmpty else { return name }
        let first = Int.random(in: 0..<words.count, using: &random)
        let last = min(words.count, first + Int.random(in: 1...3, using: &random))
        let separators = [" ", "-", "  ", "'", ". ", "’"]
        var query = words[first..<last].map(String.init).joined(separator: separators.randomElement(using: &random)!)
        query = String(query.prefix(Int.random(in: 1...max(1, query.count), using: &random)))
        switch kind {
        case 1, 2: query = query.lowercased()
        case 3: query = query.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        case 4: query = query.uppercased()
        case 5: query += " "
        default: break
        }
        return query
    }
}
