// CityRecords.swift: the CITY section, one bit-packed record per city (FORMAT.md §7.1).

/// The `CITY` section: a header of field widths, the table of country codes, the start in
/// `NAME` of each block of ranks, the ids too wide for the records, then `cityCount`
/// bit-packed records in search order (`CityRecordLayout`).
///
/// Invariant (checked once by `init(validating:cityCount:)`): the header's values are within
/// their maximums and the section holds exactly the header, the country table, the name block
/// starts, the id exceptions and `cityCount` records, so every read of a rank in `0 ..< cityCount` is in bounds
/// and unchecked. Field values are not trusted here: a name location may point outside `NAME`
/// (`NameText` reads it as empty), a country index outside the table reads as 0, an escaped id
/// missing from the exception table reads as the escape value, and `verify()` checks every field.
struct CityRecords {
    private let countryCodes: ByteView
    /// The length of the country table.
    let countryCount: Int
    private let nameBlockStarts: ByteView
    private let nameBlockShift: Int
    /// (rank, id) pairs, `u32` each, in increasing rank order.
    private let idExceptions: ByteView
    /// How many (rank, id) pairs the exception table holds.
    let idExceptionCount: Int
    /// The id field's escape value (`UInt64.max`, never read, when there are no exceptions).
    let idEscape: UInt64
    private let records: PackedBits
    // The layout's values, held as plain integers for the reads below.
    private let recordWidth: Int
    private let idWidth: Int
    private let latitudeStart: Int, latitudeWidth: Int
    private let longitudeStart: Int, longitudeWidth: Int
    private let coordinateStep: Int64
    private let nameDeltaStart: Int, nameDeltaWidth: Int
    private let nameByteCountStart: Int, nameByteCountWidth: Int
    private let countryStart: Int, countryWidth: Int

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let values = (0..<4).map { Int(section.uint8(at: $0) ?? 0) }
        let layout = CityRecordLayout(idWidth: values[0], nameDeltaWidth: values[1], nameByteCountWidth: values[2],
                                      countryWidth: values[3], coordinateExponent: Int(section.uint8(at: 6) ?? 0),
                                      nameBlockShift: Int(section.uint8(at: 7) ?? 0),
                                      idExceptionCount: Int(section.uint32(at: 8) ?? 0))
        let countryCount = Int(section.uint16(at: 4) ?? 0)
        let expected = layout.isValid ? layout.sectionByteCount(cityCount: cityCount, countryCount: countryCount) : 0
        guard layout.isValid, section.count >= CityRecordLayout.headerByteCount else {
            throw .sectionSizeMismatch(section: .cities, byteCount: UInt64(section.count), expectedByteCount: UInt64(expected))
        }
        try section.requireByteCount(UInt64(expected), of: .cities)
        let tableByteCount = CityRecordLayout.countryTableByteCount(countryCount: countryCount)
        let startsByteCount = layout.nameBlockStartsByteCount(cityCount: cityCount)
        let exceptionsOffset = CityRecordLayout.headerByteCount + tableByteCount + startsByteCount
        let recordsOffset = exceptionsOffset + CityRecordLayout.idExceptionByteCount * layout.idExceptionCount
        self.countryCount = countryCount
        countryCodes = section.slice(uncheckedOffset: CityRecordLayout.headerByteCount, length: 2 * countryCount)
        nameBlockStarts = section.slice(uncheckedOffset: CityRecordLayout.headerByteCount + tableByteCount,
                                        length: 4 * layout.nameBlockCount(cityCount: cityCount))
        nameBlockShift = layout.nameBlockShift
        idExceptions = section.slice(uncheckedOffset: exceptionsOffset,
                                     length: CityRecordLayout.idExceptionByteCount * layout.idExceptionCount)
        idExceptionCount = layout.idExceptionCount
        idEscape = layout.idEscape
        records = PackedBits(words: section.slice(uncheckedOffset: recordsOffset, length: section.count - recordsOffset))
        recordWidth = layout.recordWidth
        idWidth = layout.idWidth
        (latitudeStart, latitudeWidth) = (layout.latitudeStart, layout.latitudeWidth)
        (longitudeStart, longitudeWidth) = (layout.longitudeStart, layout.longitudeWidth)
        coordinateStep = layout.coordinateStep
        (nameDeltaStart, nameDeltaWidth) = (layout.nameDeltaStart, layout.nameDeltaWidth)
        (nameByteCountStart, nameByteCountWidth) = (layout.nameByteCountStart, layout.nameByteCountWidth)
        (countryStart, countryWidth) = (layout.countryStart, layout.countryWidth)
    }

    @inline(__always)
    private func field(_ start: Int, width: Int, ofRank rank: Int) -> UInt64 {
        records.field(atBit: rank * recordWidth + start, width: width)
    }

    /// Starts loading the record of `rank` (a hint). O(1).
    @inline(__always)
    func prefetch(rank: Int) { records.prefetch(atBit: rank * recordWidth) }

    /// Starts loading the records of `ranks` (a hint): every cache line they span. O(count).
    @inline(__always)
    func prefetch(ranks: ClosedRange<Int>) {
        var bit = ranks.lowerBound * recordWidth
        let end = (ranks.upperBound + 1) * recordWidth
        while bit < end { records.prefetch(atBit: bit); bit += 512 }
        records.prefetch(atBit: end - 1)
    }

    /// The city's `_id`. `rank` in `0 ..< cityCount`. O(1), or O(log exceptions) for an id
    /// too wide for the record.
    @inline(__always)
    func id(ofRank rank: Int) -> UInt32 {
        let value = field(0, width: idWidth, ofRank: rank)
        guard value == idEscape else { return UInt32(truncatingIfNeeded: value) }
        return exceptionalID(ofRank: rank) ?? UInt32(truncatingIfNeeded: value)
    }

    /// Whether the record of `rank` sends its id to the exception table. O(1).
    func hasExceptionalID(rank: Int) -> Bool { field(0, width: idWidth, ofRank: rank) == idEscape }

    /// Exception `index` (in `0 ..< idExceptionCount`): its rank and id as stored (not
    /// checked). O(1).
    func idException(at index: Int) -> (rank: Int, id: UInt32) {
        (Int(idExceptions.uint32(uncheckedAt: 8 * index)), idExceptions.uint32(uncheckedAt: 8 * index + 4))
    }

    /// The id the exception table lists for `rank`: a binary search by rank. O(log exceptions).
    private func exceptionalID(ofRank rank: Int) -> UInt32? {
        var low = 0, high = idExceptionCount
        while low < high {
            let middle = (low + high) / 2
            let entry = idException(at: middle)
            if entry.rank < rank { low = middle + 1 } else if entry.rank > rank { high = middle } else { return entry.id }
        }
        return nil
    }

    /// Latitude in millionths of a degree (out of −90…90° only in a damaged file). O(1).
    func latitudeMicrodegrees(ofRank rank: Int) -> Int32 {
        let stored = Int64(field(latitudeStart, width: latitudeWidth, ofRank: rank))
        return Int32(truncatingIfNeeded: stored * coordinateStep - CityRecordLayout.latitudeBias)
    }

    /// Longitude in millionths of a degree (out of −180…180° only in a damaged file). O(1).
    func longitudeMicrodegrees(ofRank rank: Int) -> Int32 {
        let stored = Int64(field(longitudeStart, width: longitudeWidth, ofRank: rank))
        return Int32(truncatingIfNeeded: stored * coordinateStep - CityRecordLayout.longitudeBias)
    }

    /// Where the primary name lies in `NAME` (not checked against it): its block's start plus
    /// the record's distance from it. O(1).
    @inline(__always)
    func nameLocation(ofRank rank: Int) -> (offset: Int, byteCount: Int) {
        let blockStart = Int(nameBlockStarts.uint32(uncheckedAt: (rank >> nameBlockShift) << 2))
        return (blockStart + Int(field(nameDeltaStart, width: nameDeltaWidth, ofRank: rank)),
                Int(field(nameByteCountStart, width: nameByteCountWidth, ofRank: rank)))
    }

    /// The two country-code bytes, the first letter in the low byte; 0 when the record's
    /// country index lies outside the table (a damaged file). O(1).
    func countryCode(ofRank rank: Int) -> UInt16 {
        let index = Int(field(countryStart, width: countryWidth, ofRank: rank))
        return index < countryCount ? countryCodes.uint16(uncheckedAt: 2 * index) : 0
    }

    /// The record's index in the country table; `nil` when outside it (a damaged file). O(1).
    func countryIndex(ofRank rank: Int) -> Int? {
        let index = Int(field(countryStart, width: countryWidth, ofRank: rank))
        return index < countryCount ? index : nil
    }

    /// Entry `index` of the country table (in `0 ..< countryCount`), first letter in the low byte. O(1).
    func countryCode(atIndex index: Int) -> UInt16 { countryCodes.uint16(uncheckedAt: 2 * index) }
}
