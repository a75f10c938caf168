// PopulationsWriter.swift: the `POPL` section (FORMAT.md §7.4), the writing twin of `Populations`.
import CityIndex

/// Writes each city's population field (0 for unknown, else population + 1) as a packed array
/// in search order, in the fewest bits that hold the largest.
///
/// Memory: O(1); the bits spill to a scratch file.
struct PopulationsWriter {
    private let width: Int
    private var bits: PackedBitsFileWriter

    /// `nil` when no city has a population: the file then has no `POPL`.
    init?(largestField: UInt64, directory: String) throws(IndexBuildError) {
        width = bitWidth(holding: largestField)
        guard width > 0 else { return nil }
        bits = try PackedBitsFileWriter(directory: directory)
    }

    /// Adds the population of the next rank (`FormatConstants.unknownPopulation` when unknown).
    mutating func add(population: UInt32) throws(IndexBuildError) {
        try bits.append(population == FormatConstants.unknownPopulation ? 0 : UInt64(population) + 1, width: width)
    }

    mutating func finish(cityCount: Int) throws(IndexBuildError) -> [SectionPart] {
        [.bytes(PackedBitsFileWriter.arrayHeader(width: width, secondWidth: 0, count: cityCount)), .file(try bits.finish())]
    }
}
