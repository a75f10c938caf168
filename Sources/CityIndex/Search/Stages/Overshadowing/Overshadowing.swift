// Overshadowing.swift: the rules by which a match names another city than its own (WORDS.md §13).

/// Why population order moves a word match after others (WORDS.md §13): the query names
/// something else than this match's city.
///
/// A match of city *X* is **overshadowed**, by the first of these that applies, when
/// - **junk**: it matched a machine-made alternate name (WORDS.md §5, or one that mixes Latin
///   letters with another script's: "san frnandw ڈy apywr") with typos or inside a word
///   ("beijing" in "beijingusutoku"). It weighs 0.
/// - **borrowed name**: it matched an alternate name, with a highlight that ends at a word's
///   end, and an earlier match (in the order of
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
///   Domingo Este, Khartoum North), and *X* lies within `districtRadius(ofPopulation:)` of
///   *Y* ("Paris 15 Vaugirard" after Paris, "Zürich (Kreis 4)" after Zürich). It weighs a thousandth, so that it comes after the
///   towns that have its parent's name too (Dubai Investments Park, 160,000 people, after
///   the villages called Dubai in India, of 1,000 to 2,000).
/// - **forgiven beside an exact name**: it needed typos (edits beyond its key's own cost,
///   §8) that are not only spacing or transliterated vowels (the query as typed, without
///   spaces and with §8's digraphs read as vowels, does not start its covered words so read:
///   "lapaz" for "La Paz" and "koepenick" for "Köpenick" are not forgiven), and some city's
///   whole name is a key of the query that costs nothing ("wien" is Vienna's "Wien":
///   Wenzhou one typo away moves after it). It weighs a tenth, so a one-typo match comes
///   first when its city weighs a hundred times the exact one ("bogata": Bogotá, 7.7
///   million, before the villages called Bogata; "wien": Wenzhou, 2.65 million, after
///   Vienna's "Wien", which weighs a tenth of 1.69 million).
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
            let byte = name[position]
            if byte < 0x80 {
                // ASCII: a letter is Latin.
                position += 1
                let lowercase = byte | 0x20
                if lowercase >= UInt8(ascii: "a") && lowercase <= UInt8(ascii: "z") { latin = true }
                if latin && other { return true }
                continue
            }
            let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
            position += length
            guard scalar.properties.isAlphabetic else { continue }
            if scalar.value < 0x250 || (0x1E00 ... 0x1EFF).contains(scalar.value) { latin = true } else { other = true }
            if latin && other { return true }
        }
        return false
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
