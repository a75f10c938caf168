// IndexContents+PlaceInvariants.swift: REGN and CTRY name what exists (FORMAT.md §9, I12–I13).

extension IndexContents {
    /// I12: `REGN`'s regions are in strictly increasing (country, code) order, each in a
    /// country of `CITY`'s table, each listed as code (not empty), ISO code, name and aliases
    /// in well-formed UTF-8 strings; every city's region is one of them, in the city's own
    /// country. I13: each `CTRY` list is empty or holds an alpha-3 code and a name (not empty),
    /// then aliases, all well-formed UTF-8.
    /// - Complexity: O(cities + the lists' bytes).
    func verifyPlaces() throws(IndexFileError) {
        if let regions {
            var previous: (country: Int, code: [UInt8])?
            for region in 0 ..< regions.regionCount {
                let country = regions.countryIndex(ofRegion: region)
                var strings: [[UInt8]] = []
                let wellFormed = regions.names.forEachString(ofList: region) { bytes in
                    strings.append(Array(bytes.buffer))
                    return true
                }
                guard wellFormed, country < records.countryCount, strings.count >= 3, !strings[0].isEmpty,
                      strings.allSatisfy(Self.isUTF8) else {
                    throw .invariantViolated(.regionWrong(region: region))
                }
                if let previous, !(previous.country < country
                                   || (previous.country == country && previous.code.lexicographicallyPrecedes(strings[0]))) {
                    throw .invariantViolated(.regionWrong(region: region))
                }
                previous = (country, strings[0])
            }
            for rank in 0 ..< cityCount {
                let value = regions.cityRegionValue(ofRank: rank)
                guard value <= UInt64(regions.regionCount) else { throw .invariantViolated(.cityRegionWrong(rank: rank)) }
                if value > 0, regions.countryIndex(ofRegion: Int(value - 1)) != records.countryIndex(ofRank: rank) {
                    throw .invariantViolated(.cityRegionWrong(rank: rank))
                }
            }
        }
        if let countryNames {
            for country in 0 ..< countryNames.names.listCount {
                var strings: [[UInt8]] = []
                let wellFormed = countryNames.names.forEachString(ofList: country) { bytes in
                    strings.append(Array(bytes.buffer))
                    return true
                }
                guard wellFormed, strings.isEmpty || (strings.count >= 2 && !strings[1].isEmpty),
                      strings.allSatisfy(Self.isUTF8) else {
                    throw .invariantViolated(.countryNamesWrong(country: country))
                }
            }
        }
    }

    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
