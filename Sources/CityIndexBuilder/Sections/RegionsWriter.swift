// RegionsWriter.swift: the `REGN` section (FORMAT.md §7.10), the writing twin of `Regions`.
import CityIndex

/// The first-level regions the cities name, and each city's region in search order.
///
/// The regions are sorted by country (its index in `CITY`'s country table), then code bytes;
/// each is listed with its code, ISO 3166-2 code and name (empty when `PlaceNames` does not
/// name it), then its aliases. Each city's value in the packed array is its region's index
/// plus one, 0 for none.
///
/// Memory: the region table and one packed value per city (spilled to a scratch file).
struct RegionsWriter {
    /// The final index of each `CityPreparer` region number.
    private let indexOfNumber: [UInt32]
    private let width: Int
    /// The region count, reserved, each region's country index, padding.
    private let header: [UInt8]
    private var values: PackedBitsFileWriter
    /// The names (`NameLists`).
    private let trailer: [UInt8]

    /// `nil` when no city names a region: the file then has no `REGN`.
    init?(regionNumbers: [RegionKey: UInt32], countries: [UInt16], places: PlaceNames?,
          directory: String) throws(IndexBuildError) {
        guard !regionNumbers.isEmpty else { return nil }
        var countryIndex: [UInt16: Int] = [:]
        for (index, country) in countries.enumerated() { countryIndex[country] = index }
        var named: [RegionKey: PlaceNames.Region] = [:]
        for region in places?.regions ?? [] {
            let code = Array(region.country.utf8)
            named[RegionKey(country: UInt16(code[0]) | UInt16(code[1]) << 8, code: Array(region.code.utf8))] = region
        }
        let sorted = regionNumbers.keys.sorted { a, b in
            let (countryA, countryB) = (countryIndex[a.country] ?? 0, countryIndex[b.country] ?? 0)
            return countryA != countryB ? countryA < countryB : a.code.lexicographicallyPrecedes(b.code)
        }
        var indexOfNumber = [UInt32](repeating: 0, count: regionNumbers.count)
        var table = ByteBuffer()
        table.appendUInt32(UInt32(sorted.count))
        table.appendUInt32(0)
        var lists = NameListsWriter()
        for (index, region) in sorted.enumerated() {
            indexOfNumber[Int(regionNumbers[region]!)] = UInt32(index)
            table.appendUInt16(UInt16(countryIndex[region.country] ?? 0))
            let names = named[region]
            try lists.appendList([region.code, Array((names?.isoCode ?? "").utf8), Array((names?.name ?? "").utf8)]
                                 + (names?.aliases ?? []).map { Array($0.utf8) })
        }
        table.pad(toMultipleOf: 8)
        self.indexOfNumber = indexOfNumber
        width = bitWidth(holding: UInt64(sorted.count))
        header = table.bytes
        trailer = lists.bytes
        values = try PackedBitsFileWriter(directory: directory)
    }

    /// Adds the region of the next rank (`CityBlob.regionField`).
    mutating func add(regionField: UInt32) throws(IndexBuildError) {
        try values.append(regionField == 0 ? 0 : UInt64(indexOfNumber[Int(regionField - 1)]) + 1, width: width)
    }

    /// The section: the region count, each region's country, the cities' regions, the names.
    mutating func finish(cityCount: Int) throws(IndexBuildError) -> [SectionPart] {
        [.bytes(header + PackedBitsFileWriter.arrayHeader(width: width, secondWidth: 0, count: cityCount)),
         .file(try values.finish()), .bytes(trailer)]
    }
}
