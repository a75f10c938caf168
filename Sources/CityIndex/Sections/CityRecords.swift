// CityRecords.swift: the CITY section, one bit-packed record per city (FORMAT.md §7.1).

/// The `CITY` section: a header of field widths, the table of country codes, then `cityCount`
/// bit-packed records in search order (`CityRecordLayout`).
///
/// Invariant (checked once by `init(validating:cityCount:)`): the widths are within their
/// maximums and the section holds exactly the header, the country table and `cityCount`
/// records, so every read of a rank in `0 ..< cityCount` is in bounds and unchecked. Field
/// values are not trusted here: a name location may point outside `NAME` (`NameText` reads it
/// as empty), a country index outside the table reads as 0, and `verify()` checks every field.
struct CityRecords {
    private let layout: CityRecordLayout
    private let countryCodes: ByteView
    private let countryCount: Int
    private let records: PackedBits

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let widths = (0..<4).map { Int(section.uint8(at: $0) ?? 0) }
        let layout = CityRecordLayout(idWidth: widths[0], nameOffsetWidth: widths[1],
                                      nameByteCountWidth: widths[2], countryWidth: widths[3])
        let countryCount = Int(section.uint16(at: 4) ?? 0)
        let expected = layout.sectionByteCount(cityCount: cityCount, countryCount: countryCount)
        guard layout.isValid, section.count >= CityRecordLayout.headerByteCount else {
            throw .sectionSizeMismatch(section: .cities, byteCount: UInt64(section.count), expectedByteCount: UInt64(expected))
        }
        try section.requireByteCount(UInt64(expected), of: .cities)
        let tableByteCount = CityRecordLayout.countryTableByteCount(countryCount: countryCount)
        self.layout = layout
        self.countryCount = countryCount
        countryCodes = section.slice(uncheckedOffset: CityRecordLayout.headerByteCount, length: 2 * countryCount)
        records = PackedBits(words: section.slice(uncheckedOffset: CityRecordLayout.headerByteCount + tableByteCount,
                                                  length: section.count - CityRecordLayout.headerByteCount - tableByteCount))
    }

    @inline(__always)
    private func field(_ start: Int, width: Int, ofRank rank: Int) -> UInt64 {
        records.field(atBit: rank * layout.recordWidth + start, width: width)
    }

    /// Starts loading the record of `rank` (a hint). O(1).
    @inline(__always)
    func prefetch(rank: Int) { records.prefetch(atBit: rank * layout.recordWidth) }

    /// The city's `_id`. `rank` in `0 ..< cityCount`. O(1).
    @inline(__always)
    func id(ofRank rank: Int) -> UInt32 { UInt32(truncatingIfNeeded: field(0, width: layout.idWidth, ofRank: rank)) }

    /// Latitude in millionths of a degree (out of −90…90° only in a damaged file). O(1).
    func latitudeMicrodegrees(ofRank rank: Int) -> Int32 {
        let stored = Int64(field(layout.latitudeStart, width: CityRecordLayout.latitudeWidth, ofRank: rank))
        return Int32(stored - CityRecordLayout.latitudeBias)
    }

    /// Longitude in millionths of a degree (out of −180…180° only in a damaged file). O(1).
    func longitudeMicrodegrees(ofRank rank: Int) -> Int32 {
        let stored = Int64(field(layout.longitudeStart, width: CityRecordLayout.longitudeWidth, ofRank: rank))
        return Int32(stored - CityRecordLayout.longitudeBias)
    }

    /// Where the primary name lies in `NAME` (not checked against it). O(1).
    @inline(__always)
    func nameLocation(ofRank rank: Int) -> (offset: Int, byteCount: Int) {
        (Int(field(layout.nameOffsetStart, width: layout.nameOffsetWidth, ofRank: rank)),
         Int(field(layout.nameByteCountStart, width: layout.nameByteCountWidth, ofRank: rank)))
    }

    /// The two country-code bytes, the first letter in the low byte; 0 when the record's
    /// country index lies outside the table (a damaged file). O(1).
    func countryCode(ofRank rank: Int) -> UInt16 {
        let index = Int(field(layout.countryStart, width: layout.countryWidth, ofRank: rank))
        return index < countryCount ? countryCodes.uint16(uncheckedAt: 2 * index) : 0
    }
}
