// NaiveTypoSearch.swift: the reference of typo-tolerant search (WORDS.md §6), the slow way.
import Foundation

/// One expected typo-tolerant match: the city, the alternate name reported (`nil`: the
/// primary name), the highlight `[start, length]` in UTF-16 units of that name, and the edits.
public struct ReferenceTypoMatch: Equatable, Sendable, CustomStringConvertible {
    public let id: Int
    public let matchedAlternateName: String?
    public let highlight: [Int]
    public let edits: Int

    public init(id: Int, matchedAlternateName: String?, highlight: [Int], edits: Int) {
        self.id = id
        self.matchedAlternateName = matchedAlternateName
        self.highlight = highlight
        self.edits = edits
    }

    public var description: String {
        "\(id) \(matchedAlternateName.map { "matched \($0) " } ?? "")\(highlight) edits \(edits)"
    }
}

/// WORDS.md §6 implemented naively and independently of the index: for every name (prefix
/// matching: the primary name's folded key; word matching: every suffix key of every name),
/// the full Damerau–Levenshtein (optimal string alignment) table against the query key,
/// computed cell by cell, and the smallest distance to any prefix of the key; then the cities
/// sorted as §6 says.
public struct NaiveTypoSearch: Sendable {
    private struct Name: Sendable {
        let text: String
        /// Prefix matching: the folded name. Word matching: the suffix keys, with the
        /// scalar offset of each one's word in the name's scalars.
        let keys: [(key: [UInt32], wordStart: Int)]
        /// Whether the name looks machine-made (WORDS.md §5; only alternates are demoted).
        var machineMade = false
    }

    private struct Entry: Sendable {
        let city: ReferenceCity
        let alphabeticalPosition: Int
        let names: [Name]
    }

    private let entries: [Entry]
    private let words: Bool
    /// The cities by their primary name's word key (WORDS.md §13's named-city rule).
    private let namedCities: NaiveOvershadowing.NamedCities

    /// A reference for `.words` matching (`words`) or `.prefix` matching.
    public init(cities: [ReferenceCity], words: Bool) {
        self.words = words
        var memo: [Unicode.Scalar: String] = [:]
        func fold(_ scalar: Unicode.Scalar) -> String {
            if let known = memo[scalar] { return known }
            let folded = ReferenceFolding.fold(scalar)
            memo[scalar] = folded
            return folded
        }
        func foldedKey(_ text: String) -> [UInt32] { text.unicodeScalars.flatMap { fold($0).unicodeScalars.map(\.value) } }
        let sorted = cities.map { (city: $0, key: Array(foldedKey($0.name).map { String(Unicode.Scalar($0)!) }.joined().utf8)) }
            .sorted { a, b in
                if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
                if a.city.country != b.city.country { return Array(a.city.country.utf8).lexicographicallyPrecedes(Array(b.city.country.utf8)) }
                return a.city.id < b.city.id
            }.map(\.city)
        entries = sorted.enumerated().map { position, city in
            let texts = words ? [city.name] + (city.alternatenames ?? []) : [city.name]
            return Entry(city: city, alphabeticalPosition: position, names: texts.map { text in
                guard words else { return Name(text: text, keys: [(foldedKey(text), 0)]) }
                // Words: runs of non-separators of the folded name, each remembered with the
                // name scalar it starts at.
                var wordList: [(scalars: [UInt32], start: Int)] = []
                var current: [UInt32] = []
                var currentStart = 0
                for (offset, scalar) in text.unicodeScalars.enumerated() {
                    for folded in fold(scalar).unicodeScalars {
                        if NaiveWordSearch.isSeparator(folded) {
                            if !current.isEmpty { wordList.append((current, currentStart)) }
                            current = []
                        } else {
                            if current.isEmpty { currentStart = offset }
                            current.append(folded.value)
                        }
                    }
                }
                if !current.isEmpty { wordList.append((current, currentStart)) }
                let keys = wordList.indices.map { first -> (key: [UInt32], wordStart: Int) in
                    (Array(wordList[first...].map(\.scalars).joined(separator: [0x20])), wordList[first].start)
                }
                return Name(text: text, keys: keys, machineMade: NaiveWordSearch.looksMachineMade(text))
            })
        }
        namedCities = NaiveOvershadowing.namedCities(entries.map { entry in
            (city: entry.city, key: Array(String(String.UnicodeScalarView((entry.names[0].keys.first?.key ?? []).compactMap(Unicode.Scalar.init))).utf8))
        })
    }

    /// The budget of `TypoTolerance.automatic` (WORDS.md §6), written out again: 0 edits
    /// below 4 letters, 1 from 4, 2 from 8; letters are the key's scalars other than spaces.
    public static func automaticBudget(queryKey: [UInt32]) -> Int {
        let letters = queryKey.count { $0 != 0x20 }
        return letters >= 8 ? 2 : letters >= 4 ? 1 : 0
    }

    /// The query key: the folded query (prefix matching) or its word key (word matching).
    public func queryKey(_ query: String) -> [UInt32] {
        let bytes = words ? NaiveWordSearch.queryKey(query) : NaiveCitySearch.foldedQuery(query)
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.map(\.value)
    }

    /// WORDS.md §6's script classes: whether an edit may bring `scalar` into the name.
    private static func scriptClass(_ scalar: UInt32) -> Int? {
        if scalar < 0x250 { return 0 }
        if scalar < 0x800 { return Int(scalar / 128) }
        return nil
    }

    /// The distance table of `query` against `key`: the fewest edits from the query to any
    /// prefix of the key, and the length of the longest prefix with at most `within` edits
    /// (`nil` when there is none); `within` defaults to that fewest. `classes`: the query's
    /// script classes (`scriptClass`).
    static func prefixDistance(query: [UInt32], classes: Set<Int>, key fullKey: [UInt32], within: Int? = nil,
                               budget: Int = 3) -> (edits: Int, longest: Int?) {
        // A prefix longer than the query by more than the budget is more than the budget away.
        let key = fullKey.prefix(query.count + budget + 1)
        let infinity = 1_000_000
        func bringIn(_ scalar: UInt32) -> Int { scriptClass(scalar).map { classes.contains($0) } == true ? 1 : infinity }
        let n = query.count, m = key.count, width = n + 1
        var table = [Int](repeating: infinity, count: (m + 1) * width)
        for i in 0 ... n { table[i] = i }
        for j in stride(from: 1, through: m, by: 1) {
            let scalar = key[key.startIndex + j - 1]
            let cost = bringIn(scalar)
            table[j * width] = min(infinity, table[(j - 1) * width] + cost)
            for i in stride(from: 1, through: n, by: 1) {
                var value = min(table[(j - 1) * width + i - 1] + (scalar == query[i - 1] ? 0 : cost),
                                table[(j - 1) * width + i] + cost,
                                table[j * width + i - 1] + 1)
                if i >= 2, j >= 2, scalar == query[i - 2], key[key.startIndex + j - 2] == query[i - 1] {
                    value = min(value, table[(j - 2) * width + i - 2] + 1)
                }
                table[j * width + i] = min(value, infinity)
            }
        }
        let edits = (0 ... m).map { table[$0 * width + n] }.min()!
        let limit = within ?? edits
        let longest = (0 ... m).last { table[$0 * width + n] <= limit }
        return (edits, longest)
    }

    /// All matches within `budget` edits, in the order asked for: by population, the order
    /// of WORDS.md §5 with each edit dividing the weight by 10 again (ties: fewer edits, the
    /// undivided weight, then alphabetical); alphabetical, fewer edits first, then SEARCH.md order. Each city once,
    /// with its best (name, edits): the largest weight, then fewest edits, the largest
    /// undivided weight, then lowest slot
    /// (alphabetical: fewest edits, then lowest slot).
    public func search(_ query: String, budget: Int, byPopulation: Bool) -> [ReferenceTypoMatch] {
        search(queryKeys: [queryKey(query)], budget: budget, byPopulation: byPopulation, typed: query)
    }

    /// WORDS.md §7, written out again: a query word followed by another word (or a space)
    /// that is one of these abbreviations is also searched as each expansion.
    public static let abbreviations: [String: [String]] = [
        "st": ["saint", "sankt"], "ste": ["sainte"], "sta": ["santa"], "sto": ["santo"],
        "ft": ["fort"], "mt": ["mount", "mont"], "pt": ["port", "point"], "pto": ["puerto"], "pta": ["punta"],
    ]

    /// The keys a word query searches (WORDS.md §7, §8): as typed, then each combination of
    /// the expansions of its abbreviated words, at most 8; then each of these with its
    /// transliterated vowels collapsed, at most 16 keys in all.
    public func queryKeyVariants(_ query: String) -> [[UInt32]] { queryKeyVariantsWithCosts(query).map(\.key) }

    /// `queryKeyVariants` with the edits each key costs by itself: the number of digraphs
    /// collapsed (WORDS.md §8), 0 for the others.
    public func queryKeyVariantsWithCosts(_ query: String) -> [(key: [UInt32], cost: Int)] {
        Self.wordQueryKeyVariantsWithCosts(query)
    }

    /// `queryKeyVariantsWithCosts` (word matching), without an instance.
    public static func wordQueryKeyVariantsWithCosts(_ query: String) -> [(key: [UInt32], cost: Int)] {
        let typed = String(decoding: NaiveWordSearch.queryKey(query), as: UTF8.self)
        let pieces = typed.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var variants = [""]
        for (index, piece) in pieces.enumerated() {
            let followed = index < pieces.count - 1
            let choices = [piece] + (followed ? Self.abbreviations[piece] ?? [] : [])
            variants = Array(variants.flatMap { variant in choices.map { variant + $0 + (followed ? " " : "") } }.prefix(8))
        }
        // WORDS.md §8: each also with "ae", "oe", "ue" and "aa" read as a, o, u and a.
        var costs = [Int](repeating: 0, count: variants.count)
        for variant in variants {
            var collapsed = ""
            var count = 0
            var scalars = Array(variant.unicodeScalars)
            while !scalars.isEmpty {
                if scalars.count >= 2, ["ae", "oe", "ue", "aa"].contains(String(String.UnicodeScalarView(scalars[0 ..< 2]))) {
                    collapsed.unicodeScalars.append(scalars[0])
                    scalars.removeFirst(2)
                    count += 1
                } else {
                    collapsed.unicodeScalars.append(scalars.removeFirst())
                }
            }
            if count > 0 && variants.count < 16 {
                variants.append(collapsed)
                costs.append(count)
            }
        }
        return zip(variants, costs).map { ($0.unicodeScalars.map(\.value), $1) }
    }

    /// `search(_:budget:byPopulation:)` for several query keys at once (WORDS.md §7, §8): a city
    /// matches when it matches any; a match's edits are its key's cost plus its distance; it
    /// is reported by its best (name, edits), ties going to the earlier key.
    ///
    /// `skippingWords` (a forgiving word search, WORDS.md §9): when fewer than 20 cities
    /// match so, the cities with a name that has the words of the key as typed (the first
    /// key) in order with other words between them are added, weighed as one edit, reported
    /// with 0 edits; a city matched both ways keeps the better match. A match on a later word
    /// of an alternate, or on an alternate that looks machine-made, is demoted (WORDS.md §5):
    /// a tenth of an alternate's weight.
    public func search(queryKeys: [[UInt32]], costs: [Int]? = nil, budget: Int, byPopulation: Bool,
                       skippingWords: Bool = false, typed: String) -> [ReferenceTypoMatch] {
        scoredSearch(queryKeys: queryKeys, costs: costs, budget: budget, byPopulation: byPopulation, skippingWords: skippingWords,
                     typed: typed).map(\.match)
    }

    /// One match of `scoredSearch`, with what the later stages of a search weigh it by.
    public struct ScoredMatch: Sendable {
        public let match: ReferenceTypoMatch
        public let city: ReferenceCity
        /// The population-order weight before rounding (WORDS.md §11): the population (ten
        /// times it for an initialism), a tenth for an alternate and again when demoted (each
        /// rounded down), then a tenth per edit or for skipped words, then §13's division.
        public let weight: Double
        public let skipsWords: Bool
        /// Whether the match is §14's whole name (its weight is three times the population).
        public let isWholeName: Bool
    }

    /// `search(queryKeys:…)` with each match's weight, over the cities `keeping` keeps (the
    /// countries and radius of a search: the skipped-word stage still decides by every city's
    /// matches, WORDS.md §9; the initialisms and overshadowing marks come from the kept ones).
    /// `ranking`: whether §12's initialisms and §13's marks apply (a qualified reading's own
    /// search, WORDS.md §10, has neither). `typed`: the query as typed, whose letters outside
    /// ASCII choose the spelling of an alternate reported (WORDS.md §3).
    public func scoredSearch(queryKeys: [[UInt32]], costs: [Int]? = nil, budget: Int, byPopulation: Bool,
                             skippingWords: Bool = false, keeping: ((ReferenceCity) -> Bool)? = nil,
                             ranking: Bool = true, typed: String) -> [ScoredMatch] {
        let costs = costs ?? [Int](repeating: 0, count: queryKeys.count)
        var found: [(entry: Entry, slot: Int, edits: Int, weight: Int, undivided: Int, variant: Int, skips: Bool, demoted: Bool)] = []
        var initialisms = Set<Int>()
        // WORDS.md §14: per key that costs nothing, the most populous city whose primary name is
        // that whole key (ties: alphabetical), among every city; the variant it matched.
        var wholeNameVariants: [Int: Int] = [:]
        if ranking && words && byPopulation {
            for (variant, key) in queryKeys.enumerated() where costs[variant] == 0 && !key.isEmpty && key.last != 0x20 {
                let largest = entries.filter { $0.names[0].keys.first?.key == key }
                    .min { ($0.city.population ?? 0, -$0.alphabeticalPosition) > ($1.city.population ?? 0, -$1.alphabeticalPosition) }
                if let largest, wholeNameVariants[largest.city.id] == nil { wholeNameVariants[largest.city.id] = variant }
            }
        }
        for entry in entries {
            var best: (slot: Int, edits: Int, weight: Int, undivided: Int, variant: Int, demoted: Bool)?
            for (variant, key) in queryKeys.enumerated() where !key.isEmpty {
                let classes = Set(key.compactMap(Self.scriptClass))
                for (slot, name) in entry.names.enumerated() {
                    // Each key of the name on its own: a later word's is demoted (WORDS.md §5).
                    for (wordIndex, nameKey) in name.keys.enumerated() {
                        let distance = Self.prefixDistance(query: key, classes: classes, key: nameKey.key, budget: budget).edits
                        guard distance <= max(0, budget - costs[variant]) else { continue }
                        let demoted = slot > 0 && (wordIndex > 0 || name.machineMade)
                        let edits = distance + costs[variant]
                        var weight = entry.city.population ?? 0
                        if slot > 0 { weight /= 10 }
                        if demoted { weight /= 10 }
                        let undivided = weight
                        for _ in 0 ..< edits { weight /= 10 }
                        let candidate = (slot, edits, weight, undivided, variant, demoted)
                        if let current = best {
                            let better = byPopulation
                                ? (candidate.2, -candidate.1, candidate.3, demoted ? 0 : 1, -candidate.0, -candidate.4)
                                    > (current.weight, -current.edits, current.undivided, current.demoted ? 0 : 1, -current.slot, -current.variant)
                                : (candidate.1, demoted ? 1 : 0, candidate.0, candidate.4)
                                    < (current.edits, current.demoted ? 1 : 0, current.slot, current.variant)
                            if better { best = candidate }
                        } else {
                            best = candidate
                        }
                    }
                }
            }
            if var best {
                // WORDS.md §12: an initialism of the key as typed is the city's match, weighed
                // ten times its population.
                if ranking && words && byPopulation, let typed = queryKeys.first, typed.allSatisfy({ $0 < 0x80 }),
                   let slot = NaiveWordSearch.initialismSlot(names: entry.names.map(\.text), key: typed.map { UInt8($0) }) {
                    let weight = (entry.city.population ?? 0) * 10
                    best = (slot, 0, weight, weight, 0, false)
                    initialisms.insert(entry.city.id)
                } else if let variant = wholeNameVariants[entry.city.id] {
                    // WORDS.md §14: three times the population.
                    let weight = (entry.city.population ?? 0) * 3
                    best = (0, 0, weight, weight, variant, false)
                }
                found.append((entry, best.slot, best.edits, best.weight, best.undivided, best.variant, false, best.demoted))
            }
        }
        let typedWords = queryKeys.first.map(Self.skippedWordQuery) ?? nil
        let regular = found
        if words && skippingWords && found.count < 20, let typedWords {
            var foundAt: [Int: Int] = [:]
            for (position, match) in found.enumerated() { foundAt[match.entry.city.id] = position }
            for entry in entries {
                // The best matching name: not demoted first (WORDS.md §5: its match starts at a
                // later word, or it looks machine-made), then the lowest slot.
                var best: (demoted: Bool, slot: Int)?
                for (slot, name) in entry.names.enumerated() {
                    guard let wordIndex = name.keys.firstIndex(where: { Self.skippedWordLength(typedWords, in: $0.key) != nil }) else {
                        continue
                    }
                    let demoted = slot > 0 && (wordIndex > 0 || name.machineMade)
                    if best == nil || (demoted ? 1 : 0, slot) < (best!.demoted ? 1 : 0, best!.slot) { best = (demoted, slot) }
                }
                guard let best else { continue }
                let population = entry.city.population ?? 0
                let undivided = best.slot == 0 ? population : best.demoted ? population / 10 / 10 : population / 10
                let skip = (entry, best.slot, 1, undivided / 10, undivided, 0, true, best.demoted)
                guard let position = foundAt[entry.city.id] else {
                    found.append(skip)
                    continue
                }
                // A city matched without skipping keeps the better of its two matches.
                let current = found[position]
                let better = byPopulation
                    ? (skip.3, -skip.2, skip.4, skip.7 ? 0 : 1, -skip.1)
                        > (current.weight, -current.edits, current.undivided, current.demoted ? 0 : 1, -current.slot)
                    : (skip.2, skip.7 ? 1 : 0, skip.1) < (current.edits, current.demoted ? 1 : 0, current.slot)
                if better { found[position] = skip }
            }
            // None when even the least common word is in the names of more than 4,096 cities.
            let fewestCities = Self.skippedWordTrieKeys(typedWords).map { trieKey in
                entries.count { entry in entry.names.contains { $0.keys.contains { $0.key.starts(with: trieKey) } } }
            }.min() ?? 0
            if fewestCities > 4_096 { found = regular }
        }
        if let keeping { found = found.filter { keeping($0.entry.city) } }
        found.sort { a, b in
            if byPopulation {
                if a.weight != b.weight { return a.weight > b.weight }
                if a.edits != b.edits { return a.edits < b.edits }
                if a.undivided != b.undivided { return a.undivided > b.undivided }
            } else if a.edits != b.edits {
                return a.edits < b.edits
            }
            return a.entry.alphabeticalPosition < b.entry.alphabeticalPosition
        }
        let matches = found.map { entry, slot, edits, _, _, variant, skips, _ in
            // WORDS.md §3: the spelling closest to the query as typed.
            let slot = words ? NaiveWordSearch.spellingSlot(slot, of: entry.names.map(\.text), typed: typed) : slot
            let name = entry.names[slot]
            let key = queryKeys[variant]
            if skips, let typedWords {
                // From the earliest word whose suffix key matches to the last query word's letters.
                let (key, wordStart) = name.keys.first { Self.skippedWordLength(typedWords, in: $0.key) != nil }!
                return ReferenceTypoMatch(id: entry.city.id, matchedAlternateName: slot == 0 ? nil : name.text,
                                          highlight: highlight(of: name, wordStart: wordStart,
                                                               keyScalarCount: Self.skippedWordLength(typedWords, in: key)!),
                                          edits: 0)
            }
            return ReferenceTypoMatch(id: entry.city.id, matchedAlternateName: slot == 0 ? nil : name.text,
                                      highlight: highlight(of: name, queryKey: key, classes: Set(key.compactMap(Self.scriptClass)),
                                                           edits: edits - costs[variant], countsTrailingSpace: !words && budget == 0),
                                      edits: edits)
        }
        func scored(_ index: Int, mark: NaiveOvershadowing.Mark?) -> ScoredMatch {
            let item = found[index]
            var weight = Double(item.undivided)
            for _ in 0 ..< item.edits { weight /= 10 }
            switch mark {
            case nil: break
            case .junk, .borrowedName, .district, .forgiven: weight = 0
            case .forgivenBesideSmaller, .namedCity: weight /= 10
            }
            return ScoredMatch(match: matches[index], city: item.entry.city, weight: weight, skipsWords: item.skips,
                               isWholeName: wholeNameVariants[item.entry.city.id] != nil && item.edits == 0 && !item.skips)
        }
        guard ranking && words && byPopulation else { return matches.indices.map { scored($0, mark: nil) } }
        // WORDS.md §13: overshadowed matches move after others.
        let described = zip(found, matches).map { found, match in
            NaiveOvershadowing.Match(city: found.entry.city, name: found.entry.names[found.slot].text, isAlternate: found.slot > 0,
                                     highlight: match.highlight, weight: found.weight,
                                     typoEdits: found.skips ? 0 : found.edits - costs[found.variant],
                                     isInitialism: initialisms.contains(found.entry.city.id) && !found.skips)
        }
        let exactKeys = queryKeys.indices.filter { costs[$0] == 0 && !queryKeys[$0].isEmpty && queryKeys[$0].last != 0x20 }.map { queryKeys[$0] }
        let exactNamePopulation = entries.filter { entry in
            exactKeys.contains { key in
                NaiveOvershadowing.isNamedExactly(by: key, names: entry.names.map { (suffixKeys: $0.keys.map(\.key), machineMade: $0.machineMade) })
            }
        }.map { $0.city.population ?? 0 }.max()
        let typedKey = String(String.UnicodeScalarView((queryKeys.first ?? []).compactMap(Unicode.Scalar.init)))
        let (order, marks) = NaiveOvershadowing.ordered(described, exactNamePopulation: exactNamePopulation, typedKey: typedKey,
                                                        namedCities: namedCities)
        return order.map { scored($0, mark: marks[$0]) }
    }

    /// WORDS.md §6: the longest prefix of the key (of the earliest word whose suffix key has
    /// one) within `edits`; a trailing space is not highlighted, unless `countsTrailingSpace`
    /// (prefix matching with a budget of 0: the exact search, whose SEARCH.md §4 highlight
    /// covers a trailing space of the query); the highlight then follows SEARCH.md §4 (prefix
    /// matching) or WORDS.md §4 (word matching) for that many scalars.
    private func highlight(of name: Name, queryKey: [UInt32], classes: Set<Int>, edits: Int, countsTrailingSpace: Bool) -> [Int] {
        for (key, wordStart) in name.keys {
            guard var longest = Self.prefixDistance(query: queryKey, classes: classes, key: key, within: edits).longest else { continue }
            if longest > 0 && key[longest - 1] == 0x20 && !countsTrailingSpace { longest -= 1 }
            return highlight(of: name, wordStart: wordStart, keyScalarCount: longest)
        }
        return [0, 0]
    }

    /// The highlight `[start, length]` of the name scalars from scalar `wordStart` on whose
    /// folds give `keyScalarCount` key scalars, extended over scalars that fold to nothing.
    private func highlight(of name: Name, wordStart: Int, keyScalarCount longest: Int) -> [Int] {
        let scalars = Array(name.text.unicodeScalars)
        guard longest > 0 else {
            let start = scalars[..<wordStart].reduce(0) { $0 + $1.utf16.count }
            return [start, 0]
        }
        // The name scalars from the word's start whose folds give `longest` key scalars
        // (separators in a word key count once per run, as one space).
        var consumed = wordStart
        var produced = 0
        var separatorPending = false
        while consumed < scalars.count && produced < longest {
            for folded in ReferenceFolding.fold(scalars[consumed]).unicodeScalars {
                if words && NaiveWordSearch.isSeparator(folded) {
                    separatorPending = true
                } else {
                    if separatorPending { produced += 1 }
                    separatorPending = false
                    produced += 1
                }
            }
            consumed += 1
        }
        while consumed < scalars.count && ReferenceFolding.fold(scalars[consumed]).isEmpty { consumed += 1 }
        let start = scalars[..<wordStart].reduce(0) { $0 + $1.utf16.count }
        let length = scalars[wordStart ..< consumed].reduce(0) { $0 + $1.utf16.count }
        return [start, length]
    }

    /// WORDS.md §9, written out again: the query key's words, and whether the last is whole
    /// (the key ends with a space); `nil` below two words.
    static func skippedWordQuery(_ key: [UInt32]) -> (words: [[UInt32]], lastIsWhole: Bool)? {
        let words = key.split(separator: 0x20).map(Array.init)
        return words.count >= 2 ? (words, key.last == 0x20) : nil
    }

    /// The keys of §9's candidate count: each word followed by a space, but a last word that
    /// is not whole alone.
    static func skippedWordTrieKeys(_ query: (words: [[UInt32]], lastIsWhole: Bool)) -> [[UInt32]] {
        query.words.enumerated().map { index, word in
            index < query.words.count - 1 || query.lastIsWhole ? word + [0x20] : word
        }
    }

    /// How many scalars of `suffixKey` a §9 match covers (to the end of the last query word's
    /// letters), or `nil`: the first query word is the key's first word, every other one is a
    /// later word of the key in order (the last only starts its word unless whole; a whole word
    /// other than the key's last). Tries every choice of words, recursively.
    static func skippedWordLength(_ query: (words: [[UInt32]], lastIsWhole: Bool), in suffixKey: [UInt32]) -> Int? {
        // The key's words with their scalar offsets.
        var keyWords: [(word: [UInt32], offset: Int)] = []
        var offset = 0
        for word in suffixKey.split(separator: 0x20, omittingEmptySubsequences: false) {
            keyWords.append((Array(word), offset))
            offset += word.count + 1
        }
        func fits(_ queryIndex: Int, _ keyIndex: Int) -> Bool {
            let (word, keyWord) = (query.words[queryIndex], keyWords[keyIndex].word)
            let isLast = queryIndex == query.words.count - 1
            if isLast && !query.lastIsWhole { return keyWord.starts(with: word) }
            return keyWord == word && keyIndex < keyWords.count - 1
        }
        func match(_ queryIndex: Int, after keyIndex: Int) -> Int? {
            for next in keyIndex + 1 ..< keyWords.count where fits(queryIndex, next) {
                if queryIndex == query.words.count - 1 { return keyWords[next].offset + query.words[queryIndex].count }
                if let length = match(queryIndex + 1, after: next) { return length }
            }
            return nil
        }
        guard fits(0, 0) else { return nil }
        return match(1, after: 0)
    }
}
