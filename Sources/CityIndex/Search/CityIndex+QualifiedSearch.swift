// CityIndex+QualifiedSearch.swift: "paris tx", "london, uk": trailing words that name a place (WORDS.md §10).

extension CityIndex {
    /// The qualifier stage of `plan` (WORDS.md §10): the matches of a qualified reading of the
    /// query, which the search merges with the unqualified ones (`merged(with:order:)`), or
    /// `nil` when no reading keeps a city.
    ///
    /// Readings: with a comma, the words after the last comma qualify those before it; without
    /// one, the last three, two, then one words qualify the rest (longest first). A reading
    /// counts when its qualifier is a name, alias or code of a country or region of the index
    /// (with typos forgiven as the search forgives them, for names of 4 letters or more), and
    /// it keeps the matches of the words before it that are in one of those places; the first
    /// reading that keeps any is the result. Without a comma, a query whose words match a city
    /// exactly as typed is not read as qualified ("new york", "san jo").
    ///
    /// - Complexity: one exact search of the whole query, then per reading a lookup of the
    ///   qualifier (O(place names) with typos) and a search of the leading words without a
    ///   limit, O(its matches) to filter. The place names are indexed once per file.
    func qualifiedMatches(of plan: SearchPlan) throws(IndexFileError) -> CityMatches? {
        guard contents.regions != nil || contents.countryNames != nil else { return nil }
        let readings = QualifiedReading.readings(of: plan.query)
        guard let first = readings.first else { return nil }
        func search(_ query: String, limit: Int, typos: TypoTolerance) throws(IndexFileError) -> CityMatches {
            try run(SearchPlan(query: query, matching: plan.matching, order: plan.order, limit: limit, typos: typos,
                               countries: nil, allowsQualifiers: false, foldTable: contents.foldTable))
        }
        if !first.followsComma, try search(plan.query, limit: 1, typos: .none).totalCount > 0 { return nil }
        let places = contents.placeNames.index(of: contents)
        for reading in readings {
            let key = SearchPlan.key(of: reading.qualifier, matching: .words, foldTable: contents.foldTable)
            guard !key.isEmpty else { continue }
            var named = places.places(named: key)
            if named.isEmpty {
                let budget = plan.typos.budget(forLetterCount: Self.scalars(of: key).count { $0 != 0x20 })
                named = places.places(within: budget, of: key)
            }
            guard !named.isEmpty else { continue }
            let kept = try search(reading.leading, limit: .max, typos: plan.typos).keeping(places: Set(named))
            if kept.totalCount > 0 { return kept }
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

extension CityMatches {
    /// How much more a qualified match weighs than the same match of the whole query.
    static let qualifiedBoost = 100.0

    /// These qualified matches merged with `unqualified`, the matches of the whole query
    /// (WORDS.md §10): in population order by weight, a qualified match's multiplied by
    /// `qualifiedBoost`, ties qualified first, then in their own order; in alphabetical order the
    /// qualified ones first. A city in both is reported by its qualified match. O(*M* log *M*).
    func merged(with unqualified: CityMatches, order: ResultOrder) -> CityMatches {
        let qualified = entries
        let seen = Set(qualified.map(\.rank))
        let others = unqualified.entries.filter { !seen.contains($0.rank) }
        let all = qualified + others
        let totalCount = totalCount + unqualified.totalCount - (unqualified.entries.count - others.count)
        guard order == .population else {
            return CityMatches(contents: contents, storage: .entries(all), query: query, totalCount: totalCount)
        }
        let scores = all.enumerated().map { position, entry in
            position < qualified.count ? weight(of: entry) * Self.qualifiedBoost : weight(of: entry)
        }
        let order = all.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        return CityMatches(contents: contents, storage: .entries(order.map { all[$0] }), query: query, totalCount: totalCount)
    }

    /// The matches in one of `places`, in the same order; `totalCount` counts them. O(*M*).
    func keeping(places: Set<PlaceNameIndex.Place>) -> CityMatches {
        let records = contents.records, regions = contents.regions
        return filtered { rank in
            if let country = records.countryIndex(ofRank: rank), places.contains(.country(country)) { return true }
            if let region = regions?.region(ofRank: rank), places.contains(.region(region)) { return true }
            return false
        }
    }
}
