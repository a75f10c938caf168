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
    public enum Mark: String, Sendable { case junk, borrowedName, district, forgiven }

    /// The positions of `matches` in the order of §13, and each match's mark. `hasExactName`:
    /// some city's whole kept name is a key of the query that costs nothing; `typedKey`: the
    /// query's word key as typed.
    public static func ordered(_ matches: [Match], hasExactName: Bool, typedKey: String = "") -> (order: [Int], marks: [Mark?]) {
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
                    let meters = NaiveNearest.distance(latitude: parent.city.coord.lat, longitude: parent.city.coord.lon,
                                                       toLatitude: match.city.coord.lat, longitude: match.city.coord.lon)
                    return meters <= 2_000 + 10_000 * (Double(parentPopulation) / 1_000_000).squareRoot()
                }) { marks[index] = .district }
            }
            if marks[index] == nil && hasExactName && match.typoEdits > 0, let mine = covered[index],
               !Array(looseSpelling(mine.words.joined(separator: " ")).utf8).starts(with: Array(looseSpelling(typedKey).utf8)) {
                marks[index] = .forgiven
            }
        }
        let weights = zip(matches, marks).map { match, mark -> Int in
            switch mark {
            case nil: match.weight
            case .junk: 0
            case .borrowedName, .district: match.weight / 1_000
            case .forgiven: match.weight / 10
            }
        }
        let order = matches.indices.sorted { a, b in
            if weights[a] != weights[b] { return weights[a] > weights[b] }
            if (marks[a] == nil) != (marks[b] == nil) { return marks[a] == nil }
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

    /// Whether some name of `names` (the primary first; each as its suffix keys, the whole key
    /// first, and whether it looks machine-made) is `key` and is kept by the index (FORMAT.md
    /// §7.5: an alternate is dropped when its key is empty or each of its suffix keys starts a
    /// suffix key of a name kept before it that is no more demoted there, WORDS.md §5).
    public static func hasWholeName<Key: Equatable & Collection>(_ key: Key, names: [(suffixKeys: [Key], machineMade: Bool)]) -> Bool
    where Key.Element: Equatable {
        guard names.contains(where: { $0.suffixKeys.first == key }) else { return false }
        var kept: [(key: Key, demoted: Bool)] = []
        for (slot, name) in names.enumerated() {
            let suffixes = name.suffixKeys.enumerated().map { (key: $1, demoted: slot > 0 && ($0 > 0 || name.machineMade)) }
            let isKept = slot == 0 || !suffixes.allSatisfy { suffix in
                kept.contains { $0.key.starts(with: suffix.key) && (!$0.demoted || suffix.demoted) }
            }
            guard isKept else { continue }
            if name.suffixKeys.first == key { return true }
            kept.append(contentsOf: suffixes)
        }
        return false
    }
}
