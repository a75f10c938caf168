// CityPreparer.swift: the first pass of a build: each parsed city folded, filtered and encoded.
import CityIndex

/// Turns each parsed city into a `CityBlob` (its folded key, the alternate names worth
/// storing) and gathers what the later passes must know before they start: the widths of
/// the packed fields, the countries, whether any population is known, and a sample of
/// alternate-name text to train the symbol table on. Holds no city after `prepare` returns.
///
/// An alternate name is dropped when it could never be reported (WORDS.md §3): its word key
/// is empty, or each of its suffix keys starts a suffix key of a name kept before it, no more
/// demoted there (then every query it matches also matches that earlier name: "New York"
/// after "New York City").
/// A covered alternate is kept when it is another **spelling** of a kept alternate
/// (`isSpellingVariant`): the same word key and machine-made look, a letter outside ASCII, and
/// letters other than every kept spelling's but for case ("München" after "Munchen"), so that
/// a search can report the spelling closest to the query as typed.
struct CityPreparer {
    let folder: Folder
    let selection: AlternateNameSelection
    let limits: BuildLimits

    private(set) var cityCount = 0
    private(set) var largestID: UInt32 = 0
    private(set) var largestNameByteCount = 0
    /// Whether each country code (a `u16`) occurs: a table, not a set (consulted per city).
    private var countryOccurs = [Bool](repeating: false, count: 1 << 16)
    /// The country codes that occur, in increasing order.
    var countries: [UInt16] { countryOccurs.indices.filter { countryOccurs[$0] }.map { UInt16($0) } }
    /// The largest population plus one (0: none known).
    private(set) var largestPopulationField: UInt64 = 0
    private(set) var symbolSample = SymbolTrainingSample()
    /// Each distinct (country, region code) of the cities, numbered in order of first appearance.
    private(set) var regionNumbers: [RegionKey: UInt32] = [:]
    // Totals that a 32-bit offset of the format or the builder addresses (FORMAT.md §10).
    private var nameByteTotal = 0
    private var keyByteTotal = 0
    private var wordKeyByteTotal = 0
    private var wordTotal = 0
    private var nameTotal = 0

    init(folder: Folder, selection: AlternateNameSelection, limits: BuildLimits) {
        self.folder = folder
        self.selection = selection
        self.limits = limits
    }

    /// The word key of a name's UTF-8 (`WordKey`) and where its words start.
    private func wordKey(of name: [UInt8]) -> (key: [UInt8], starts: [Int]) {
        var key: [UInt8] = [], starts: [Int] = []
        name.withUnsafeBytes { WordKey.encode(utf8: $0, with: folder.table, into: &key, wordStarts: &starts) }
        return (key, starts)
    }

    /// Encodes `city` into `blob` (its previous contents replaced).
    /// - Throws: `CityListError` at the city's position when a 32-bit limit would be crossed.
    mutating func prepare(_ city: ParsedCity, into blob: inout [UInt8]) throws(CityListError) {
        var key: [UInt8] = []
        let primary = String(decoding: city.nameBytes, as: UTF8.self)
        folder.appendFolded(primary.unicodeScalars, to: &key)
        let (primaryWordKey, primaryStarts) = wordKey(of: city.nameBytes)
        var nameBytes = city.nameBytes.count, wordKeyBytes = primaryWordKey.count, words = primaryStarts.count
        // Arrays, not slices. Each with whether a match of it is demoted (never for the primary name's).
        var keptSuffixKeys: [(key: ArraySlice<UInt8>, isDemoted: Bool)] = primaryStarts.map { (primaryWordKey[$0...], false) }
        var kept: [(text: [UInt8], looksMachineMade: Bool, wordKey: [UInt8])] = []
        for alternate in city.alternateNames where selection.includes(alternate) {
            // A name slot is a u16 (FORMAT.md §10): alternates beyond 65,535 are not stored.
            guard kept.count < Int(UInt16.max) else { break }
            let (wordKey, starts) = wordKey(of: alternate)
            let looksMachineMade = alternate.withUnsafeBytes { AlternateDemotion.looksMachineMade($0, foldTable: folder.table) }
            let suffixes = starts.enumerated().map { wordIndex, start in
                (key: wordKey[start...], isDemoted: wordIndex > 0 || looksMachineMade)
            }
            let covered = suffixes.allSatisfy { suffix in
                keptSuffixKeys.contains { $0.key.starts(with: suffix.key) && (!$0.isDemoted || suffix.isDemoted) }
            }
            // Covered, it is kept only as another spelling of a kept alternate (WORDS.md §3).
            guard !covered || isSpellingVariant(alternate, wordKey: wordKey, looksMachineMade: looksMachineMade, of: kept) else {
                continue   // also when there are no words at all
            }
            keptSuffixKeys.append(contentsOf: suffixes)
            kept.append((alternate, looksMachineMade, wordKey))
            symbolSample.offer(alternate, cityID: city.id)
            nameBytes += alternate.count
            wordKeyBytes += wordKey.count
            words += starts.count
        }
        var regionField: UInt32 = 0
        if let code = city.region {
            let region = RegionKey(country: city.countryCode, code: code)
            if let number = regionNumbers[region] {
                regionField = number + 1
            } else {
                guard regionNumbers.count < limits.maximumRegionCount else {
                    throw CityListError(line: city.position.line, column: city.position.column, recordID: city.id,
                                        message: "the list has more than \(limits.maximumRegionCount) distinct regions "
                                            + "(FORMAT.md §10) at this record")
                }
                regionField = UInt32(regionNumbers.count) + 1
                regionNumbers[region] = regionField - 1
            }
        }
        CityBlob.encode(city, key: key, regionField: regionField, alternates: kept.map { ($0.text, $0.looksMachineMade) }, into: &blob)
        // A sort record's length is a u32 (`ExternalSorter`): only 65,535 alternates of
        // 65,535 bytes each could pass it.
        guard blob.count <= Int(UInt32.max) else {
            throw CityListError(line: city.position.line, column: city.position.column, recordID: city.id,
                                message: "the record's names and keys take more than 4 GiB; keep fewer alternate names")
        }

        cityCount += 1
        largestID = max(largestID, city.id)
        largestNameByteCount = max(largestNameByteCount, city.nameBytes.count)
        countryOccurs[Int(city.countryCode)] = true
        if let population = city.population { largestPopulationField = max(largestPopulationField, UInt64(population) + 1) }
        nameByteTotal += nameBytes
        keyByteTotal += key.count
        wordKeyByteTotal += wordKeyBytes
        wordTotal += words
        nameTotal += 1 + kept.count
        guard max(nameByteTotal, keyByteTotal, wordKeyByteTotal, wordTotal, nameTotal, cityCount) > limits.maximumArenaByteCount else { return }
        let totals: [(String, Int)] = [("name text", nameByteTotal), ("folded key text", keyByteTotal),
                                       ("word key text", wordKeyByteTotal), ("word starts", wordTotal),
                                       ("names", nameTotal), ("cities", cityCount)]
        for (what, count) in totals where count > limits.maximumArenaByteCount {
            throw CityListError(line: city.position.line, column: city.position.column, recordID: city.id,
                                message: "the list is too large for one index: its \(what) passes \(limits.maximumArenaByteCount) "
                                    + "(32-bit offsets, FORMAT.md §10) at this record; split the list into several indexes")
        }
    }
}

extension CityPreparer {
    /// Whether `alternate` (UTF-8, of word key `wordKey`) is another spelling of an alternate
    /// kept before it (WORDS.md §3): one of them has its word key and machine-made look, it
    /// has a letter outside ASCII, and its letters (`TypedLetters.letters(of:)`: by lowercase,
    /// marks and punctuation left out) are not theirs. O(length of the kept names of that key).
    func isSpellingVariant(_ alternate: [UInt8], wordKey: [UInt8], looksMachineMade: Bool,
                           of kept: [(text: [UInt8], looksMachineMade: Bool, wordKey: [UInt8])]) -> Bool {
        let letters = TypedLetters.letters(of: String(decoding: alternate, as: UTF8.self))
        guard letters.contains(where: { !$0.isASCII }) else { return false }
        let spellings = kept.filter { $0.wordKey == wordKey && $0.looksMachineMade == looksMachineMade }
        return !spellings.isEmpty && spellings.allSatisfy { TypedLetters.letters(of: String(decoding: $0.text, as: UTF8.self)) != letters }
    }
}

/// A first-level region as the cities name it: their country and the region's code.
struct RegionKey: Hashable {
    let country: UInt16
    let code: [UInt8]
}
