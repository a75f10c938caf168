// Overshadowing.swift: a borrowed name or a district comes after the city it names (WORDS.md §13).

/// Why population order moves a word match after others (WORDS.md §13): the query names
/// something else than this match's city.
///
/// A match of city *X* is **overshadowed**, by the first of these that applies, when
/// - **junk**: it matched a machine-made alternate name (WORDS.md §5, or one that mixes Latin
///   letters with another script's: "san frnandw ڈy apywr") with typos or inside a word
///   ("beijing" in "beijingusutoku"). It weighs 0.
/// - **borrowed name**: it matched an alternate name, and an earlier match (in the order of
///   §5–§12) of another city *Y* of `borrowingPopulation` people or more, by *Y*'s primary
///   name or by an alternate it covers whole, covers the same words (`CoveredWords`), while
///   the alternate has more words than it covers or *Y* has more people than *X* ("New York
///   Van Java" on Jakarta and "Phoenix City" on Warsaw after New York and Phoenix; "Peking"
///   on Kosciusko after Beijing's "Peking"; not "Luan'" on Lu'an after London's "Luan GJon").
///   It weighs a thousandth.
/// - **district**: it matched its primary name, and an earlier match of another city *Y* by
///   its primary name covers the same words, *X*'s name is *Y*'s words and more, in *Y*'s
///   country, *Y* has `districtParentPopulation` people or more and more than *X*, *X* has
///   fewer than `largestDistrictPopulation` (a place that large is a city of its own: Santo
///   Domingo Este, Khartoum North), and *X* lies within `districtRadius(ofPopulation:)` of *Y* ("Paris 15 Vaugirard" after Paris,
///   "Zürich (Kreis 4)" after Zürich). It weighs a thousandth, so that it comes after the
///   towns that have its parent's name too (Dubai Investments Park, 160,000 people, after
///   the villages called Dubai in India, of 1,000 to 2,000).
/// - **forgiven beside an exact name**: it needed typos (edits beyond its key's own cost,
///   §8) that are not only spacing or transliterated vowels (the query as typed, without
///   spaces and with §8's digraphs read as vowels, does not start its covered words so read:
///   "lapaz" for "La Paz" and "koepenick" for "Köpenick" are not forgiven), and some city's
///   whole name is a key of the query that costs nothing ("wien" is Vienna's "Wien":
///   Wenzhou one typo away moves after it). It weighs a tenth, so a one-typo match comes
///   first when its city weighs a hundred times the exact one ("bogata": Bogotá, 7.7
///   million, before Bogata, Texas; "wien": Wenzhou, 9 million, after Vienna's "Wien", which
///   weighs 190,000).
///
/// The query decides: "paris" covers the arrondissement's "Paris" as it covers Paris's, but
/// "paris 15" and "vaugirard" find no Paris before it, and "java" covers other words of "New
/// York Van Java".
package enum Overshadowing: UInt8, Sendable {
    case junk = 1
    case borrowedName = 2
    case district = 3
    case forgivenBesideExactName = 4

    /// The overshadowed weight of a match that weighs `weight`.
    func dividing(_ weight: UInt64) -> UInt64 {
        switch self {
        case .junk: 0
        case .borrowedName, .district: weight / 1_000
        case .forgivenBesideExactName: weight / 10
        }
    }

    /// `dividing(_:)` before integer rounding.
    func dividing(_ weight: Double) -> Double {
        switch self {
        case .junk: 0
        case .borrowedName, .district: weight / 1_000
        case .forgivenBesideExactName: weight / 10
        }
    }

    /// `key` read loosely for the forgiven rule: without spaces, each digraph of WORDS.md §8
    /// read as its vowel. O(length of the key).
    static func looseSpelling(_ key: some Sequence<UInt8>) -> [UInt8] {
        let squashed = key.filter { $0 != 0x20 }
        return TransliteratedVowels.collapsed(squashed)?.key ?? squashed
    }

    /// The fewest people of a city whose names others borrow.
    static let borrowingPopulation: UInt32 = 100_000

    /// The fewest people of a city that has districts.
    static let districtParentPopulation: UInt32 = 50_000

    /// The people of a place from which it is not a district, whatever its name.
    static let largestDistrictPopulation: UInt32 = 500_000

    /// How far from a city of `population` people its districts lie, in metres: 2 km plus
    /// 10 km per square root of a million people (12 km for one million, 33.6 km for ten).
    static func districtRadius(ofPopulation population: UInt32) -> Double {
        2_000 + 10_000 * (Double(population) / 1_000_000).squareRoot()
    }

    /// Whether an alternate name (UTF-8) is machine-made for the junk rule: WORDS.md §5's
    /// test, or Latin letters mixed with letters of another script. O(length of the name).
    static func isJunkCandidate(_ name: UnsafeRawBufferPointer, foldTable: FoldTable) -> Bool {
        if AlternateDemotion.looksMachineMade(name, foldTable: foldTable) { return true }
        var (latin, other) = (false, false)
        var position = 0
        while position < name.count {
            let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
            position += length
            guard scalar.properties.isAlphabetic else { continue }
            if scalar.value < 0x250 || (0x1E00 ... 0x1EFF).contains(scalar.value) { latin = true } else { other = true }
            if latin && other { return true }
        }
        return false
    }
}

extension CityMatches {
    /// The matches held in the order of WORDS.md §13: the overshadowed ones marked, all
    /// ordered by weight (`orderWeight(of:)`, an overshadowed match's divided), ties keeping
    /// the order held, but a match not overshadowed before one that is.
    ///
    /// The first matches of a search, not all, can decide the first `needed`: whether a match
    /// is overshadowed is known from the matches before it, and a match not held weighs no
    /// more than the last held. Returns
    /// `nil` when the matches held do not decide the first `needed` (a longer run must be
    /// searched); `holdsAll` when they are every match. `exactNameKeys`: whether some city's
    /// whole name is a key of the query that costs nothing (the forgiven rule applies).
    /// - Complexity: O(*M* log *M*) for the *M* matches held, plus covered words (O(length of
    ///   the name), once per match) for the alternate-name matches, the earlier matches of
    ///   100,000 people or more, and the candidates of a district and their parents. Up to
    ///   64 matches, a district's parents are tested one by one (O(*M*²) population, country
    ///   and distance tests at most); above, looked up by name.
    func movingOvershadowedMatches(needed: Int, holdsAll: Bool, hasExactName: Bool) -> CityMatches? {
        let held = entries
        guard !held.isEmpty else { return self }
        let marks = overshadowingMarks(of: held, hasExactName: hasExactName)
        guard marks.contains(where: { $0 != nil }) else { return self }
        var marked = held
        for (index, mark) in marks.enumerated() { marked[index].overshadowing = mark }
        let weights = marked.map(orderWeight(of:))
        let order = marked.indices.sorted { a, b in
            if weights[a] != weights[b] { return weights[a] > weights[b] }
            if (marks[a] == nil) != (marks[b] == nil) { return marks[a] == nil }
            return a < b
        }
        // A match not held weighs at most `bound`: one held that is overshadowed comes before
        // them only when heavier. (One held that is not comes before them all, overshadowed
        // or not: an overshadowed match weighs at most a tenth of its weight.)
        let bound = orderWeight(of: held[held.count - 1])
        var decided = order.count
        if !holdsAll, let first = order.firstIndex(where: { marks[$0] != nil && weights[$0] <= bound }) { decided = first }
        guard holdsAll || decided >= needed else { return nil }
        return CityMatches(contents: contents, storage: .entries(order.prefix(decided).map { marked[$0] }), query: query,
                           totalCount: totalCount)
    }

    /// Match counts up to which a district's parent is looked for among the earlier matches
    /// one by one (population, country and distance first); above, by name.
    private static let pairwiseDistrictLimit = 64

    /// The mark of each match of `held` (in order): how it is overshadowed, if it is.
    private func overshadowingMarks(of held: [Entry], hasExactName: Bool) -> [Overshadowing?] {
        let populations = held.map { contents.population(ofRank: Int($0.rank)) }
        let table = contents.foldTable
        var covered = [CoveredWords??](repeating: nil, count: held.count)
        func coveredWords(_ index: Int) -> CoveredWords? {
            if let known = covered[index] { return known }
            let highlight = self[index].highlightUTF16Range
            let words = contents.withName(ofRank: Int(held[index].rank), slot: Int(held[index].slot)) { name in
                CoveredWords(name: name, highlight: highlight, table: table)
            }
            covered[index] = .some(words)
            return words
        }
        // The query as typed, read loosely (the forgiven rule).
        var looseQuery: [UInt8]?
        if hasExactName, case .typoTolerant(.words, let keys, _) = query, let typed = keys.first {
            var bytes: [UInt8] = []
            for value in typed { if let scalar = Unicode.Scalar(value) { bytes.append(contentsOf: String(scalar).utf8) } }
            looseQuery = Overshadowing.looseSpelling(bytes)
        }
        // Borrowing: the covered words of the earlier matches of `borrowingPopulation` or more
        // by a primary name or a whole alternate, with the most people among them; those
        // before `lendersKnown` are in.
        var lenders: [ArraySlice<UInt8>: UInt32] = [:]
        var lendersKnown = 0
        // Districts: the earlier matches that can be a parent, by country (and, for long
        // lists, by name key); those before `parentsKnown` are in.
        var mostPeopleByCountry: [UInt16: UInt32] = [:]
        var parentsByCountry: [UInt16: [Int]] = [:]
        var parentsByName: [[UInt8]: [Int]] = [:]
        var parentsKnown = 0
        let pairwise = held.count <= Self.pairwiseDistrictLimit
        /// Whether match `index`, by its primary name, is a district of an earlier match.
        func isDistrict(_ index: Int) -> Bool {
            let x = Int(held[index].rank)
            let country = contents.records.countryCode(ofRank: x)
            guard let mostPeople = mostPeopleByCountry[country], mostPeople > populations[index] else { return false }
            func isParent(_ earlier: Int) -> Bool {
                let parent = Int(held[earlier].rank)
                guard populations[earlier] > populations[index],
                      contents.records.countryCode(ofRank: parent) == country,
                      Self.meters(between: parent, and: x, in: contents)
                        <= Overshadowing.districtRadius(ofPopulation: populations[earlier]),
                      let mine = coveredWords(index), let theirs = coveredWords(earlier) else { return false }
                return theirs.key == mine.key && mine.nameExtends(theirs)
            }
            if pairwise { return parentsByCountry[country]?.contains(where: isParent) == true }
            // The parent's name is the first words of this one's.
            guard let mine = coveredWords(index) else { return false }
            return mine.nameKey.indices.contains { end in
                mine.nameKey[end] == 0x20 && parentsByName[Array(mine.nameKey[..<end])]?.contains(where: isParent) == true
            }
        }
        var marks = [Overshadowing?](repeating: nil, count: held.count)
        for index in held.indices {
            let x = held[index]
            let needsTypos = typoEdits(of: x) > 0
            if x.isInitialism {
                // Never marked.
            } else if x.slot > 0, needsTypos || coveredWords(index)?.endsInsideWord == true,
                      contents.withName(ofRank: Int(x.rank), slot: Int(x.slot), { Overshadowing.isJunkCandidate($0, foldTable: table) }) {
                marks[index] = .junk
            } else if x.slot > 0 {
                while lendersKnown < index {
                    if populations[lendersKnown] >= Overshadowing.borrowingPopulation, let words = coveredWords(lendersKnown),
                       held[lendersKnown].slot == 0 || words.wordCount == words.nameWordCount {
                        lenders[words.key] = Swift.max(lenders[words.key] ?? 0, populations[lendersKnown])
                    }
                    lendersKnown += 1
                }
                if let mine = coveredWords(index), let lender = lenders[mine.key],
                   mine.nameWordCount > mine.wordCount || lender > populations[index] {
                    marks[index] = .borrowedName
                }
            } else {
                while parentsKnown < index {
                    if held[parentsKnown].slot == 0 && populations[parentsKnown] >= Overshadowing.districtParentPopulation {
                        let country = contents.records.countryCode(ofRank: Int(held[parentsKnown].rank))
                        mostPeopleByCountry[country] = Swift.max(mostPeopleByCountry[country] ?? 0, populations[parentsKnown])
                        if pairwise {
                            parentsByCountry[country, default: []].append(parentsKnown)
                        } else if let words = coveredWords(parentsKnown) {
                            parentsByName[words.nameKey, default: []].append(parentsKnown)
                        }
                    }
                    parentsKnown += 1
                }
                if populations[index] < Overshadowing.largestDistrictPopulation && isDistrict(index) { marks[index] = .district }
            }
            if marks[index] == nil && hasExactName && needsTypos, let looseQuery,
               let mine = coveredWords(index), !Overshadowing.looseSpelling(mine.key).starts(with: looseQuery) {
                marks[index] = .forgivenBesideExactName
            }
        }
        return marks
    }

    /// The edits of `entry` that are typos: its edits less its key's own cost (WORDS.md §8).
    private func typoEdits(of entry: Entry) -> Int {
        guard case .typoTolerant(_, _, let costs) = query else { return 0 }
        let variant = Int(entry.variant)
        return Int(entry.edits) - (variant < costs.count ? costs[variant] : 0)
    }
}

extension CityMatches {
    /// The great-circle distance between the cities at two ranks, in metres. O(1).
    private static func meters(between rank: Int, and other: Int, in contents: IndexContents) -> Double {
        let latitude = GreatCircle.radians(contents.records.latitudeMicrodegrees(ofRank: rank))
        let otherLatitude = GreatCircle.radians(contents.records.latitudeMicrodegrees(ofRank: other))
        let longitudeDifference = GreatCircle.radians(contents.records.longitudeMicrodegrees(ofRank: rank))
            - GreatCircle.radians(contents.records.longitudeMicrodegrees(ofRank: other))
        return GreatCircle.meters(fromHaversine: GreatCircle.haversine(latitude: latitude, cosLatitude: GreatCircle.cosine(latitude),
                                                                       otherLatitude: otherLatitude,
                                                                       longitudeDifference: longitudeDifference))
    }
}

extension CityIndex {
    /// Whether some city's whole name (its word key, WORDS.md §2) is one of `plan`'s keys
    /// that cost nothing (the key as typed, its abbreviation variants): the condition of
    /// §13's forgiven rule. A key's own postings come first below its node (`WPST` is sorted
    /// by key, buckets too), so the names read are those with a suffix key equal to the key,
    /// and one more. O(*v*·(*m* + those names)) for *v* keys of *m* bytes.
    func someNameIsWhole(of plan: SearchPlan) throws(IndexFileError) -> Bool {
        guard case .keyVariants(let keys, _) = plan.walk else { return false }
        let table = contents.foldTable
        var nameKey: [UInt8] = []
        var wordStarts: [Int] = []
        for (scalars, cost) in keys where cost == 0 {
            var key: [UInt8] = []
            for value in scalars { if let scalar = Unicode.Scalar(value) { key.append(contentsOf: String(scalar).utf8) } }
            guard !key.isEmpty, key.last != 0x20, let match = try wordMatch(forKey: key) else { continue }
            for position in match.entries {
                guard let (rank, slot, _) = contents.postings.posting(at: position) else { continue }
                contents.withName(ofRank: rank, slot: slot) { WordKey.encode(utf8: $0, with: table, into: &nameKey, wordStarts: &wordStarts) }
                if nameKey == key { return true }
                // Past the key's own postings: no later one is the key.
                guard wordStarts.contains(where: { nameKey.count - $0 == key.count && nameKey[$0...].elementsEqual(key) }) else { break }
            }
        }
        return false
    }
}
