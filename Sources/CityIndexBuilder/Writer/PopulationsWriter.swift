// PopulationsWriter.swift: encoder twin of Populations (FORMAT.md §7.4).
import CityIndex

/// Writes `POPL`: each rank's population plus one (0 for unknown), in the fewest bits that
/// hold the largest. O(*n*).
enum PopulationsWriter {
    static func sectionBytes(collection: CityCollection, order: SearchOrder) -> [UInt8] {
        let values = order.recordOfRank.map { recordIndex -> UInt64 in
            let population = collection.records[Int(recordIndex)].population
            return population == IndexLayout.unknownPopulation ? 0 : UInt64(population) + 1
        }
        return PackedBitsWriter.arraySection(values, width: bitWidth(holding: values.max() ?? 0))
    }
}
