// Populations.swift: the optional POPL section, one bit-packed population per city (FORMAT.md §7.4).

/// The `POPL` section: `cityCount` values in search order (`PackedArray`), each a population
/// plus one, 0 for unknown.
/// Invariant (checked by `init(validating:cityCount:)`): exactly `cityCount` values.
struct Populations {
    private let values: PackedArray

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        values = try PackedArray(validating: section, count: cityCount, of: .population)
    }

    /// Starts loading the population of `rank` (a hint). O(1).
    @inline(__always)
    func prefetch(rank: Int) { values.prefetch(rank) }

    /// The population of the city at `rank` (in `0 ..< cityCount`), `nil` when unknown. O(1).
    @inline(__always)
    func population(ofRank rank: Int) -> UInt32? {
        let value = values[rank]
        return value == 0 ? nil : UInt32(truncatingIfNeeded: value - 1)
    }
}
