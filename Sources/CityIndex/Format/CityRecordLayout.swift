// CityRecordLayout.swift: the bit widths of a CITY record (FORMAT.md §7.1).

/// Where each field of a `CITY` record lies in its bit-packed record, from the widths in the
/// section header. Shared by `CityRecords` (reader) and `CityRecordsWriter`.
///
/// A record is, in this order: id (`idWidth` bits), latitude + 90,000,000 (28 bits),
/// longitude + 180,000,000 (29 bits), name offset (`nameOffsetWidth`), name byte count
/// (`nameByteCountWidth`), country index (`countryWidth`): `recordWidth` bits in all.
package struct CityRecordLayout: Equatable, Sendable {
    package var idWidth: Int
    package var nameOffsetWidth: Int
    package var nameByteCountWidth: Int
    package var countryWidth: Int

    /// Fixed widths: latitudes and longitudes in millionths of a degree, shifted to be
    /// non-negative (−90…90° and −180…180° span 180,000,001 and 360,000,001 values).
    package static let latitudeWidth = 28
    package static let longitudeWidth = 29
    package static let latitudeBias: Int64 = 90_000_000
    package static let longitudeBias: Int64 = 180_000_000
    /// Largest widths a header may give (ids and name offsets are u32, byte counts and
    /// country indexes u16).
    package static let maximumWidths = (id: 32, nameOffset: 32, nameByteCount: 16, country: 16)
    /// Bytes before the country table: the four widths, country count, reserved.
    package static let headerByteCount = 8

    package init(idWidth: Int, nameOffsetWidth: Int, nameByteCountWidth: Int, countryWidth: Int) {
        self.idWidth = idWidth
        self.nameOffsetWidth = nameOffsetWidth
        self.nameByteCountWidth = nameByteCountWidth
        self.countryWidth = countryWidth
    }

    /// Whether every width is within its maximum.
    package var isValid: Bool {
        idWidth <= Self.maximumWidths.id && nameOffsetWidth <= Self.maximumWidths.nameOffset
            && nameByteCountWidth <= Self.maximumWidths.nameByteCount && countryWidth <= Self.maximumWidths.country
    }

    package var latitudeStart: Int { idWidth }
    package var longitudeStart: Int { latitudeStart + Self.latitudeWidth }
    package var nameOffsetStart: Int { longitudeStart + Self.longitudeWidth }
    package var nameByteCountStart: Int { nameOffsetStart + nameOffsetWidth }
    package var countryStart: Int { nameByteCountStart + nameByteCountWidth }
    package var recordWidth: Int { countryStart + countryWidth }

    /// Bytes of the country table, padded to a multiple of 8.
    package static func countryTableByteCount(countryCount: Int) -> Int { (2 * countryCount + 7) / 8 * 8 }

    /// The section's size for `cityCount` records and `countryCount` country codes.
    package func sectionByteCount(cityCount: Int, countryCount: Int) -> Int {
        Self.headerByteCount + Self.countryTableByteCount(countryCount: countryCount)
            + PackedBits.byteCount(bitCount: cityCount * recordWidth)
    }
}
