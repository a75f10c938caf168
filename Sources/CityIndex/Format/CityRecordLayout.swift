// CityRecordLayout.swift: the bit widths of a CITY record (FORMAT.md §7.1).

/// Where each field of a `CITY` record lies in its bit-packed record, and how the section
/// around the records is laid out, from the values in the section header. Shared by
/// `CityRecords` (reader) and `CityRecordsWriter`.
///
/// A record is, in this order: id (`idWidth` bits), latitude and longitude in steps of
/// 10^`coordinateExponent` millionths of a degree, shifted to be non-negative
/// (`latitudeWidth`, `longitudeWidth`, both implied by the exponent), the name's distance
/// from its block's start in `NAME` (`nameDeltaWidth`), the name's byte count
/// (`nameByteCountWidth`), the country index (`countryWidth`): `recordWidth` bits in all.
/// A name block is `1 << nameBlockShift` consecutive ranks sharing one `u32` start. When
/// `idExceptionCount` is not 0, an id field of all ones (`idEscape`) means that the id is in
/// the table of id exceptions, (rank, id) pairs in increasing rank order.
package struct CityRecordLayout: Equatable, Sendable {
    package var idWidth: Int
    package var nameDeltaWidth: Int
    package var nameByteCountWidth: Int
    package var countryWidth: Int
    /// Coordinates are stored in steps of 10^`coordinateExponent` millionths of a degree
    /// (0: six decimals; 1: five; … 6: whole degrees).
    package var coordinateExponent: Int
    /// log₂ of the ranks per name block.
    package var nameBlockShift: Int
    /// How many ids are too wide for `idWidth` and stored in the exception table.
    package var idExceptionCount: Int

    /// Latitudes −90…90° and longitudes −180…180° in millionths of a degree, shifted to be
    /// non-negative.
    package static let latitudeBias: Int64 = 90_000_000
    package static let longitudeBias: Int64 = 180_000_000
    /// Largest values a header may give (ids and name offsets are u32, byte counts and
    /// country indexes u16).
    package static let maximumWidths = (id: 32, nameDelta: 32, nameByteCount: 16, country: 16)
    package static let maximumCoordinateExponent = 6
    package static let maximumNameBlockShift = 16
    /// Bytes before the country table: the four widths, country count, exponent, shift,
    /// id exception count, reserved.
    package static let headerByteCount = 16
    /// Bytes per id exception: rank and id, `u32` each.
    package static let idExceptionByteCount = 8

    package init(idWidth: Int, nameDeltaWidth: Int, nameByteCountWidth: Int, countryWidth: Int,
                 coordinateExponent: Int, nameBlockShift: Int, idExceptionCount: Int) {
        self.idWidth = idWidth
        self.nameDeltaWidth = nameDeltaWidth
        self.nameByteCountWidth = nameByteCountWidth
        self.countryWidth = countryWidth
        self.coordinateExponent = coordinateExponent
        self.nameBlockShift = nameBlockShift
        self.idExceptionCount = idExceptionCount
    }

    /// Whether every value is within its maximum.
    package var isValid: Bool {
        idWidth <= Self.maximumWidths.id && nameDeltaWidth <= Self.maximumWidths.nameDelta
            && nameByteCountWidth <= Self.maximumWidths.nameByteCount && countryWidth <= Self.maximumWidths.country
            && coordinateExponent <= Self.maximumCoordinateExponent && nameBlockShift <= Self.maximumNameBlockShift
    }

    /// 10^e for each `coordinateExponent` e in 0 … 6: millionths of a degree per stored step.
    package static let coordinateSteps: [Int64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// 10^`coordinateExponent`: millionths of a degree per stored step.
    package var coordinateStep: Int64 { Self.coordinateSteps[min(coordinateExponent, Self.maximumCoordinateExponent)] }

    /// The id field's value that sends a reader to the exception table: all ones, or no
    /// value at all (`UInt64.max`) when the table is empty.
    package var idEscape: UInt64 { idExceptionCount == 0 ? .max : (1 << UInt64(idWidth)) - 1 }
    /// The fewest bits that hold 180,000,000 / step (28 at six decimals).
    package var latitudeWidth: Int { bitWidth(holding: UInt64(2 * Self.latitudeBias / coordinateStep)) }
    /// The fewest bits that hold 360,000,000 / step (29 at six decimals).
    package var longitudeWidth: Int { bitWidth(holding: UInt64(2 * Self.longitudeBias / coordinateStep)) }

    package var latitudeStart: Int { idWidth }
    package var longitudeStart: Int { latitudeStart + latitudeWidth }
    package var nameDeltaStart: Int { longitudeStart + longitudeWidth }
    package var nameByteCountStart: Int { nameDeltaStart + nameDeltaWidth }
    package var countryStart: Int { nameByteCountStart + nameByteCountWidth }
    package var recordWidth: Int { countryStart + countryWidth }

    /// Bytes of the country table, padded to a multiple of 8.
    package static func countryTableByteCount(countryCount: Int) -> Int { (2 * countryCount + 7) / 8 * 8 }

    /// Name blocks for `cityCount` ranks: ⌈cityCount / 2^nameBlockShift⌉.
    package func nameBlockCount(cityCount: Int) -> Int { (cityCount + (1 << nameBlockShift) - 1) >> nameBlockShift }

    /// Bytes of the name block starts, padded to a multiple of 8.
    package func nameBlockStartsByteCount(cityCount: Int) -> Int { (4 * nameBlockCount(cityCount: cityCount) + 7) / 8 * 8 }

    /// The section's size for `cityCount` records and `countryCount` country codes.
    package func sectionByteCount(cityCount: Int, countryCount: Int) -> Int {
        Self.headerByteCount + Self.countryTableByteCount(countryCount: countryCount)
            + nameBlockStartsByteCount(cityCount: cityCount) + Self.idExceptionByteCount * idExceptionCount
            + PackedBits.byteCount(bitCount: cityCount * recordWidth)
    }
}
