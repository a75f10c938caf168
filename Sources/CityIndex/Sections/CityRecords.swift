// CityRecords.swift: the CITY section, one fixed-size record per city (FORMAT.md §7.1).

/// The `CITY` section: `cityCount` records of 20 bytes in search order.
///
/// Invariant (checked once by `init(validating:cityCount:)`): the section holds exactly
/// `cityCount` records, so every read of a rank in `0 ..< cityCount` is in bounds and
/// unchecked. Field values are not trusted here: a name location may point outside `NAME`
/// (`NameText` reads it as empty) and `verify()` checks every field.
struct CityRecords {
    private let bytes: ByteView

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        try section.requireByteCount(UInt64(cityCount) * UInt64(IndexLayout.cityRecordByteCount), of: .cities)
        bytes = section
    }

    @inline(__always)
    private func field32(_ fieldOffset: Int, ofRank rank: Int) -> UInt32 {
        bytes.uint32(uncheckedAt: rank * IndexLayout.cityRecordByteCount + fieldOffset)
    }

    /// The city's `_id`. `rank` in `0 ..< cityCount`. O(1).
    @inline(__always)
    func id(ofRank rank: Int) -> UInt32 { field32(IndexLayout.recordIDOffset, ofRank: rank) }

    /// Latitude in millionths of a degree. O(1).
    func latitudeMicrodegrees(ofRank rank: Int) -> Int32 {
        Int32(bitPattern: field32(IndexLayout.recordLatitudeOffset, ofRank: rank))
    }

    /// Longitude in millionths of a degree. O(1).
    func longitudeMicrodegrees(ofRank rank: Int) -> Int32 {
        Int32(bitPattern: field32(IndexLayout.recordLongitudeOffset, ofRank: rank))
    }

    /// Where the primary name lies in `NAME` (not checked against it). O(1).
    @inline(__always)
    func nameLocation(ofRank rank: Int) -> (offset: Int, byteCount: Int) {
        let base = rank * IndexLayout.cityRecordByteCount
        return (Int(bytes.uint32(uncheckedAt: base + IndexLayout.recordNameOffsetOffset)),
                Int(bytes.uint16(uncheckedAt: base + IndexLayout.recordNameByteCountOffset)))
    }

    /// The two country-code bytes, the first letter in the low byte. O(1).
    func countryCode(ofRank rank: Int) -> UInt16 {
        bytes.uint16(uncheckedAt: rank * IndexLayout.cityRecordByteCount + IndexLayout.recordCountryOffset)
    }
}
