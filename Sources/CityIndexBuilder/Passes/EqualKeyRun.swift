// EqualKeyRun.swift: consecutive cities in search order whose names fold to one key.
import CityIndex

/// The cities of one folded key, which the `NODE` trie stores as one key's entries: their
/// first rank and their population weights, in search order.
///
/// Memory: 4 bytes per city of the run.
struct EqualKeyRun {
    private(set) var key: [UInt8] = []
    private(set) var firstRank = 0
    private var weights: [UInt32] = []

    var isEmpty: Bool { weights.isEmpty }
    var count: Int { weights.count }

    /// Whether a city with `key` belongs to this run (false for the empty run).
    func contains(key other: UnsafeRawBufferPointer) -> Bool {
        !isEmpty && key.withUnsafeBytes { compareKeys(other, $0) } == 0
    }

    /// Empties the run and starts one for `key` at `rank`.
    mutating func start(key: UnsafeRawBufferPointer, rank: Int) {
        self.key = Array(key)
        firstRank = rank
        weights.removeAll(keepingCapacity: true)
    }

    /// Adds the next rank's population weight.
    mutating func add(weight: UInt32) { weights.append(weight) }

    /// The run's ranks in population order (FORMAT.md §1). O(*r* log *r*) for *r* cities.
    func ranksInPopulationOrder() -> [Int] {
        var ranks = Array(firstRank ..< firstRank + weights.count)
        if ranks.count > 1 { ranks.sort { orderKey(ofRank: $0) < orderKey(ofRank: $1) } }
        return ranks
    }

    /// The population order key of the primary name of `rank`, a rank of the run.
    func orderKey(ofRank rank: Int) -> PopulationOrderKey {
        PopulationOrderKey(population: weights[rank - firstRank], rank: rank, slot: 0)
    }
}
