// CityIndex+QualifiedSearch.swift: "paris tx", "london, uk": trailing words that name a place (WORDS.md §10).

extension CityIndex {
    /// The qualifier stage of `plan` (WORDS.md §10): the matches of a qualified reading of the
    /// query, which the search merges with the unqualified ones (`merged(with:order:)`), or
    /// `nil` when no reading keeps a city.
    ///
    /// Readings: with a comma, the words after the last comma qualify those before it; without
    /// one, the last three, two, then one words qualify the rest (longest first). A reading
    /// counts when its qualifier is a name, alias or code of a country or region of the index,
    /// and it keeps the matches of the words before it that are in one of those places; the
    /// first reading that keeps any is the result. Exact before forgiven: every reading whose
    /// qualifier names a place exactly is tried before any whose qualifier does so only with
    /// typos (names of 4 letters or more), and a reading's words are searched exactly before
    /// they are searched with the plan's typos and skipped words. Without a comma, a query
    /// whose words match a city exactly as typed is read as qualified only by an exact reading
    /// that keeps a city whose whole name (primary or alternate) is the words before the place:
    /// "san jose ca" is San Jose, California, "new york" and "san jo" stay names.
    ///
    /// - Complexity: one exact search of the whole query, then per reading a lookup of the
    ///   qualifier (a hash; O(place names) with typos) and every match of the leading words in
    ///   those places (`restrictedMatches(of:keeping:)`). The place names are indexed once per
    ///   file.
    func qualifiedMatches(of plan: SearchPlan) throws(IndexFileError) -> SearchCandidates? {
        guard contents.regions != nil || contents.countryNames != nil else { return nil }
        let readings = QualifiedReading.readings(of: plan.query)
        guard let first = readings.first else { return nil }
        let foldTable = contents.foldTable
        func searchPlan(_ query: String, limit: Int, typos: TypoTolerance) -> SearchPlan {
            var sub = SearchPlan(query: query, options: SearchOptions(matching: plan.matching, order: plan.order, limit: limit, typos: typos),
                                 allowsQualifiers: false, contents: contents)
            sub.meter = plan.meter
            return sub
        }
        // A query that names a city as typed is read as qualified only on the evidence of a
        // city whose whole name is the words before the place ("san jose ca", not "san jo").
        let isName = try first.followsComma ? false : run(searchPlan(plan.query, limit: 1, typos: .none)).totalCount > 0
        let places = contents.placeNames.index(of: contents)
        let keys = readings.map { SearchPlan.key(of: $0.qualifier, matching: .words, foldTable: foldTable) }
        for forgivesQualifier in isName ? [false] : [false, true] {
            for (reading, key) in zip(readings, keys) where !key.isEmpty {
                let named: [PlaceNameIndex.Place]
                var qualifierEdits = 0
                if forgivesQualifier {
                    let budget = plan.typos.budget(forLetterCount: Self.scalars(of: key).count { $0 != 0x20 })
                    guard budget > 0, places.places(named: key).isEmpty else { continue }
                    (named, qualifierEdits) = places.places(within: budget, of: key)
                } else {
                    named = places.places(named: key)
                }
                guard !named.isEmpty else { continue }
                let inPlaces = PlaceSet(named, in: contents)
                for typos in isName || plan.typos == .none ? [TypoTolerance.none] : [.none, plan.typos] {
                    let kept = try restrictedMatches(of: searchPlan(reading.leading, limit: .max, typos: typos), keeping: inPlaces.contains(rank:))
                    guard kept.totalCount > 0 else { continue }
                    if isName {
                        let leadingKey = SearchPlan.key(of: reading.leading, matching: .words, foldTable: foldTable)
                        guard (0 ..< kept.count).contains(where: { SearchPlan.key(of: kept[$0].matchedName, matching: .words, foldTable: foldTable) == leadingKey })
                        else { continue }
                    }
                    return qualifierEdits == 0 ? kept : kept.counting(qualifierEdits: qualifierEdits)
                }
            }
        }
        return nil
    }
}

/// One way to read a query as a city's words and a place's: "paris" and "tx".
struct QualifiedReading: Equatable {
    let leading: String
    let qualifier: String
    let followsComma: Bool

    /// The longest qualifier a query is read with, in words.
    static let longestQualifier = 3

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first ... last]
    }

    /// The readings of `query` to try, in order (WORDS.md §10).
    static func readings(of query: String) -> [QualifiedReading] {
        if let comma = query.lastIndex(of: ",") {
            let leading = trimmed(query[..<comma]), qualifier = trimmed(query[query.index(after: comma)...])
            guard !leading.isEmpty, !qualifier.isEmpty else { return [] }
            return [QualifiedReading(leading: String(leading), qualifier: String(qualifier), followsComma: true)]
        }
        let words = query.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2 else { return [] }
        return (1 ... min(longestQualifier, words.count - 1)).reversed().map { count in
            QualifiedReading(leading: words.dropLast(count).joined(separator: " "),
                             qualifier: words.suffix(count).joined(separator: " "), followsComma: false)
        }
    }
}

extension SearchCandidates {
    /// How much more a qualified match weighs than the same match of the whole query, when its
    /// place words name the place exactly.
    static let qualifiedBoost = 100.0

    /// These matches with `qualifierEdits` edits added for their place words, which named
    /// their place only with typos (WORDS.md §10).
    func counting(qualifierEdits: Int) -> SearchCandidates {
        holding(entries.map { entry in
            var entry = entry
            entry.qualifierEdits = UInt8(clamping: qualifierEdits)
            return entry
        }, totalCount: totalCount)
    }

    /// These qualified matches merged with `unqualified`, the matches of the whole query
    /// (WORDS.md §10): in population order by weight (which counts a qualifier's edits), a
    /// qualified match's multiplied by `qualifiedBoost` when its place words named the place
    /// exactly, ties qualified first, then in their own order; in alphabetical order the
    /// qualified ones first. A city in both is reported by its qualified match. O(*M* log *M*).
    func merged(with unqualified: SearchCandidates, order: ResultOrder) -> SearchCandidates {
        // Each match keeps its own query's highlight: the name part's for the qualified ones.
        let qualified = entries.map { entry in
            var entry = entry
            entry.isQualified = true
            return entry
        }
        let seen = Set(qualified.map(\.rank))
        let others = unqualified.entries.filter { !seen.contains($0.rank) }
        let all = qualified + others
        let totalCount = totalCount + unqualified.totalCount - (unqualified.entries.count - others.count)
        guard order == .population else {
            return SearchCandidates(contents: contents, storage: .entries(all), query: unqualified.query, qualifiedQuery: query,
                               totalCount: totalCount)
        }
        let scores = all.enumerated().map { position, entry in
            position < qualified.count && entry.qualifierEdits == 0 ? weight(of: entry) * Self.qualifiedBoost : weight(of: entry)
        }
        let order = all.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        return SearchCandidates(contents: contents, storage: .entries(order.map { all[$0] }), query: unqualified.query, qualifiedQuery: query,
                           totalCount: totalCount)
    }
}

/// Countries and regions as two bit tables, to test a city's places in O(1).
struct PlaceSet {
    private var countries: [Bool]
    private var regions: [Bool]
    private let contents: IndexContents

    init(_ places: [PlaceNameIndex.Place], in contents: IndexContents) {
        self.contents = contents
        countries = [Bool](repeating: false, count: contents.records.countryCount)
        regions = [Bool](repeating: false, count: contents.regions?.regionCount ?? 0)
        for place in places {
            switch place {
            case .country(let index) where index < countries.count: countries[index] = true
            case .region(let index) where index < regions.count: regions[index] = true
            default: break
            }
        }
    }

    /// Whether the city at `rank` is in one of the places: its country, or its region.
    func contains(rank: Int) -> Bool {
        if let country = contents.records.countryIndex(ofRank: rank), countries[country] { return true }
        if let region = contents.regions?.region(ofRank: rank), region < regions.count, regions[region] { return true }
        return false
    }
}
