// SearchExplanation.swift: what one search did, stage by stage, and why its first matches are where they are.

/// A search's trace (`CityIndex.explain(_:options:)`): the stages that ran (`SearchPlan`), in
/// the order they ran, and for the first matches the weight that placed each and what changed
/// it. What Elasticsearch's `explain` and Typesense's `text_match_info` give for a search.
///
/// Stage 4 (overshadowed matches) runs stages 1 to 3 again for a larger window when the
/// first matches do not decide: those runs appear before it, with their `window`, and its
/// own time, walks and nodes include theirs.
public struct SearchExplanation: Sendable {
    /// One stage that ran.
    public struct Stage: Sendable, Equatable {
        /// "forgiving walk", "skipped words", "qualifier", "page"…
        public let name: String
        /// The section of WORDS.md (or SEARCH.md) that specifies the stage.
        public let section: String
        /// How many matches the stage kept, for stages 1 to 3 (`Int.max`: every match); `nil`
        /// for the others.
        public let window: Int?
        public let duration: Duration
        /// The matches held before the stage, and after it.
        public let candidatesIn: Int
        public let candidatesOut: Int
        /// How many cities match after the stage (`CityMatches.totalCount`).
        public let totalCount: Int
        /// Trie walks the stage made (a typo-tolerant walk on two threads counts two) and the
        /// trie nodes they visited, its own searches' included (the qualifier's).
        public let walks: Int
        public let nodesVisited: Int
    }

    /// Why one of the first matches is where it is.
    public struct Ranking: Sendable {
        /// Its position among the matches, from 0.
        public let position: Int
        public let match: CityMatch
        /// What population order sorts by (WORDS.md §5–§13): the city's population with
        /// every factor of `factors` applied; with a location, the bias's score (§11).
        public let weight: Double
        /// What changed the weight, in the order applied: "population 2,138,551",
        /// "alternate name ÷10", "1 typo ÷10", "qualified by its place ×100"…
        public let factors: [String]
    }

    public let query: String
    public let options: SearchOptions
    public let stages: [Stage]
    /// The whole search, stages and tracing.
    public let duration: Duration
    /// The result: the same as `search(_:options:)`'s.
    public let matches: CityMatches
    /// The first matches' rankings (population order only: alphabetical order has no weights).
    public let rankings: [Ranking]

    init(query: String, options: SearchOptions, stages: [Stage], duration: Duration, matches: CityMatches, rankings: Int) {
        self.query = query
        self.options = options
        self.stages = stages
        self.duration = duration
        self.matches = matches
        guard options.order == .population, case .entries(let entries) = matches.storage else {
            self.rankings = []
            return
        }
        let candidates = matches.candidates
        let origin = options.near.map(LocationOrigin.init)
        self.rankings = entries.prefix(max(0, rankings)).enumerated().map { position, entry in
            var factors: [String] = []
            let ordered = candidates.weight(of: entry)
            var weight = ordered
            let population = candidates.contents.population(ofRank: Int(entry.rank))
            factors.append("population \(Self.groupedCount(Int(population)))")
            if entry.isInitialism {
                factors.append("initialism ×\(Int(Initialisms.populationFactor))")
            } else if entry.isWholeName {
                factors.append("the whole name typed ×\(WholeNames.populationFactor)")
            } else {
                if entry.slot != 0 { factors.append("alternate name ÷\(PopulationOrderKey.alternateNameDivisor)") }
                if entry.isDemoted && entry.slot != 0 { factors.append("demoted alternate ÷\(PopulationOrderKey.demotedDivisor)") }
                if entry.edits > 0 { factors.append("\(entry.edits) typo\(entry.edits == 1 ? "" : "s") in the name ÷\(Self.power(Int(entry.edits)))") }
                if entry.qualifierEdits > 0 {
                    factors.append("\(entry.qualifierEdits) typo\(entry.qualifierEdits == 1 ? "" : "s") in the place ÷\(Self.power(Int(entry.qualifierEdits)))")
                }
                if entry.skipsWords { factors.append("words skipped ÷\(PopulationOrderKey.editDivisor)") }
            }
            if let overshadowing = entry.overshadowing {
                switch overshadowing {
                case .junk: factors.append("machine-made name matched loosely ×0")
                case .borrowedName: factors.append("borrows a larger city's name ×0")
                case .district: factors.append("district of a larger city ×0")
                case .forgivenBesideExactName: factors.append("typos beside a city named exactly ×0")
                case .forgivenBesideSmallerExactName: factors.append("typos beside a far smaller city named exactly ÷10")
                case .namesAnotherCity: factors.append("an alternate that is another city's name ÷10")
                }
            }
            if entry.isQualified && entry.qualifierEdits == 0 {
                weight *= SearchCandidates.qualifiedBoost
                factors.append("in the place the query names ×\(Int(SearchCandidates.qualifiedBoost))")
            }
            if let origin {
                let meters = GreatCircle.meters(fromHaversine: origin.haversine(to: Int(entry.rank), in: candidates.contents))
                let score = LocationBias.score(weight: ordered, meters: meters)
                factors.append("\(Self.groupedCount(Int((meters / 1000).rounded()))) km away ×\(Self.decimal(score / (ordered + 1)))")
                weight = score
            }
            return Ranking(position: position, match: matches[position], weight: weight, factors: factors)
        }
    }

    /// 10 to the power of `edits`, as the divisor of that many edits.
    private static func power(_ edits: Int) -> Int {
        (0 ..< min(edits, 9)).reduce(1) { value, _ in value * Int(PopulationOrderKey.editDivisor) }
    }

    /// 2138551 as "2,138,551": how the factors and `city-search --explain` write counts.
    public static func groupedCount(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }

    /// A factor with two decimals: "37.79".
    static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
