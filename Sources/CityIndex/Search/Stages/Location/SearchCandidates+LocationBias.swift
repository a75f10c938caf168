// SearchCandidates+LocationBias.swift: the location-bias stage of a search (WORDS.md §11).

extension SearchCandidates {
    /// The matches ordered by `LocationBias.score` from `point`, ties in their order; the same
    /// total. A whole name (WORDS.md §14) weighs its population alone here: nearness, not the
    /// name, decides among namesakes. O(*M* log *M*) for the *M* matches held (at most
    /// `LocationBias.candidateCount` when the plan asked for no more).
    func biased(toward point: Coordinate) -> SearchCandidates {
        let origin = LocationOrigin(point)
        let held = entries
        let scores = held.map { entry in
            LocationBias.score(weight: entry.isWholeName ? Double(contents.population(ofRank: Int(entry.rank))) : weight(of: entry),
                               meters: GreatCircle.meters(fromHaversine: origin.haversine(to: Int(entry.rank), in: contents)))
        }
        let order = held.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        return holding(order.map { held[$0] }, totalCount: totalCount)
    }
}
