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
///   It weighs 0.
/// - **district**: it matched its primary name, and an earlier match of another city *Y* by
///   its primary name covers the same words, *X*'s name is *Y*'s words and more, in *Y*'s
///   country, *Y* has `districtParentPopulation` people or more and more than *X*, *X* has
///   fewer than `largestDistrictPopulation` (a place that large is a city of its own: Santo
///   Domingo Este, Khartoum North), and *X* lies within `districtRadius(ofPopulation:)` of
///   *Y* or a word of its name after *Y*'s designates a district (`designatesDistrict(_:)`,
///   wherever *X* lies: "Budapest XVII. kerület", 16 km from Budapest's point) ("Paris 15
///   Vaugirard" after Paris, "Zürich (Kreis 4)" after Zürich). It weighs 0, so
///   that it comes after the towns that have its parent's name too (Dubai Investments Park,
///   160,000 people, after the villages called Dubai in India, of 1,000 to 2,000).
/// - **forgiven beside an exact name**: it needed typos (edits beyond its key's own cost,
///   §8) that are not only spacing or transliterated vowels (the query as typed, without
///   spaces and with §8's digraphs read as vowels, does not start its covered words so read:
///   "lapaz" for "La Paz" and "koepenick" for "Köpenick" are not forgiven), and the query
///   names some cities exactly (`CityIndex.largestExactNamePopulation(of:)`). It weighs 0 when *X* has
///   fewer than `forgivenPopulationRatio` times the people of the largest of them ("lyon":
///   London after every exact match; "wien": Wenzhou after Vienna's "Wien"), else a tenth
///   (`forgivenBesideSmallerExactName`: "bogata": Bogotá, 7.7 million, before the villages
///   called Bogata).
/// - **named city**: it matched an alternate name whose word key is the whole primary name of
///   another city *Y* (`CityIndex.largestCity(namedWhole:minimumPopulation:meter:)`), wherever *Y* is, and *Y* has
///   at least a `namedCityPopulationRatio`th of *X*'s people: "Saint George" on Freetown
///   (Saint George, UT has 9% of its people), "Cancun" on Changchun, "Islamabad" on
///   Chattogram; not "Canton" on Guangzhou (Canton, MI, the largest Canton, has 0.5% of its people). It weighs a
///   tenth (`namesAnotherCity`), so the alternate weighs a hundredth of *X*'s people, no more
///   than *Y*'s own name: the city the name is comes first.
///
/// Overshadowed matches of equal weight (most weigh 0) go in their marks' `tieOrder`: the
/// forgiven ones first, then borrowed names and districts, then junk.
///
/// The query decides: "paris" covers the arrondissement's "Paris" as it covers Paris's, but
/// "paris 15" and "vaugirard" find no Paris before it, and "java" covers other words of "New
/// York Van Java".
package enum Overshadowing: UInt8, Sendable {
    case junk = 1
    case borrowedName = 2
    case district = 3
    case forgivenBesideExactName = 4
    case forgivenBesideSmallerExactName = 5
    case namesAnotherCity = 6

    /// The overshadowed weight of a match that weighs `weight`.
    func dividing(_ weight: UInt64) -> UInt64 {
        switch self {
        case .junk, .borrowedName, .district, .forgivenBesideExactName: 0
        case .forgivenBesideSmallerExactName, .namesAnotherCity: weight / 10
        }
    }

    /// Where matches of equal weight go by their marks (after the matches not marked): the
    /// forgiven ones beside an exact name first, the junk last. Overshadowed matches of every
    /// kind but `forgivenBesideSmallerExactName` and `namesAnotherCity` weigh 0, so this is
    /// their order.
    var tieOrder: Int {
        switch self {
        case .forgivenBesideExactName: 0
        case .borrowedName, .district, .forgivenBesideSmallerExactName, .namesAnotherCity: 1
        case .junk: 2
        }
    }

    /// `dividing(_:)` before integer rounding.
    func dividing(_ weight: Double) -> Double {
        switch self {
        case .junk, .borrowedName, .district, .forgivenBesideExactName: 0
        case .forgivenBesideSmallerExactName, .namesAnotherCity: weight / 10
        }
    }

    /// `key` read loosely for the forgiven rule: without spaces, each digraph of WORDS.md §8
    /// read as its vowel. O(length of the key).
    static func looseSpelling(_ key: some Sequence<UInt8>) -> [UInt8] {
        let squashed = key.filter { $0 != 0x20 }
        return TransliteratedVowels.collapsed(squashed)?.key ?? squashed
    }

    /// How many times the people of the largest city named exactly a city must have, at least,
    /// for its forgiven match to weigh a tenth rather than 0 (WORDS.md §13's forgiven rule).
    static let forgivenPopulationRatio: UInt64 = 100

    /// The fewest people of a city whose names others borrow.
    static let borrowingPopulation: UInt32 = 100_000

    /// How many times the people of a city named by another's alternate name that other city
    /// may have, at most, for the alternate to be marked (WORDS.md §13's named-city rule).
    static let namedCityPopulationRatio: UInt64 = 100

    /// The fewest people of a city that has districts.
    static let districtParentPopulation: UInt32 = 50_000

    /// The people of a place from which it is not a district, whatever its name.
    static let largestDistrictPopulation: UInt32 = 500_000

    /// Words that make a name a district's after its city's name (folded, WORDS.md §1):
    /// "Budapest XVII. kerület", "Lyon 3e Arrondissement", "Zürich (Kreis 4)", "Madrid Centro".
    static let districtWords: Set<[UInt8]> = Set(["kerulet", "arrondissement", "kreis", "bezirk", "district", "distrito",
                                                  "centro", "centre", "sector", "ward"].map { Array($0.utf8) })

    /// Whether `word` (a word of a word key) designates a district: a number (digits), a Roman
    /// numeral of I, V and X up to six letters, or one of `districtWords`. O(length).
    static func designatesDistrict(_ word: ArraySlice<UInt8>) -> Bool {
        guard !word.isEmpty else { return false }
        if word.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) { return true }
        if word.count <= 6 && word.allSatisfy({ $0 == UInt8(ascii: "i") || $0 == UInt8(ascii: "v") || $0 == UInt8(ascii: "x") }) {
            return true
        }
        return districtWords.contains(Array(word))
    }

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
