// Populations.swift: the optional POPL section, one population per city (FORMAT.md §7.4).

/// The `POPL` section: `cityCount` populations in search order, `0xFFFFFFFF` for unknown.
/// Invariant (checked by `init(validating:cityCount:)`): exactly `cityCount` values.
struct Populations {
    private let bytes: ByteView

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        try section.requireByteCount(UInt64(cityCount) * 4, of: .population)
        bytes = section
    }

    /// The population of the city at `rank` (in `0 ..< cityCount`), `nil` when unknown. O(1).
    @inline(__always)
    func population(ofRank rank: Int) -> UInt32? {
        let value = bytes.uint32(uncheckedAt: rank * 4)
        return value == IndexLayout.unknownPopulation ? nil : value
    }
}
