// WordPostingsWriter.swift: the `WPST` section (FORMAT.md §7.7), the writing twin of `WordPostings`.
import CityIndex

/// Writes the word postings, in `WNOD` entry order, as a packed array of (rank, slot and
/// demoted flag), the second field in the fewest bits that hold the largest.
///
/// Memory: O(1); the postings spill to a scratch file until every width is known.
struct WordPostingsWriter {
    private let directory: String
    private var values: PackedValuesFile
    private var largestField: UInt64 = 0

    init(directory: String) throws(IndexBuildError) {
        self.directory = directory
        values = try PackedValuesFile(directory: directory)
    }

    var count: Int { values.count }

    /// Adds the next posting.
    mutating func add(_ posting: PopulationOrderKey) throws(IndexBuildError) {
        let field = UInt64(posting.slot) << 1 | (posting.isDemoted ? 1 : 0)
        largestField = max(largestField, field)
        try values.append(UInt64(posting.rank) << 32 | field)
    }

    mutating func finish(cityCount: Int) throws(IndexBuildError) -> [SectionPart] {
        let slotWidth = bitWidth(holding: largestField)
        let rankWidth = bitWidth(holding: UInt64(max(cityCount - 1, 0)))
        var bits = try PackedBitsFileWriter(directory: directory)
        try values.forEachValue { value throws(IndexBuildError) in
            try bits.append((value >> 32) << UInt64(slotWidth) | (value & 0xFFFF_FFFF), width: rankWidth + slotWidth)
        }
        return [.bytes(PackedBitsFileWriter.arrayHeader(width: rankWidth, secondWidth: slotWidth, count: values.count)),
                .file(try bits.finish())]
    }
}
