// SearchCandidates+Overshadowing.swift: stage 4 of a search, overshadowed matches moved after the rest (WORDS.md §13).

extension SearchCandidates {
    /// The matches held in the order of WORDS.md §13: the overshadowed ones marked, all
    /// ordered by weight (`orderWeight(of:)`, an overshadowed match's divided), ties keeping
    /// the order held, but a match not overshadowed before one that is, and overshadowed ones
    /// in their marks' `tieOrder`.
    ///
    /// The first matches of a search, not all, can decide the first `needed`: whether a match
    /// is overshadowed is known from the matches before it, and a match not held weighs no
    /// more than the last held. Returns `nil` when the matches held do not decide the first
    /// `needed` (a longer run must be searched); `holdsAll` when they are every match.
    /// `exactNamePopulation`: the people of the most populous city the query names exactly,
    /// if it names one (`CityIndex.largestExactNamePopulation(of:)`, the forgiven rule's
    /// condition). `index` finds the cities an alternate name names (the named-city rule),
    /// charging `meter`.
    /// - Throws: `IndexFileError` when the index is damaged where the named-city rule reads it.
    /// - Complexity: O(*M* log *M*) for the *M* matches held, plus the covered words (O(length
    ///   of the name), once per match) of the alternate-name matches, the earlier matches of
    ///   100,000 people or more, and the candidates of a district and their parents. Up to
    ///   `OvershadowingMarker.shortListLimit` matches, earlier matches are found by scanning
    ///   them (O(*M*²) comparisons of integers at most); above, by hashing. For each distinct
    ///   alternate name matched and not marked otherwise, a walk of its key
    ///   (`CityIndex.largestCity(namedWhole:minimumPopulation:meter:)`).
    func movingOvershadowedMatches(needed: Int, holdsAll: Bool, exactNamePopulation: UInt32?, index: CityIndex,
                                   meter: SearchMeter?) throws(IndexFileError) -> SearchCandidates? {
        let held = entries
        guard !held.isEmpty else { return self }
        var marker = OvershadowingMarker(matches: self, held: held, exactNamePopulation: exactNamePopulation, index: index, meter: meter)
        var marks: [Overshadowing?] = []
        marks.reserveCapacity(held.count)
        var anyMarked = false
        for index in held.indices {
            let mark = try marker.mark(at: index)
            anyMarked = anyMarked || mark != nil
            marks.append(mark)
        }
        guard anyMarked else { return self }
        var marked = held
        for (index, mark) in marks.enumerated() { marked[index].overshadowing = mark }
        let weights = marked.map(orderWeight(of:))
        let order = marked.indices.sorted { a, b in
            if weights[a] != weights[b] { return weights[a] > weights[b] }
            if (marks[a] == nil) != (marks[b] == nil) { return marks[a] == nil }
            if let markA = marks[a], let markB = marks[b], markA.tieOrder != markB.tieOrder { return markA.tieOrder < markB.tieOrder }
            return a < b
        }
        // A match not held weighs at most `bound`: one held that is overshadowed comes before
        // them only when heavier. (One held that is not comes before them all, overshadowed
        // or not: an overshadowed match weighs at most a tenth of its weight.)
        let bound = orderWeight(of: held[held.count - 1])
        var decided = order.count
        if !holdsAll, let first = order.firstIndex(where: { marks[$0] != nil && weights[$0] <= bound }) { decided = first }
        guard holdsAll || decided >= needed else { return nil }
        return SearchCandidates(contents: contents, storage: .entries(order.prefix(decided).map { marked[$0] }), query: query,
                                totalCount: totalCount)
    }
}

/// The marks of WORDS.md §13 for one run of matches, given in order, one at a time: each
/// mark depends on the match and the ones before it, which the marker remembers (the
/// lenders of names, the parents of districts) and whose covered words it computes once.
private struct OvershadowingMarker {
    /// Runs up to which earlier matches are found by scanning them, not by hashing.
    static let shortListLimit = 64

    private let matches: SearchCandidates
    private let held: [SearchCandidates.Entry]
    private let contents: IndexContents
    /// For the cities an alternate name names (the named-city rule), and the meter it charges.
    private let index: CityIndex
    private let meter: SearchMeter?
    /// What each alternate's word key looked up names (`CityIndex.largestCity(namedWhole:minimumPopulation:meter:)`).
    private var namedCities: [[UInt8]: NamedCity] = [:]

    /// What is known of the largest city whose primary name is a key: that city, or that none
    /// has `minimum` people or more.
    private enum NamedCity {
        case largest(rank: Int, population: UInt32)
        case noneOf(minimum: UInt32)
    }
    private let populations: [UInt32]
    private let isShortList: Bool
    /// Each key's own cost (WORDS.md §8), for the typo edits of a match.
    private let keyCosts: [Int]
    /// The query as typed, read loosely, when the forgiven rule applies.
    private let looseQuery: [UInt8]?
    /// The fewest people of a city whose forgiven match weighs a tenth, not 0 (the forgiven rule).
    private let forgivenWeighsZeroBelow: UInt64
    /// Each match's covered words once computed (`.none` before); empty until the first is.
    private var covered: [CoveredWords??] = []
    /// The earlier matches that may lend their covered words (a city of `borrowingPopulation`
    /// or more, by its primary name or a whole alternate): all before `lendersKnown`.
    private var lenders: [Int] = []
    private var mostPeopleByLentWords: [ArraySlice<UInt8>: UInt32] = [:]
    private var lendersKnown = 0
    /// The earlier matches that can be a district's parent (by a primary name, of
    /// `districtParentPopulation` or more), with their countries: all before `parentsKnown`.
    private var parents: [(index: Int, country: UInt16)] = []
    private var mostPeopleByCountry: [UInt16: UInt32] = [:]
    private var parentsByName: [[UInt8]: [Int]] = [:]
    private var parentsKnown = 0

    init(matches: SearchCandidates, held: [SearchCandidates.Entry], exactNamePopulation: UInt32?, index: CityIndex, meter: SearchMeter?) {
        self.matches = matches
        self.held = held
        contents = matches.contents
        self.index = index
        self.meter = meter
        populations = held.map { matches.contents.population(ofRank: Int($0.rank)) }
        isShortList = held.count <= Self.shortListLimit
        var costs: [Int] = []
        var loose: [UInt8]?
        if case .typoTolerant(let matching, let keys, let keyCosts) = matches.query {
            costs = keyCosts
            if exactNamePopulation != nil, matching == .words, let typed = keys.first {
                var bytes: [UInt8] = []
                for value in typed { if let scalar = Unicode.Scalar(value) { bytes.append(contentsOf: String(scalar).utf8) } }
                loose = Overshadowing.looseSpelling(bytes)
            }
        }
        keyCosts = costs
        looseQuery = loose
        forgivenWeighsZeroBelow = UInt64(exactNamePopulation ?? 0) * Overshadowing.forgivenPopulationRatio
    }

    /// The mark of match `index`; the matches before it must have been given first.
    /// - Throws: `IndexFileError` when the named-city rule reads a damaged part of the index.
    mutating func mark(at index: Int) throws(IndexFileError) -> Overshadowing? {
        let entry = held[index]
        guard !entry.isInitialism else { return nil }
        let needsTypos = typoEdits(at: index) > 0
        // An alternate's whole word key, for the named-city rule.
        var alternateKey: [UInt8] = []
        if entry.slot > 0 {
            learnLenders(before: index)
            // The alternate read once: the junk test, its word key, and its covered words when a rule needs them.
            let hasLenders = isShortList ? !lenders.isEmpty : !mostPeopleByLentWords.isEmpty
            let table = contents.foldTable
            let isJunkCandidate = contents.withName(ofRank: Int(entry.rank), slot: Int(entry.slot)) { name in
                let isCandidate = Overshadowing.isJunkCandidate(name, foldTable: table)
                if (isCandidate && !needsTypos) || hasLenders { learnCoveredWords(index, name: name) }
                var wordStarts: [Int] = []
                WordKey.encode(utf8: name, with: table, into: &alternateKey, wordStarts: &wordStarts)
                return isCandidate
            }
            if isJunkCandidate && (needsTypos || coveredWords(index)?.endsInsideWord == true) { return .junk }
            if hasLenders && isBorrowed(index) { return .borrowedName }
        } else if populations[index] < Overshadowing.largestDistrictPopulation && isDistrict(index) {
            return .district
        }
        if needsTypos, let looseQuery, let mine = coveredWords(index),
           !Overshadowing.looseSpelling(mine.key).starts(with: looseQuery) {
            return UInt64(populations[index]) < forgivenWeighsZeroBelow ? .forgivenBesideExactName : .forgivenBesideSmallerExactName
        }
        if entry.slot > 0, try namesAnotherCity(index, alternateKey: alternateKey) { return .namesAnotherCity }
        return nil
    }

    /// Whether match `index`, by an alternate name of word key `alternateKey`, names another
    /// city: one whose primary name is that key whole and that has at least a
    /// `namedCityPopulationRatio`th of the people of the match's city. (The match's own city is
    /// not one: its primary name would have matched and been reported, WORDS.md §3.)
    private mutating func namesAnotherCity(_ index: Int, alternateKey: [UInt8]) throws(IndexFileError) -> Bool {
        let ratio = Overshadowing.namedCityPopulationRatio
        // The fewest people of a city that counts, rounded up.
        let minimum = UInt32((UInt64(populations[index]) + ratio - 1) / ratio)
        switch namedCities[alternateKey] {
        case .largest(let rank, let population)?: return population >= minimum && rank != Int(held[index].rank)
        case .noneOf(let known)? where known <= minimum: return false
        default: break
        }
        guard let (rank, population) = try self.index.largestCity(namedWhole: alternateKey, minimumPopulation: minimum, meter: meter) else {
            namedCities[alternateKey] = .noneOf(minimum: minimum)
            return false
        }
        namedCities[alternateKey] = .largest(rank: rank, population: population)
        return rank != Int(held[index].rank)
    }

    /// The edits match `index` needed beyond its key's own cost (WORDS.md §8).
    private func typoEdits(at index: Int) -> Int {
        let variant = Int(held[index].variant)
        return Int(held[index].edits) - (variant < keyCosts.count ? keyCosts[variant] : 0)
    }

    private mutating func coveredWords(_ index: Int) -> CoveredWords? {
        if covered.isEmpty || covered[index] == nil {
            contents.withName(ofRank: Int(held[index].rank), slot: Int(held[index].slot)) { learnCoveredWords(index, name: $0) }
        }
        return covered[index] ?? nil
    }

    /// Computes the covered words of match `index` from its matched name, `name`.
    private mutating func learnCoveredWords(_ index: Int, name: UnsafeRawBufferPointer) {
        let table = contents.foldTable
        if covered.isEmpty { covered = Array(repeating: nil, count: held.count) }
        if case .words(let key) = matches.query, !held[index].skipsWords {
            // An exact word query's covered words, in key space (the same as its highlight's).
            covered[index] = .some(CoveredWords(name: name, queryKey: key, table: table))
        } else {
            covered[index] = .some(CoveredWords(name: name, highlight: matches[index].highlightUTF16Range, table: table))
        }
    }

    /// Notes the lenders among the matches before `index` (WORDS.md §13's population test):
    /// a short list keeps the candidates (their covered words are computed when a later test
    /// passes); a long one, the most people by lent words.
    private mutating func learnLenders(before index: Int) {
        while lendersKnown < index {
            let lender = lendersKnown
            lendersKnown += 1
            guard populations[lender] >= Overshadowing.borrowingPopulation else { continue }
            if isShortList {
                lenders.append(lender)
            } else if let words = lentWords(lender) {
                mostPeopleByLentWords[words] = max(mostPeopleByLentWords[words] ?? 0, populations[lender])
            }
        }
    }

    /// Whether match `index`, an alternate whose lenders are known, borrowed its covered words.
    private mutating func isBorrowed(_ index: Int) -> Bool {
        // Only a match whose highlight ends at a word's end (the query's last word complete).
        guard let mine = coveredWords(index), !mine.endsInsideWord else { return false }
        let hasMoreWords = mine.nameWordCount > mine.wordCount
        if isShortList {
            for lender in lenders where hasMoreWords || populations[lender] > populations[index] {
                if lentWords(lender) == mine.key { return true }
            }
            return false
        }
        guard let mostPeople = mostPeopleByLentWords[mine.key] else { return false }
        return hasMoreWords || mostPeople > populations[index]
    }

    /// The covered words match `index` lends: all it covers when it matched by a primary
    /// name or covers an alternate whole, else none.
    private mutating func lentWords(_ index: Int) -> ArraySlice<UInt8>? {
        guard let words = coveredWords(index), held[index].slot == 0 || words.wordCount == words.nameWordCount else { return nil }
        return words.key
    }

    private mutating func isDistrict(_ index: Int) -> Bool {
        while parentsKnown < index {
            let parent = parentsKnown
            parentsKnown += 1
            guard held[parent].slot == 0 && populations[parent] >= Overshadowing.districtParentPopulation else { continue }
            let country = contents.records.countryCode(ofRank: Int(held[parent].rank))
            if isShortList {
                parents.append((parent, country))
            } else {
                mostPeopleByCountry[country] = max(mostPeopleByCountry[country] ?? 0, populations[parent])
                if let words = coveredWords(parent) { parentsByName[words.nameKey, default: []].append(parent) }
            }
        }
        let rank = Int(held[index].rank)
        let country = contents.records.countryCode(ofRank: rank)
        if isShortList {
            for (parent, parentCountry) in parents where parentCountry == country && isParent(parent, of: index, rank: rank) {
                return true
            }
            return false
        }
        guard let mostPeople = mostPeopleByCountry[country], mostPeople > populations[index],
              let mine = coveredWords(index) else { return false }
        // The parent's name is the first words of this one's.
        for end in mine.nameKey.indices where mine.nameKey[end] == 0x20 {
            for parent in parentsByName[Array(mine.nameKey[..<end])] ?? []
            where contents.records.countryCode(ofRank: Int(held[parent].rank)) == country && isParent(parent, of: index, rank: rank) {
                return true
            }
        }
        return false
    }

    /// Whether the earlier match `parent`, in the same country, is a parent of district
    /// candidate `index` (the city at `rank`): more people, the same covered words, a name the
    /// candidate's starts with, and near enough or a district's designation after it.
    private mutating func isParent(_ parent: Int, of index: Int, rank: Int) -> Bool {
        guard populations[parent] > populations[index], let mine = coveredWords(index), let theirs = coveredWords(parent),
              theirs.key == mine.key, mine.nameExtends(theirs) else { return false }
        // A name that goes on with a district's designation is one wherever it lies.
        if mine.words(after: theirs).contains(where: Overshadowing.designatesDistrict) { return true }
        let radius = Overshadowing.districtRadius(ofPopulation: populations[parent])
        // The latitudes alone put most candidates out of reach: the distance is at least the
        // meridian arc between them (a relative margin covers rounding).
        let records = contents.records
        let latitudeDifference = abs(GreatCircle.radians(records.latitudeMicrodegrees(ofRank: Int(held[parent].rank)))
                                     - GreatCircle.radians(records.latitudeMicrodegrees(ofRank: rank)))
        return GreatCircle.earthRadius * latitudeDifference <= radius * (1 + 1e-9)
            && Self.meters(between: Int(held[parent].rank), and: rank, in: contents) <= radius
    }

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
