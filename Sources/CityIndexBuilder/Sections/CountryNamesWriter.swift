// CountryNamesWriter.swift: the `CTRY` section (FORMAT.md §7.11), the writing twin of `CountryNames`.
import CityIndex

/// Names each country of `CITY`'s country table from `PlaceNames`: list *i* is country *i*'s
/// alpha-3 code (empty when unknown), name, then aliases; an empty list for a country the
/// places do not name.
enum CountryNamesWriter {
    /// The section's bytes, or `nil` when the places name none of `countries`.
    static func sectionBytes(countries: [UInt16], places: PlaceNames) throws(IndexBuildError) -> [UInt8]? {
        var byCode: [UInt16: PlaceNames.Country] = [:]
        for country in places.countries {
            let code = Array(country.code.utf8)
            byCode[UInt16(code[0]) | UInt16(code[1]) << 8] = country
        }
        guard countries.contains(where: { byCode[$0] != nil }) else { return nil }
        var lists = NameListsWriter()
        for code in countries {
            guard let country = byCode[code] else {
                try lists.appendList([])
                continue
            }
            try lists.appendList([Array((country.code3 ?? "").utf8), Array(country.name.utf8)] + country.aliases.map { Array($0.utf8) })
        }
        return lists.bytes
    }
}
