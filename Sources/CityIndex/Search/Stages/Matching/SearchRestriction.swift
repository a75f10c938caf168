// SearchRestriction.swift: the cities a search with countries or a radius may return.

/// The countries and the radius of a search (`SearchPlan` stage 6) as one test of a
/// city, which the search applies to each entry it reads (`CityIndex.restrictedMatches`).
struct SearchRestriction {
    /// Record country values (`CityIndex.countryCodeValue`).
    private let countries: Set<UInt16>?
    /// The largest haversine within the radius, and the point it is measured from.
    private let radius: (largest: Double, origin: LocationOrigin)?
    private let contents: IndexContents

    init(countries: Set<UInt16>?, within meters: Double?, of point: Coordinate?, contents: IndexContents) {
        self.countries = countries
        if let meters, let point {
            radius = (GreatCircle.haversine(ofMeters: max(0, meters)), LocationOrigin(point))
        } else {
            radius = nil
        }
        self.contents = contents
    }

    /// Whether the city at `rank` is in one of the countries and within the radius. O(1).
    func contains(rank: Int) -> Bool {
        if let countries, !countries.contains(contents.records.countryCode(ofRank: rank)) { return false }
        if let radius, radius.origin.haversine(to: rank, in: contents) > radius.largest { return false }
        return true
    }
}

extension CityIndex {
    /// "FR" as the record's country value (first letter in the low byte); nil unless two ASCII letters.
    static func countryCodeValue(_ code: String) -> UInt16? {
        let bytes = Array(code.uppercased().utf8)
        guard bytes.count == 2, bytes.allSatisfy({ (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains($0) }) else { return nil }
        return UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    }
}
