// NaiveOvershadowing.swift: WORDS.md §13 written out again, over a reference's whole result.
import Foundation

/// WORDS.md §13 applied to every match of a reference search (`NaiveWordSearch`,
/// `NaiveTypoSearch`) at once: the marks from each match and the ones before it, then one
/// sort. Covered words come from the reported highlight by the reference's own word split;
/// distances by `NaiveNearest`'s formula.
public enum NaiveOvershadowing {
    /// One match of a reference search, in the order of WORDS.md §5–§12.
    public struct Match {
        public let city: ReferenceCity
        /// The name reported (the primary name or an alternate).
        public let name: String
        public let isAlternate: Bool
        /// `[start, length]` in UTF-16 units of `name`.
        public let highlight: [Int]
        /// The population-order weight, rounded down at each division as the reference does.
        public let weight: Int
        /// The edits beyond the matched key's own cost.
        public let typoEdits: Int
        public let isInitialism: Bool

        public init(city: ReferenceCity, name: String, isAlternate: Bool, highlight: [Int], weight: Int, typoEdits: Int,
                    isInitialism: Bool) {
            self.city = city
            self.name = name
            self.isAlternate = isAlternate
            self.highlight = highlight
            self.weight = weight
            self.typoEdits = typoEdits
            self.isInitialism = isInitialism
        }
    }

    /// What §13 names the reasons, for test messages.
    public enum Mark: String, Sendable { case junk, borrowedName, district, forgiven, forgivenBesideSmaller, namedCity }

    /// The people of each city by its primary name's word key (UTF-8), for the named-city rule.
    public typealias NamedCities = [[UInt8]: [(id: Int, population: Int)]]

    /// `cities` by the word key of their primary names (`key`, as the reference computed it).
    public static func namedCities(_ cities: [(city: ReferenceCity, key: [UInt8])]) -> NamedCities {
        var table: NamedCities = [:]
        for (city, key) in cities where !key.isEmpty { table[key, default: []].append((city.id, city.population ?? 0)) }
        return table
    }

    /// The positions of `matches` in the order of §13, and each match's mark.
    /// `exactNamePopulation`: the people of the most populous city the query names exactly
    /// (`isNamedExactly(by:names:)`), if it names one; `typedKey`: the query's word key as typed;
    /// `namedCities`: every city of the list by its primary name's word key.
    public static func ordered(_ matches: [Match], exactNamePopulation: Int?, typedKey: String = "",
                               namedCities: NamedCities) -> (order: [Int], marks: [Mark?]) {
        let covered = matches.map { coveredWords(name: $0.name, highlight: $0.highlight) }
        // Compared as UTF-8 (String's == is canonical equivalence, the index compares bytes).
        let coveredKeys = covered.map { $0.map { Array($0.words.joined(separator: " ").utf8) } }
        var marks = [Mark?](repeating: nil, count: matches.count)
        // The most people among the earlier matches of 100,000 or more by a primary name or a
        // whole alternate, by covered words.
        var lenders: [[UInt8]: Int] = [:]
        // The earlier primary-name matches of 50,000 or more, by country.
        var parents: [String: [Int]] = [:]
        var nameWords: [Int: [[UInt8]]] = [:]
        var foldMemo: [Unicode.Scalar: String] = [:]
        func words(_ index: Int) -> [[UInt8]] {
            if let known = nameWords[index] { return known }
            let found = NaiveWordSearch.words(of: matches[index].name).map { Array($0.utf8) }
            nameWords[index] = found
            return found
        }
        for (index, match) in matches.enumerated() {
            let population = match.city.population ?? 0
            defer {
                if population >= 100_000, let key = coveredKeys[index], let words = covered[index],
                   !match.isAlternate || words.words.count == words.nameWordCount {
                    lenders[key] = max(lenders[key] ?? 0, population)
                }
                if !match.isAlternate && population >= 50_000 { parents[match.city.country, default: []].append(index) }
            }
            guard !match.isInitialism else { continue }
            if match.isAlternate, match.typoEdits > 0 || covered[index]?.endsInsideWord == true, isJunkCandidate(match.name) {
                marks[index] = .junk
            } else if match.isAlternate, let mine = covered[index], !mine.endsInsideWord, let key = coveredKeys[index] {
                if let lender = lenders[key], mine.nameWordCount > mine.words.count || lender > population { marks[index] = .borrowedName }
            } else if !match.isAlternate, population < 500_000, let key = coveredKeys[index] {
                if (parents[match.city.country] ?? []).contains(where: { other in
                    let parent = matches[other]
                    let parentPopulation = parent.city.population ?? 0
                    guard parentPopulation > population, coveredKeys[other] == key else { return false }
                    let parentWords = words(other), mine = words(index)
                    guard mine.count > parentWords.count, Array(mine.prefix(parentWords.count)) == parentWords else { return false }
                    // A district's designation after the parent's name: wherever it lies.
                    if mine[parentWords.count...].contains(where: designatesDistrict) { return true }
                    let meters = NaiveNearest.distance(latitude: parent.city.coord.lat, longitude: parent.city.coord.lon,
                                                       toLatitude: match.city.coord.lat, longitude: match.city.coord.lon)
                    return meters <= 2_000 + 10_000 * (Double(parentPopulation) / 1_000_000).squareRoot()
                }) { marks[index] = .district }
            }
            // A typo match beside a city named exactly: 0 below a hundred times its people, else a tenth.
            if marks[index] == nil, let exactNamePopulation, match.typoEdits > 0, let mine = covered[index],
               !Array(looseSpelling(mine.words.joined(separator: " ")).utf8).starts(with: Array(looseSpelling(typedKey).utf8)) {
                marks[index] = population < 100 * exactNamePopulation ? .forgiven : .forgivenBesideSmaller
            }
            // An alternate that is, whole, another city's primary name, that city having a hundredth of the people or more.
            if marks[index] == nil, match.isAlternate {
                let key = Array(NaiveWordSearch.words(of: match.name, memo: &foldMemo).joined(separator: " ").utf8)
                if (namedCities[key] ?? []).contains(where: { $0.id != match.city.id && 100 * $0.population >= population }) {
                    marks[index] = .namedCity
                }
            }
        }
        let weights = zip(matches, marks).map { match, mark -> Int in
            switch mark {
            case nil: match.weight
            case .junk, .borrowedName, .district, .forgiven: 0
            case .forgivenBesideSmaller, .namedCity: match.weight / 10
            }
        }
        let order = matches.indices.sorted { a, b in
            if weights[a] != weights[b] { return weights[a] > weights[b] }
            if (marks[a] == nil) != (marks[b] == nil) { return marks[a] == nil }
            // Marked ones of equal weight: forgiven, then borrowed names and districts, then junk.
            let tier = { (mark: Mark?) in mark == .forgiven ? 0 : mark == .junk ? 2 : 1 }
            if tier(marks[a]) != tier(marks[b]) { return tier(marks[a]) < tier(marks[b]) }
            return a < b
        }
        return (order, marks)
    }

    /// The words of `name` its highlight touches (from the word where it starts to the end of
    /// the word where it ends), how many words the name has, and whether the highlight ends
    /// inside its last word; `nil` for an empty highlight.
    public static func coveredWords(name: String, highlight: [Int]) -> (words: [String], nameWordCount: Int, endsInsideWord: Bool)? {
        guard highlight.count == 2, highlight[1] > 0 else { return nil }
        let scalars = Array(name.unicodeScalars)
        var offset = 0
        var start: Int?
        var end = scalars.count
        for (index, scalar) in scalars.enumerated() {
            if start == nil && offset >= highlight[0] { start = index }
            if offset >= highlight[0] + highlight[1] { end = index; break }
            offset += scalar.utf16.count
        }
        guard let start else { return nil }
        let all = NaiveWordSearch.words(of: name)
        let before = NaiveWordSearch.words(of: String(String.UnicodeScalarView(scalars[..<start]))).count
        let through = NaiveWordSearch.words(of: String(String.UnicodeScalarView(scalars[..<end])))
        guard through.count > before, through.count <= all.count else { return nil }
        return (Array(all[before ..< through.count]), all.count, Array(through.last!.utf8) != Array(all[through.count - 1].utf8))
    }

    /// WORDS.md §13: a number, a Roman numeral of i, v and x (up to six letters), or a district word.
    public static func designatesDistrict(_ word: [UInt8]) -> Bool {
        let text = String(decoding: word, as: UTF8.self)
        if !text.isEmpty && text.allSatisfy({ ("0" ... "9").contains($0) }) { return true }
        if !text.isEmpty && text.count <= 6 && text.allSatisfy({ "ivx".contains($0) }) { return true }
        return ["kerulet", "arrondissement", "kreis", "bezirk", "district", "distrito", "centro", "centre", "sector", "ward"]
            .contains(text)
    }

    /// A key without spaces, "ae", "oe", "ue" and "aa" read as a, o, u and a, left to right.
    public static func looseSpelling(_ key: String) -> String {
        var scalars = Array(key.unicodeScalars.filter { $0 != " " })
        var result = ""
        while !scalars.isEmpty {
            if scalars.count >= 2, ["ae", "oe", "ue", "aa"].contains(String(String.UnicodeScalarView(scalars[0 ..< 2]))) {
                result.unicodeScalars.append(scalars[0])
                scalars.removeFirst(2)
            } else {
                result.unicodeScalars.append(scalars.removeFirst())
            }
        }
        return result
    }

    /// WORDS.md §13's machine-made alternate: §5's test, or Latin letters mixed with another script's.
    public static func isJunkCandidate(_ name: String) -> Bool {
        if NaiveWordSearch.looksMachineMade(name) { return true }
        let letters = name.unicodeScalars.filter(\.properties.isAlphabetic)
        let isLatin = { (scalar: Unicode.Scalar) in scalar.value < 0x250 || (0x1E00 ... 0x1EFF).contains(scalar.value) }
        return letters.contains(where: isLatin) && letters.contains { !isLatin($0) }
    }

    /// Whether a city with `names` (the primary first; each as its suffix keys, the whole key
    /// first, and whether it looks machine-made) is named exactly by `key` (WORDS.md §13's
    /// forgiven rule): its posting for `key` (FORMAT.md §7.7: among the names the index keeps,
    /// §7.5, the primary name when it has the suffix key, else the lowest alternate whose
    /// posting is not demoted, else the lowest alternate) is of the whole name and not demoted.
    /// The index keeps an alternate unless each of its suffix keys starts a suffix key of a
    /// name kept before it that is no more demoted there (WORDS.md §5).
    public static func isNamedExactly<Key: Equatable & Collection>(by key: Key, names: [(suffixKeys: [Key], machineMade: Bool)]) -> Bool
    where Key.Element: Equatable {
        var kept: [(key: Key, demoted: Bool)] = []
        // The posting's name so far: its slot, word index and whether it is demoted.
        var posting: (slot: Int, word: Int, demoted: Bool)?
        for (slot, name) in names.enumerated() {
            let suffixes = name.suffixKeys.enumerated().map { (key: $1, demoted: slot > 0 && ($0 > 0 || name.machineMade)) }
            let isKept = slot == 0 || !suffixes.allSatisfy { suffix in
                kept.contains { $0.key.starts(with: suffix.key) && (!$0.demoted || suffix.demoted) }
            }
            guard isKept else { continue }
            kept.append(contentsOf: suffixes)
            guard let word = name.suffixKeys.firstIndex(of: key) else { continue }
            let demoted = suffixes[word].demoted
            if posting == nil || (posting!.slot > 0 && posting!.demoted && !demoted) { posting = (slot, word, demoted) }
        }
        guard let posting else { return false }
        return posting.word == 0 && !posting.demoted
    }
}
