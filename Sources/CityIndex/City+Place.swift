// City+Place.swift: where a city is: its region, its country's name, and a label naming both.

extension City {
    /// The city's first-level region; `nil` when the index has no `REGN` section or the city
    /// list gave the city none. O(the region's names).
    public var region: Region? {
        guard let regions = contents.regions, let region = regions.region(ofRank: rank) else { return nil }
        return contents.region(region)
    }

    /// The city's country; `nil` when the index has no `CTRY` section or no names for it.
    /// O(the country's names).
    public var country: Country? {
        guard let index = contents.records.countryIndex(ofRank: rank) else { return nil }
        return contents.country(atIndex: index)
    }

    /// The city as a place: its name, its region, its country code: "Springfield, IL, US",
    /// "Perth, Scotland, GB", "Paris, Île-de-France, FR".
    ///
    /// The region is written as its abbreviation (`Region.abbreviation`) in the countries
    /// whose addresses write it so (`Region.abbreviatedCountries`: US, CA, AU), else as its
    /// name; it is left out when the index has none, when it has no name, and when it is the
    /// city's own name ("Berlin, DE", not "Berlin, Berlin, DE").
    public var label: String { name + ", " + locationLabel }

    /// `label` after the name: "IL, US", "Île-de-France, FR", "DE" (for a search box that
    /// shows the name with its matched part emphasized, then where the city is).
    public var locationLabel: String { [regionLabel, countryCode].compactMap { $0 }.joined(separator: ", ") }

    /// How `label` writes the region: its abbreviation or its name, `nil` when it leaves it out.
    public var regionLabel: String? {
        guard let region else { return nil }
        let written = Region.abbreviatedCountries.contains(region.countryCode) ? region.abbreviation ?? region.name : region.name
        guard let written, written.lowercased() != name.lowercased() else { return nil }
        return written
    }
}

extension Region {
    /// The countries whose addresses abbreviate the region ("Springfield, IL"): `City.label`
    /// writes `abbreviation` there.
    public static let abbreviatedCountries: Set<String> = ["US", "CA", "AU"]
}

extension IndexContents {
    /// Region `region` of `REGN` (in `0 ..< regionCount`), decoded. O(its names).
    func region(_ region: Int) -> Region? {
        guard let regions else { return nil }
        let strings = regions.names.strings(ofList: region)
        let countryIndex = regions.countryIndex(ofRegion: region)
        let country = countryIndex < records.countryCount ? records.countryCode(atIndex: countryIndex) : 0
        func nonEmpty(_ index: Int) -> String? { index < strings.count && !strings[index].isEmpty ? strings[index] : nil }
        return Region(code: strings.first ?? "", isoCode: nonEmpty(1), name: nonEmpty(2), aliases: Array(strings.dropFirst(3)),
                      countryCode: Self.countryText(country))
    }

    /// Entry `index` of `CITY`'s country table as a `Country`; `nil` without names for it.
    func country(atIndex index: Int) -> Country? {
        guard let countryNames, index < countryNames.names.listCount else { return nil }
        let strings = countryNames.names.strings(ofList: index)
        guard strings.count >= 2 else { return nil }
        return Country(code: Self.countryText(records.countryCode(atIndex: index)), code3: strings[0].isEmpty ? nil : strings[0],
                       name: strings[1], aliases: Array(strings.dropFirst(2)))
    }

    /// "FR" from the record's country value (first letter in the low byte).
    static func countryText(_ code: UInt16) -> String {
        var text = ""
        text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: code)))
        text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: code >> 8)))
        return text
    }
}
