// CityRecordsWriter.swift: the `CITY` section (FORMAT.md §7.1), the writing twin of `CityRecords`.
import CityIndex

/// Receives each city's record fields in search order and writes the `CITY` section.
///
/// A record's widths depend on every city (the largest id and its exceptions, the spread of
/// the name offsets within a block, the coarsest coordinate step), so the fields spill to a
/// scratch file (20 bytes a city: id, latitude, longitude, name offset, name length, country
/// index) and are packed by `finish` once the widths are chosen.
///
/// Memory: the country table and the choosers' O(1) state.
struct CityRecordsWriter {
    private let directory: String
    private let countries: [UInt16]
    /// The index in `countries` of each country code (a table, not a dictionary: read per city).
    private let countryIndex: [UInt16]
    private let nameByteCountWidth: Int
    /// Per city: id, latitude, longitude, name offset, name length, country index (20 bytes).
    private var fields: SpillingByteBuffer
    /// How many ranks share one start in `NAME` (chosen from every name offset).
    private var nameBlocks = NameBlockChooser()
    /// How wide a record's id is, and whether the widest ids are exceptions (from every id).
    private var idWidths = IDWidthChooser()
    /// The largest e ≤ 6 such that every coordinate is a multiple of 10^e millionths of a degree.
    private var coordinateExponent = CityRecordLayout.maximumCoordinateExponent
    private var count = 0

    /// - Parameters:
    ///   - countries: the distinct country codes of the list, in the order `CITY` lists them.
    ///   - largestNameByteCount: the longest primary name, in bytes.
    init(countries: [UInt16], largestNameByteCount: Int, directory: String) throws(IndexBuildError) {
        self.directory = directory
        self.countries = countries
        var countryIndex = [UInt16](repeating: 0, count: 1 << 16)
        for (index, country) in countries.enumerated() { countryIndex[Int(country)] = UInt16(index) }
        self.countryIndex = countryIndex
        nameByteCountWidth = bitWidth(holding: UInt64(largestNameByteCount))
        fields = SpillingByteBuffer(file: try ScratchFile(directory: directory))
    }

    /// Adds the record of the next rank, whose primary name is at `nameOffset` in `NAME`. O(1).
    mutating func add(_ city: CityBlob, nameOffset: Int) throws(IndexBuildError) {
        nameBlocks.add(offset: nameOffset)
        idWidths.add(id: city.id)
        narrowCoordinateExponent(city.latitudeMicrodegrees)
        narrowCoordinateExponent(city.longitudeMicrodegrees)
        try fields.appendLittleEndian(UInt64(city.id), byteCount: 4)
        try fields.appendLittleEndian(UInt64(UInt32(bitPattern: city.latitudeMicrodegrees)), byteCount: 4)
        try fields.appendLittleEndian(UInt64(UInt32(bitPattern: city.longitudeMicrodegrees)), byteCount: 4)
        try fields.appendLittleEndian(UInt64(nameOffset), byteCount: 4)
        try fields.appendLittleEndian(UInt64(city.name.count), byteCount: 2)
        try fields.appendLittleEndian(UInt64(countryIndex[Int(city.countryCode)]), byteCount: 2)
        count += 1
    }

    /// Lowers `coordinateExponent` until `microdegrees` is a multiple of 10^exponent.
    private mutating func narrowCoordinateExponent(_ microdegrees: Int32) {
        while coordinateExponent > 0, Int64(microdegrees) % CityRecordLayout.coordinateSteps[coordinateExponent] != 0 {
            coordinateExponent -= 1
        }
    }

    /// The section: the header, the country table, the records block by block of
    /// `2^nameBlockShift` ranks (each block's name start its smallest offset), then the id
    /// exceptions found on the way (as many as the layout says).
    mutating func finish() throws(IndexBuildError) -> [SectionPart] {
        let nameBlockChoice = nameBlocks.choice()
        let idChoice = idWidths.choice()
        let layout = CityRecordLayout(idWidth: idChoice.width, nameDeltaWidth: nameBlockChoice.deltaWidth,
                                      nameByteCountWidth: nameByteCountWidth,
                                      countryWidth: bitWidth(holding: UInt64(max(countries.count - 1, 0))),
                                      coordinateExponent: coordinateExponent, nameBlockShift: nameBlockChoice.shift,
                                      idExceptionCount: idChoice.exceptionCount)
        try fields.finish()
        var bits = try PackedBitsFileWriter(directory: directory)
        var reader = ScratchFileReader(fields.file, bufferByteCount: 1 << 20)
        defer { reader.deallocate() }
        let step = layout.coordinateStep
        let idEscape = layout.idEscape
        let blockSize = 1 << layout.nameBlockShift
        var blockStarts = ByteBuffer()
        var idExceptions = ByteBuffer()
        for blockFirst in stride(from: 0, to: count, by: blockSize) {
            let blockCount = min(blockSize, count - blockFirst)
            // Valid until the next read: every field of the block is read before it.
            let fields = try reader.next(20 * blockCount)
            func word(_ record: Int, _ offset: Int) -> UInt64 {
                UInt64(UInt32(littleEndian: fields.loadUnaligned(fromByteOffset: 20 * record + offset, as: UInt32.self)))
            }
            func half(_ record: Int, _ offset: Int) -> UInt64 {
                UInt64(UInt16(littleEndian: fields.loadUnaligned(fromByteOffset: 20 * record + offset, as: UInt16.self)))
            }
            var blockStart = UInt64.max
            for record in 0 ..< blockCount { blockStart = min(blockStart, word(record, 12)) }
            blockStarts.appendUInt32(UInt32(blockStart))
            for record in 0 ..< blockCount {
                let latitude = Int64(Int32(bitPattern: UInt32(word(record, 4)))) + CityRecordLayout.latitudeBias
                let longitude = Int64(Int32(bitPattern: UInt32(word(record, 8)))) + CityRecordLayout.longitudeBias
                var id = word(record, 0)
                if id >= idEscape {
                    idExceptions.appendUInt32(UInt32(blockFirst + record))
                    idExceptions.appendUInt32(UInt32(id))
                    id = idEscape
                }
                try bits.append(id, width: layout.idWidth)
                try bits.append(UInt64(latitude / step), width: layout.latitudeWidth)
                try bits.append(UInt64(longitude / step), width: layout.longitudeWidth)
                try bits.append(word(record, 12) - blockStart, width: layout.nameDeltaWidth)
                try bits.append(half(record, 16), width: layout.nameByteCountWidth)
                try bits.append(half(record, 18), width: layout.countryWidth)
            }
        }
        assert(idExceptions.bytes.count == CityRecordLayout.idExceptionByteCount * layout.idExceptionCount)
        var header = ByteBuffer()
        for width in [layout.idWidth, layout.nameDeltaWidth, layout.nameByteCountWidth, layout.countryWidth] {
            header.appendUInt8(UInt8(width))
        }
        header.appendUInt16(UInt16(countries.count))
        header.appendUInt8(UInt8(layout.coordinateExponent))
        header.appendUInt8(UInt8(layout.nameBlockShift))
        header.appendUInt32(UInt32(layout.idExceptionCount))
        header.appendUInt32(0)
        for country in countries { header.appendUInt16(country) }
        header.pad(toMultipleOf: 8)
        header.append(blockStarts.bytes)
        header.pad(toMultipleOf: 8)
        header.append(idExceptions.bytes)
        return [.bytes(header.bytes), .file(try bits.finish())]
    }
}
