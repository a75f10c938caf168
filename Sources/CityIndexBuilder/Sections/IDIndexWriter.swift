// IDIndexWriter.swift: the `IDIX` section (FORMAT.md §7.3), the writing twin of `IDIndex`.
import CityIndex

/// Sorts the cities' ranks by id and writes them as a packed array; two cities with one id
/// are an error naming both records' positions.
///
/// Memory: the external sort's budget; its runs spill to scratch files.
struct IDIndexWriter {
    private let directory: String
    private let ids: ExternalSorter
    private var record: [UInt8] = []

    init(directory: String, memoryBudget: Int) {
        self.directory = directory
        ids = ExternalSorter(memoryBudget: memoryBudget, directory: directory, prefix: { record in
            let entry = IDBlob(record)
            return UInt64(entry.id) << 32 | UInt64(entry.line)
        }) { a, b in
            let first = IDBlob(a), second = IDBlob(b)
            return (first.id, first.line, first.column) < (second.id, second.line, second.column)
        }
    }

    /// Adds the city of `rank`. O(1) amortized.
    mutating func add(_ city: CityBlob, rank: Int) throws(IndexBuildError) {
        record.removeAll(keepingCapacity: true)
        for value in [city.id, city.line, city.column, UInt32(rank)] {
            record.appendLittleEndian(value)
        }
        try ids.append(record)
    }

    /// The section: ranks by increasing id. Throws `invalidCityList` for a duplicate id.
    func finish(cityCount: Int) throws(IndexBuildError) -> [SectionPart] {
        let rankWidth = bitWidth(holding: UInt64(max(cityCount - 1, 0)))
        var bits = try PackedBitsFileWriter(directory: directory)
        let byID = try ids.sorted(mergeBufferBudget: 4 << 20)
        var previous: (id: UInt32, line: UInt32, column: UInt32)?
        while let bytes = try byID.next() {
            let entry = IDBlob(bytes)
            if let previous, previous.id == entry.id {
                throw .invalidCityList(CityListError(line: Int(entry.line), column: Int(entry.column), recordID: entry.id,
                                                     message: "duplicate _id \(entry.id): also at \(previous.line):\(previous.column)"))
            }
            previous = (entry.id, entry.line, entry.column)
            try bits.append(UInt64(entry.rank), width: rankWidth)
        }
        return [.bytes(PackedBitsFileWriter.arrayHeader(width: rankWidth, secondWidth: 0, count: cityCount)),
                .file(try bits.finish())]
    }
}

/// An entry of the id sort: id, line, column, rank (`u32` each).
private struct IDBlob {
    let id: UInt32, line: UInt32, column: UInt32, rank: UInt32

    init(_ bytes: UnsafeRawBufferPointer) {
        id = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        line = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        column = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        rank = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
    }
}
