// CountryNames.swift: the optional CTRY section, the names of the countries (FORMAT.md §7.11).

/// `CTRY --> NameLists` with one list per entry of `CITY`'s country table: the country's
/// ISO 3166-1 alpha-3 code (empty when unknown), its name, then its aliases; an empty list for
/// a country the builder had no names for.
///
/// Invariant (checked by `init(validating:countryCount:)`): one list per country.
struct CountryNames {
    let names: NameLists

    /// - Complexity: O(1).
    init(validating section: ByteView, countryCount: Int) throws(IndexFileError) {
        names = try NameLists(validating: section, listCount: countryCount, of: .countryNames)
    }
}
