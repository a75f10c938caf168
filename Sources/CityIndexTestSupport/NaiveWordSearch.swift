// NaiveWordSearch.swift: the reference of word matching and population order (WORDS.md).
import Foundation

/// One expected word match: the city, the alternate name that matched (`nil`: the primary
/// name), and the highlight `[start, length]` in UTF-16 units of the matched name.
public struct ReferenceWordMatch: Equatable, Sendable, CustomStringConvertible {
    public let id: Int
    public let matchedAlternateName: String?
    public let highlight: [Int]

    public init(id: Int, matchedAlternateName: String?, highlight: [Int]) {
        self.id = id
        self.matchedAlternateName = matchedAlternateName
        self.highlight = highlight
    }

    public var description: String { "\(id) \(matchedAlternateName.map { "matched \($0) " } ?? "")\(highlight)" }
}

/// WORDS.md implemented naively with Foundation folding: every suffix key of every name of
/// every city, compared with the query key by `starts(with:)`; sorted with `sort`.
public struct NaiveWordSearch: Sendable {
    /// WORDS.md §1: the separators, written out independently of the index's table.
    private static let punctuation = Set("-\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2015}\u{2212}'\u{2018}\u{2019}\u{02BC}`.,/\\()[]".unicodeScalars)

    public static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || punctuation.contains(scalar)
    }

    private struct Entry: Sendable {
        let city: ReferenceCity
        /// Position in SEARCH.md order.
        let alphabeticalPosition: Int
        /// The primary name, then the alternates, each with its suffix keys and whether it looks
        /// machine-made (WORDS.md §5).
        let names: [(text: String, suffixKeys: [[UInt8]], machineMade: Bool)]
    }

    private let entries: [Entry]
    /// Folds of the scalars seen while building (Foundation folding is slow).
    private let foldMemo: [Unicode.Scalar: String]
    /// The cities by their primary name's word key (WORDS.md §13's named-city rule).
    private let namedCities: NaiveOvershadowing.NamedCities

    public init(cities: [ReferenceCity]) {
        var memo: [Unicode.Scalar: String] = [:]
        func fold(_ text: String) -> [UInt8] {
            Array(text.unicodeScalars.map { scalar in
                if let known = memo[scalar] { return known }
                let folded = ReferenceFolding.fold(scalar)
                memo[scalar] = folded
                return folded
            }.joined().utf8)
        }
        let sorted = cities.map { (city: $0, key: fold($0.name)) }.sorted { a, b in
            if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
            if a.city.country != b.city.country { return Array(a.city.country.utf8).lexicographicallyPrecedes(Array(b.city.country.utf8)) }
            return a.city.id < b.city.id
        }.map(\.city)
        entries = sorted.enumerated().map { position, city in
            let names = [city.name] + (city.alternatenames ?? [])
            return Entry(city: city, alphabeticalPosition: position, names: names.map { name in
                let words = Self.words(of: name, memo: &memo)
                return (name, words.indices.map { Array(words[$0...].joined(separator: " ").utf8) }, Self.looksMachineMade(name))
            })
        }
        foldMemo = memo
        namedCities = NaiveOvershadowing.namedCities(entries.map { (city: $0.city, key: $0.names[0].suffixKeys.first ?? []) })
    }

    /// WORDS.md §3's spellings, written out again: the slot reported for a match by name
    /// `slot` of `names` (the primary first) when the query was typed as `typed`. For an
    /// alternate and a query with letters outside ASCII (alphabetic scalars, compared by
    /// lowercase mapping), the first later alternate with the same word key and machine-made
    /// look (§5) that has more of those letters (each counted as often as typed) than every one
    /// before it; else `slot`.
    public static func spellingSlot(_ slot: Int, of names: [String], typed: String) -> Int {
        let lower = { (text: String) in
            text.unicodeScalars.filter(\.properties.isAlphabetic).flatMap { $0.properties.lowercaseMapping.unicodeScalars }
        }
        let letters = lower(typed).filter { !$0.isASCII }
        guard slot > 0, !letters.isEmpty else { return slot }
        let key = words(of: names[slot]), machineMade = looksMachineMade(names[slot])
        func count(_ name: String) -> Int {
            let scalars = lower(name)
            return letters.count { scalars.contains($0) }
        }
        var best = (slot: slot, count: count(names[slot]))
        for other in names.indices.dropFirst(slot + 1) where words(of: names[other]) == key && looksMachineMade(names[other]) == machineMade {
            let found = count(names[other])
            if found > best.count { best = (other, found) }
        }
        return best.slot
    }

    /// The words of `text`: folded, split at separators, empty pieces dropped.
    public static func words(of text: String) -> [String] {
        var memo: [Unicode.Scalar: String] = [:]
        return words(of: text, memo: &memo)
    }

    /// `words(of:)` with folds of scalars remembered in `memo` (Foundation folding is slow).
    public static func words(of text: String, memo: inout [Unicode.Scalar: String]) -> [String] {
        var folded = ""
        for scalar in text.unicodeScalars {
            if let known = memo[scalar] { folded += known } else {
                let fold = ReferenceFolding.fold(scalar)
                memo[scalar] = fold
                folded += fold
            }
        }
        var words: [String] = []
        var current = ""
        for scalar in folded.unicodeScalars {
            if isSeparator(scalar) {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The query key of WORDS.md §2: the words joined by spaces, plus one space when the
    /// folded query ends with a separator after a word.
    public static func queryKey(_ query: String) -> [UInt8] {
        let words = words(of: query)
        var key = words.joined(separator: " ")
        if !words.isEmpty, let last = ReferenceFolding.fold(query).unicodeScalars.last, isSeparator(last) { key += " " }
        return Array(key.utf8)
    }

    /// WORDS.md §5, written out again: an alternate name looks machine-made when all its
    /// letters are Latin (below U+0250 or U+1E00–U+1EFF) and none is a capital (a letter that
    /// lowercasing changes), or it has 3 or more letters and none folds to a, e, i, o, u or y.
    public static func looksMachineMade(_ text: String) -> Bool {
        let letters = text.unicodeScalars.filter(\.properties.isAlphabetic)
        guard !letters.isEmpty, letters.allSatisfy({ $0.value < 0x250 || (0x1E00 ... 0x1EFF).contains($0.value) }) else { return false }
        let hasCapital = letters.contains { String($0).lowercased() != String($0) }
        let hasVowel = letters.contains { letter in
            ReferenceFolding.fold(letter).unicodeScalars.first.map { "aeiouy".unicodeScalars.contains($0) } ?? false
        }
        return !hasCapital || (letters.count >= 3 && !hasVowel)
    }

    /// WORDS.md §12, written out again: the slot of the first alternate name of `names` (the
    /// primary first) that is an initialism for the query key `key`: 2 to 5 letters a–z as the
    /// key, the alternate those letters in capitals, and the primary name having at least as
    /// many words, whose first letters (folded) they are. An alternate the index does not
    /// keep (FORMAT.md §7.5: its only suffix key, the key, starts a suffix key of an earlier
    /// name that is not demoted: "NY" after "NYC", not after "… La Reina …") is none.
    public static func initialismSlot(names: [String], key: [UInt8]) -> Int? {
        guard (2 ... 5).contains(key.count), key.allSatisfy({ (0x61 ... 0x7A).contains($0) }), let primary = names.first else { return nil }
        let keyText = String(decoding: key, as: UTF8.self)
        let primaryWords = words(of: primary)
        guard primaryWords.count >= key.count,
              String(primaryWords.prefix(key.count).compactMap(\.first)) == keyText,
              let slot = names.indices.dropFirst().first(where: { names[$0] == keyText.uppercased() }) else { return nil }
        let covered = names[..<slot].indices.contains { earlier in
            let nameWords = words(of: names[earlier])
            // WORDS.md §5: an alternate's suffix keys are demoted past its first word, or all
            // of them when it looks machine-made; the primary name's never.
            let undemoted = earlier == 0 ? nameWords.indices : looksMachineMade(names[earlier]) ? 0 ..< 0 : nameWords.indices.prefix(1)
            return undemoted.contains { nameWords[$0...].joined(separator: " ").hasPrefix(keyText) }
        }
        return covered ? nil : slot
    }

    /// WORDS.md §14: the id of the most populous city (ties: alphabetical) whose primary name's
    /// word key is `key`, a query key not empty and not ending in a space.
    public func wholeNameCity(key: [UInt8]) -> Int? {
        guard !key.isEmpty, key.last != 0x20 else { return nil }
        return entries.filter { $0.names[0].suffixKeys.first == key }
            .min { ($0.city.population ?? 0, -$0.alphabeticalPosition) > ($1.city.population ?? 0, -$1.alphabeticalPosition) }?.city.id
    }

    /// All matches in the order asked for (`byPopulation`: weight descending — the population,
    /// unknown as 0, a tenth of it when an alternate name matched, a hundredth when that match
    /// is demoted — then SEARCH.md order). Each city by its best match: not demoted first,
    /// then the lowest slot (WORDS.md §3).
    public func search(_ query: String, byPopulation: Bool) -> [ReferenceWordMatch] {
        let key = Self.queryKey(query)
        var found: [(entry: Entry, slot: Int, demoted: Bool, initialism: Bool)] = []
        // WORDS.md §14: it weighs three times its population.
        let wholeName = byPopulation ? wholeNameCity(key: key) : nil
        for entry in entries {
            if key.isEmpty { found.append((entry, 0, false, false)); continue }
            var best: (slot: Int, demoted: Bool)?
            for (slot, name) in entry.names.enumerated() {
                for (wordIndex, suffixKey) in name.suffixKeys.enumerated() where suffixKey.starts(with: key) {
                    // WORDS.md §5: on a later word of an alternate, or a machine-made alternate.
                    let demoted = slot > 0 && (wordIndex > 0 || name.machineMade)
                    if best == nil || (demoted ? 1 : 0, slot) < (best!.demoted ? 1 : 0, best!.slot) { best = (slot, demoted) }
                }
            }
            if let best {
                // WORDS.md §12: an initialism ("SF" for "sf") is the city's match, weighed ten
                // times its population.
                if byPopulation, let slot = Self.initialismSlot(names: entry.names.map(\.text), key: key) {
                    found.append((entry, slot, false, true))
                } else if entry.city.id == wholeName {
                    found.append((entry, 0, false, false))
                } else {
                    found.append((entry, best.slot, best.demoted, false))
                }
            }
        }
        // WORDS.md §5: a match of an alternate name weighs a tenth of the population, a
        // demoted one a hundredth.
        func weight(_ match: (entry: Entry, slot: Int, demoted: Bool, initialism: Bool)) -> Int {
            let population = match.entry.city.population ?? 0
            if match.initialism { return population * 10 }
            if match.entry.city.id == wholeName { return population * 3 }
            return match.slot == 0 ? population : match.demoted ? population / 10 / 10 : population / 10
        }
        if byPopulation {
            found.sort { a, b in
                weight(a) != weight(b) ? weight(a) > weight(b) : a.entry.alphabeticalPosition < b.entry.alphabeticalPosition
            }
        }
        var memo = foldMemo
        let matches = found.map { entry, slot, _, _ in
            // WORDS.md §3: the spelling closest to the query as typed.
            let name = entry.names[Self.spellingSlot(slot, of: entry.names.map(\.text), typed: query)].text
            return ReferenceWordMatch(id: entry.city.id, matchedAlternateName: slot == 0 ? nil : name,
                                      highlight: Self.highlight(name: name, queryKey: key, memo: &memo))
        }
        guard byPopulation, !key.isEmpty else { return matches }
        // WORDS.md §13: overshadowed matches move after others.
        let described = zip(found, matches).map { found, match in
            NaiveOvershadowing.Match(city: found.entry.city, name: found.entry.names[found.slot].text, isAlternate: found.slot > 0,
                                     highlight: match.highlight, weight: weight(found), typoEdits: 0, isInitialism: found.initialism)
        }
        return NaiveOvershadowing.ordered(described, exactNamePopulation: nil, namedCities: namedCities).order.map { matches[$0] }
    }

    /// WORDS.md §4, scalar by scalar: the earliest scalar that starts a word and whose tail
    /// of the name has a key starting with the query key; the highlight runs to the first
    /// scalar boundary where the key of the highlighted part covers the query key (without
    /// its trailing space), extended over scalars that fold to nothing.
    public static func highlight(name: String, queryKey: [UInt8]) -> [Int] {
        var memo: [Unicode.Scalar: String] = [:]
        return highlight(name: name, queryKey: queryKey, memo: &memo)
    }

    private static func highlight(name: String, queryKey: [UInt8], memo: inout [Unicode.Scalar: String]) -> [Int] {
        var needed = queryKey.count
        if needed > 0 && queryKey.last == 0x20 { needed -= 1 }
        guard needed > 0 else { return [0, 0] }
        let scalars = Array(name.unicodeScalars)
        func key(_ range: Range<Int>) -> [UInt8] {
            Array(words(of: String(String.UnicodeScalarView(scalars[range])), memo: &memo).joined(separator: " ").utf8)
        }
        func fold(_ scalar: Unicode.Scalar) -> String {
            if let known = memo[scalar] { return known }
            let folded = ReferenceFolding.fold(scalar)
            memo[scalar] = folded
            return folded
        }
        func utf16(_ range: Range<Int>) -> Int { scalars[range].reduce(0) { $0 + $1.utf16.count } }
        var previousEndsWord = true
        for start in scalars.indices {
            let folded = fold(scalars[start]).unicodeScalars
            guard let first = folded.first else { continue }
            let startsWord = previousEndsWord && !isSeparator(first)
            previousEndsWord = isSeparator(folded.last!)
            guard startsWord, key(start ..< scalars.count).starts(with: queryKey) else { continue }
            var end = start + 1
            while key(start ..< end).count < needed { end += 1 }
            while end < scalars.count && fold(scalars[end]).isEmpty { end += 1 }
            return [utf16(0 ..< start), utf16(start ..< end)]
        }
        return [0, 0]
    }
}
