// SearchRun.swift: executes a search plan's stages in order, and traces them when asked.

/// One execution of a `SearchPlan`: each stage in the plan's order takes the candidates of the
/// stage before it (`SearchCandidates`) and hands on its own. In debug builds the candidates'
/// invariants are checked after every stage. A traced run (`CityIndex.explain(_:options:)`)
/// records each stage's time, candidates in and out, and the walks and nodes it took.
///
/// Stages 1 to 3 keep a *window* of matches: the plan's `matchLimit`, or the larger window
/// stage 4 asks for when it runs them again.
struct SearchRun {
    let index: CityIndex
    private var plan: SearchPlan
    /// The stages run so far, when traced.
    private(set) var trace: [SearchExplanation.Stage]?
    /// A typo-tolerant walk's matches, kept for another window of stage 4.
    private var walked: [(match: TypoMatch, variant: Int)]?
    /// Stage 3b's whole names (WORDS.md §14), kept for another window of stage 4.
    private var wholeNames: [SearchCandidates.Entry]?

    init(_ plan: SearchPlan, on index: CityIndex, traced: Bool = false) {
        var plan = plan
        if plan.meter == nil && (index.searchEntryLimit != nil || traced) {
            plan.meter = SearchMeter(entryLimit: index.searchEntryLimit ?? .max)
        }
        self.index = index
        self.plan = plan
        trace = traced ? [] : nil
    }

    /// Runs every stage; the last one's candidates.
    mutating func execute() throws(IndexFileError) -> SearchCandidates {
        try run(stagesBefore: plan.stages.count, window: plan.matchLimit)
    }

    /// Runs the plan's first `end` stages from nothing, stages 1 to 3 keeping `window` matches.
    private mutating func run(stagesBefore end: Int, window: Int) throws(IndexFileError) -> SearchCandidates {
        var candidates = SearchCandidates.none(contents: index.contents, query: .prefix(foldedScalarCount: 0))
        for position in 0 ..< end {
            candidates = try run(stageAt: position, on: candidates, window: window)
        }
        return candidates
    }

    /// Runs stage `position` on `candidates`; traces it when the run is traced.
    private mutating func run(stageAt position: Int, on candidates: SearchCandidates,
                              window: Int) throws(IndexFileError) -> SearchCandidates {
        let stage = plan.stages[position]
        let clock = ContinuousClock()
        // Read only when traced: the clock, and the meter's counts before the stage.
        let before = trace == nil ? nil : (start: clock.now, walks: plan.meter?.walks ?? 0, nodes: plan.meter?.nodesVisited ?? 0)
        let result = try perform(stage, at: position, on: candidates, window: window)
        assert({ result.checkInvariants(); return true }())
        if let before {
            let kept = if case .walk = stage { plan.walkLimit(window: window) } else { window }
            trace?.append(SearchExplanation.Stage(
                name: stage.name.name, section: stage.name.section, window: stage.keepsWindow ? kept : nil,
                duration: clock.now - before.start, candidatesIn: candidates.count, candidatesOut: result.count,
                totalCount: result.totalCount, walks: (plan.meter?.walks ?? 0) - before.walks,
                nodesVisited: (plan.meter?.nodesVisited ?? 0) - before.nodes))
        }
        return result
    }

    private mutating func perform(_ stage: SearchPlan.Stage, at position: Int, on candidates: SearchCandidates,
                                  window: Int) throws(IndexFileError) -> SearchCandidates {
        switch stage {
        case .walk(let walk):
            return try index.walkMatches(walk, of: plan, limit: plan.walkLimit(window: window), walked: &walked)
        case .restrictedWalk(let restriction):
            return try index.restrictedMatches(of: plan, keeping: restriction.contains(rank:))
        case .skippedWords(let key):
            return try index.addingSkippedWordMatches(to: candidates, queryKey: key, order: plan.order, limit: window,
                                                      meter: plan.meter)
        case .initialisms(let key, let restriction):
            var initialisms = try index.initialismEntries(forKey: key, meter: plan.meter)
            if let restriction { initialisms = initialisms.filter { restriction.contains(rank: Int($0.rank)) } }
            return candidates.promoting(initialisms).limited(to: window)
        case .wholeNames(let restriction):
            // The same for every window of stage 4: found once.
            if wholeNames == nil {
                var found = try index.wholeNameEntries(forKeys: plan.costFreeKeys, meter: plan.meter)
                if let restriction { found = found.filter { restriction.contains(rank: Int($0.rank)) } }
                wholeNames = found
            }
            return candidates.promoting(wholeNames ?? []).limited(to: window)
        case .overshadowing:
            return try movingOvershadowedMatches(of: candidates, window: window, stagesBefore: position)
        case .qualifier(let restriction):
            guard var qualified = try index.qualifiedMatches(of: plan) else { return candidates }
            if let restriction { qualified = qualified.filtered(restriction.contains(rank:)) }
            return qualified.merged(with: candidates, order: plan.order).limited(to: plan.matchLimit)
        case .bias(let near):
            return candidates.biased(toward: near)
        case .page(let limit):
            return candidates.limited(to: limit)
        case .spellings(let typed):
            return candidates.reportingSpellings(closestTo: typed)
        }
    }

    /// Stage 4 (WORDS.md §13): the first matches decide the first `matchLimit` unless too many
    /// of them move; then the stages before it run again for twice as many, until they do or
    /// all are held.
    private mutating func movingOvershadowedMatches(of candidates: SearchCandidates, window: Int,
                                                    stagesBefore position: Int) throws(IndexFileError) -> SearchCandidates {
        var candidates = candidates, window = window
        let exactNamePopulation = plan.forgivesTypos ? try index.largestExactNamePopulation(of: plan) : nil
        while true {
            let holdsAll = candidates.count < window || candidates.count >= candidates.totalCount
            if let moved = try candidates.movingOvershadowedMatches(needed: plan.matchLimit, holdsAll: holdsAll,
                                                                     exactNamePopulation: exactNamePopulation, index: index,
                                                                     meter: plan.meter) {
                return moved.limited(to: plan.matchLimit)
            }
            window = window > Int.max / 2 ? .max : 2 * window
            // Another window reads about that many more entries.
            try plan.meter?.spend(min(window, candidates.totalCount))
            candidates = try run(stagesBefore: position, window: window)
        }
    }
}

extension CityIndex {
    /// Runs `plan` untraced (`SearchRun`).
    func run(_ plan: SearchPlan) throws(IndexFileError) -> SearchCandidates {
        var run = SearchRun(plan, on: self)
        return try run.execute()
    }
}
