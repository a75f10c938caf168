// Regions.swift: the optional REGN section, the first-level regions and each city's (FORMAT.md §7.10).

/// `REGN --> regionCount:u32, reserved:u32 (0), country:u16^regionCount, padding to 8,
/// cityRegions:PackedArray (cityCount values), names:NameLists (regionCount lists)`.
///
/// Region *r* is in country `country[r]` (an index into `CITY`'s country table); its list
/// holds its code, its ISO 3166-2 code (empty when unknown), its name (empty when unknown),
/// then its aliases. A city's value is its region plus one, 0 for none.
///
/// Invariant (checked by `init(validating:cityCount:)`): the parts' sizes add up to the
/// section's. Region numbers and country indexes are checked where they are read.
struct Regions {
    let regionCount: Int
    private let countries: ByteView
    private let cityRegions: PackedArray
    let names: NameLists

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let regionCount = Int(section.uint32(at: 0) ?? 0)
        let tableByteCount = 8 + (2 * regionCount + 7) / 8 * 8
        guard section.count >= 8, section.uint32(at: 4) == 0, regionCount <= FormatConstants.maximumRegionCount,
              let rest = section.slice(offset: tableByteCount, length: section.count - tableByteCount),
              let arrayWidth = rest.uint8(at: 0) else {
            throw .sectionSizeMismatch(section: .regions, byteCount: UInt64(section.count), expectedByteCount: UInt64(tableByteCount + 8))
        }
        let arrayByteCount = PackedArray.byteCount(count: cityCount, valueWidth: Int(arrayWidth))
        guard let array = rest.slice(offset: 0, length: arrayByteCount),
              let lists = rest.slice(offset: arrayByteCount, length: rest.count - arrayByteCount) else {
            throw .sectionSizeMismatch(section: .regions, byteCount: UInt64(section.count),
                                       expectedByteCount: UInt64(tableByteCount + arrayByteCount + 8))
        }
        self.regionCount = regionCount
        countries = section.slice(uncheckedOffset: 8, length: 2 * regionCount)
        cityRegions = try PackedArray(validating: array, count: cityCount, of: .regions)
        names = try NameLists(validating: lists, listCount: regionCount, of: .regions)
    }

    /// The region of the city at `rank` (in `0 ..< cityCount`); `nil` for none, or for a value
    /// past the table (a damaged file). O(1).
    @inline(__always)
    func region(ofRank rank: Int) -> Int? {
        let value = cityRegions[rank]
        return value == 0 || value > UInt64(regionCount) ? nil : Int(value - 1)
    }

    /// The stored value of the city at `rank`: its region plus one, 0 for none (unchecked). O(1).
    func cityRegionValue(ofRank rank: Int) -> UInt64 { cityRegions[rank] }

    /// The country-table index of region `region` (in `0 ..< regionCount`). O(1).
    func countryIndex(ofRegion region: Int) -> Int { Int(countries.uint16(uncheckedAt: 2 * region)) }
}
