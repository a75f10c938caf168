// NaivePublicSearch.swift: the whole search a user calls, composed from the references.
import CityIndex
import Foundation

/// `CityIndex.search(_:matching:order:limit:typos:countries:near:within:)` written out again
/// from WORDS.md over the naive references, stage by stage, the slow way:
///
/// 1. the cities the countries and the radius keep (WORDS.md §11: great-circle distance);
/// 2. the whole query's matches among them (`NaiveTypoSearch.scoredSearch`: §2–§9, with §12's
///    initialisms and §13's marks in word matching by population);
/// 3. §10: the readings of the query as a city's words and a place's, the places each names
///    (`NaivePlaces`), exact before forgiven, the first reading that keeps a city; merged with
///    the whole query's matches, a qualified match's weight times 100 unless its place was
///    named with typos, whose edits it then counts;
/// 4. §11: in population order near a point, the first 64 matches (all, with countries or a
///    radius) ordered by `(weight + 1) × (1 + 100 e^(−d / 50 km))`;
/// 5. the page.
///
/// The options are the library's own types (they are the question asked); the budgets, keys,
/// places, weights and distances are worked out here.
public struct NaivePublicSearch: Sendable {
    /// One expected match: the city, its edits (a qualifier's included), and its highlight
    /// `[start, length]` in UTF-16 units of the name reported.
    public struct Match: Equatable, Sendable, CustomStringConvertible {
        public let id: Int
        public let edits: Int
        public let matchedAlternateName: String?
        public let highlight: [Int]

        public init(id: Int, edits: Int, matchedAlternateName: String?, highlight: [Int]) {
            (self.id, self.edits, self.matchedAlternateName, self.highlight) = (id, edits, matchedAlternateName, highlight)
        }

        public var description: String {
            "\(id)\(matchedAlternateName.map { " matched \($0)" } ?? "") \(highlight) edits \(edits)"
        }
    }

    public struct Answer: Equatable, Sendable {
        public let matches: [Match]
        public let totalCount: Int
        /// How many of `matches` a qualified reading gave (WORDS.md §10), for test coverage;
        /// not compared.
        public let qualifiedCount: Int

        public init(matches: [Match], totalCount: Int, qualifiedCount: Int = 0) {
            (self.matches, self.totalCount, self.qualifiedCount) = (matches, totalCount, qualifiedCount)
        }

        public static func == (a: Answer, b: Answer) -> Bool { a.matches == b.matches && a.totalCount == b.totalCount }
    }

    private let words: NaiveTypoSearch
    private let prefix: NaiveTypoSearch
    private let places: NaivePlaces?

    /// How many matches the location bias orders again (WORDS.md §11).
    public static let biasCandidateCount = 64
    /// A qualified match's weight factor when its place was named exactly (WORDS.md §10).
    public static let qualifiedFactor = 100.0

    public init(cities: [ReferenceCity], places: NaivePlaces?) {
        words = NaiveTypoSearch(cities: cities, words: true)
        prefix = NaiveTypoSearch(cities: cities, words: false)
        self.places = places
    }

    /// The edit budget of `typos` for the query key `key` (WORDS.md §6).
    static func budget(_ typos: TypoTolerance, key: [UInt32]) -> Int {
        switch typos {
        case .none: 0
        case .automatic: NaiveTypoSearch.automaticBudget(queryKey: key)
        case .maximum(let n): min(max(n, 0), 3)
        }
    }

    /// Stage 2 for `text`: its matches among the cities `keeping` keeps, each alternate in the
    /// spelling closest to `typed` (the whole query as typed, WORDS.md §3).
    private func matches(of text: String, typed: String, matching: MatchMode, byPopulation: Bool, typos: TypoTolerance,
                         keeping: ((ReferenceCity) -> Bool)?, ranking: Bool) -> [NaiveTypoSearch.ScoredMatch] {
        let reference = matching == .words ? words : prefix
        let key = reference.queryKey(text)
        let keys = matching == .words ? NaiveTypoSearch.wordQueryKeyVariantsWithCosts(text) : [(key: key, cost: 0)]
        return reference.scoredSearch(queryKeys: keys.map(\.key), costs: keys.map(\.cost), budget: Self.budget(typos, key: key),
                                      byPopulation: byPopulation, skippingWords: matching == .words && typos != .none,
                                      keeping: keeping, ranking: ranking, typed: typed)
    }

    /// The readings of WORDS.md §10 rule 1: after the last comma; else the last 3, 2, 1 words.
    public static func readings(of query: String) -> [(leading: String, qualifier: String, followsComma: Bool)] {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        func trimmed(_ text: Substring) -> String {
            String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        }
        if let comma = query.lastIndex(of: ",") {
            let leading = trimmed(query[..<comma]), qualifier = trimmed(query[query.index(after: comma)...])
            return leading.isEmpty || qualifier.isEmpty ? [] : [(leading, qualifier, true)]
        }
        let parts = query.split(whereSeparator: isSpace)
        guard parts.count >= 2 else { return [] }
        return (1 ... min(3, parts.count - 1)).reversed().map { count in
            (parts.dropLast(count).joined(separator: " "), parts.suffix(count).joined(separator: " "), false)
        }
    }

    /// Stage 3's qualified matches: those of the first reading that keeps a city, with the
    /// edits its place words needed; `nil` when none does.
    private func qualified(_ query: String, matching: MatchMode, byPopulation: Bool, typos: TypoTolerance)
        -> (matches: [NaiveTypoSearch.ScoredMatch], qualifierEdits: Int)? {
        guard let places else { return nil }
        let readings = Self.readings(of: query)
        guard let first = readings.first else { return nil }
        // Rule 5: a query that matches a city exactly as typed is a name.
        let isName = !first.followsComma
            && !matches(of: query, typed: query, matching: matching, byPopulation: byPopulation, typos: .none, keeping: nil, ranking: false).isEmpty
        for forgiven in isName ? [false] : [false, true] {
            for reading in readings {
                let key = NaiveWordSearch.queryKey(reading.qualifier)
                guard !key.isEmpty else { continue }
                var named: Set<NaivePlaces.Place>
                var qualifierEdits = 0
                if forgiven {
                    let scalars = String(decoding: key, as: UTF8.self).unicodeScalars.map(\.value)
                    let budget = Self.budget(typos, key: scalars.filter { $0 != 0x20 })
                    guard budget > 0, places.named(key).isEmpty else { continue }
                    (named, qualifierEdits) = places.named(within: budget, of: key)
                } else {
                    named = places.named(key)
                }
                guard !named.isEmpty else { continue }
                for readingTypos in isName || typos == .none ? [TypoTolerance.none] : [.none, typos] {
                    let kept = matches(of: reading.leading, typed: query, matching: matching, byPopulation: byPopulation, typos: readingTypos,
                                       keeping: { NaivePlaces.contains(named, city: $0) }, ranking: false)
                    guard !kept.isEmpty else { continue }
                    if isName {
                        let leadingKey = NaiveWordSearch.queryKey(reading.leading)
                        guard kept.contains(where: { NaiveWordSearch.queryKey($0.match.matchedAlternateName ?? $0.city.name) == leadingKey })
                        else { continue }
                    }
                    return (kept, qualifierEdits)
                }
            }
        }
        return nil
    }

    /// The answer of `CityIndex.search` with these options.
    public func search(_ query: String, matching: MatchMode, order: ResultOrder, limit: Int, typos: TypoTolerance,
                       countries: Set<String>? = nil, near: (latitude: Double, longitude: Double)? = nil,
                       within: Double? = nil) -> Answer {
        let byPopulation = order == .population
        let within = near == nil ? nil : within
        let codes = countries.map { Set($0.map { $0.uppercased() }) }
        func distance(_ city: ReferenceCity) -> Double {
            guard let near else { return 0 }
            return NaiveNearest.distance(latitude: near.latitude, longitude: near.longitude, toLatitude: city.coord.lat, longitude: city.coord.lon)
        }
        let restriction: ((ReferenceCity) -> Bool)? = codes == nil && within == nil ? nil : { city in
            (codes?.contains(city.country) ?? true) && (within.map { distance(city) <= $0 } ?? true)
        }
        let isBiased = near != nil && byPopulation
        // How many matches the stages before the page hold.
        let held = restriction != nil ? Int.max : isBiased ? max(limit, Self.biasCandidateCount) : limit

        let whole = matches(of: query, typed: query, matching: matching, byPopulation: byPopulation, typos: typos, keeping: restriction, ranking: true)
        var result = whole.prefix(held).map { (scored: $0, edits: $0.match.edits, weight: $0.weight, isQualified: false) }
        var totalCount = whole.count
        if let (kept, qualifierEdits) = qualified(query, matching: matching, byPopulation: byPopulation, typos: typos) {
            let qualifiedMatches = kept.filter { restriction?($0.city) ?? true }.map { match in
                var weight = match.weight
                for _ in 0 ..< qualifierEdits { weight /= 10 }
                return (scored: match, edits: match.match.edits + qualifierEdits, weight: weight, isQualified: true)
            }
            let ids = Set(qualifiedMatches.map(\.scored.city.id))
            let others = result.filter { !ids.contains($0.scored.city.id) }
            totalCount = qualifiedMatches.count + totalCount - (result.count - others.count)
            var merged = qualifiedMatches + others
            if byPopulation {
                let scores = merged.map { $0.isQualified && qualifierEdits == 0 ? $0.weight * Self.qualifiedFactor : $0.weight }
                merged = merged.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.map { merged[$0] }
            }
            result = Array(merged.prefix(held))
        }
        if isBiased {
            // A whole name (WORDS.md §14) weighs its population alone here: nearness decides among namesakes.
            let scores = result.map { match in
                let weight = match.scored.isWholeName && !match.isQualified ? Double(match.scored.city.population ?? 0) : match.weight
                return (weight + 1) * (1 + 100 * exp(-distance(match.scored.city) / 50_000))
            }
            result = result.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.map { result[$0] }
        }
        let page = result.prefix(limit)
        return Answer(matches: page.map { item in
            Match(id: item.scored.city.id, edits: item.edits, matchedAlternateName: item.scored.match.matchedAlternateName,
                  highlight: item.scored.match.highlight)
        }, totalCount: totalCount, qualifiedCount: page.count(where: \.isQualified))
    }
}
