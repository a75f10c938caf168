// AlternateNamesWriter.swift: the `ALTN` section (FORMAT.md §7.5), the writing twin of `AlternateNames`.
import CityIndex

/// Stores each city's alternate names, in search order, coded with the `SYMB` symbols: the
/// text of each name (its coded length as a varint, then the code), and where each city's
/// names start (a `u32` per block of `FormatConstants.alternateRanksPerBlock` cities, and each
/// city's distance from its block's start in a packed array).
///
/// Memory: one `u32` per block; the text and the distances spill to scratch files.
struct AlternateNamesWriter {
    private let symbols: NameSymbolsWriter
    private let directory: String
    private var text: SpillingByteBuffer
    private var blockStarts: [UInt32] = []
    private var distances: PackedValuesFile
    private var count = 0

    init(symbols: NameSymbolsWriter, directory: String) throws(IndexBuildError) {
        self.symbols = symbols
        self.directory = directory
        text = SpillingByteBuffer(file: try ScratchFile(directory: directory))
        distances = try PackedValuesFile(directory: directory)
    }

    /// Adds the alternate names of the next rank. O(their length).
    mutating func add(_ city: CityBlob) throws(IndexBuildError) {
        try recordStart()
        try city.forEachName { slot, name, _ throws(IndexBuildError) in
            guard slot > 0 else { return }
            let coded = symbols.encoded(Array(name)[...])
            try text.appendVarint(UInt32(coded.count))
            try text.append(coded)
        }
        count += 1
    }

    /// Where the names of the next rank start in the text.
    private mutating func recordStart() throws(IndexBuildError) {
        let start = text.count
        if count % FormatConstants.alternateRanksPerBlock == 0 { blockStarts.append(UInt32(truncatingIfNeeded: start)) }
        try distances.append(UInt64(start - Int(blockStarts[blockStarts.count - 1])))
    }

    /// The section: the header (the text's length), the block starts, the distances, the text.
    mutating func finish() throws(IndexBuildError) -> [SectionPart] {
        try recordStart()   // where the text ends
        try text.finish()
        var header = ByteBuffer()
        // Truncated when the text passes 4 GiB: IndexBuilder then refuses the section (BuildLimits).
        header.appendUInt32(UInt32(truncatingIfNeeded: text.count))
        header.appendUInt32(0)
        for start in blockStarts { header.appendUInt32(start) }
        header.pad(toMultipleOf: 8)
        return [.bytes(header.bytes)] + (try distances.packedArray(directory: directory)) + [.file(text.file)]
    }
}
