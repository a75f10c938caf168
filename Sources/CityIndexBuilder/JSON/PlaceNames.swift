// PlaceNames.swift: the names of the countries and first-level regions an index stores beside its cities.
import CityIndexArtifacts

/// The names of countries and of first-level regions (states, provinces, Länder) that
/// `build-index` stores beside the cities (`CTRY` and `REGN`, FORMAT.md §7.10–§7.11), for
/// display ("Springfield, IL, US") and for queries that name them ("paris texas").
///
/// Read from a places JSON file (INPUT.md; `Data/places.json` is the default list's):
///
///     {"countries":[{"code":"GB","code3":"GBR","name":"United Kingdom","aliases":["UK","Britain"]}],
///      "regions":[{"country":"US","code":"TX","iso":"US-TX","name":"Texas","aliases":["Tejas"]}]}
///
/// A region is named by its country and its code as the cities' `region` field gives it. Every
/// string is 1 to 255 bytes of UTF-8 (`iso` and `code3` may be null or absent); both arrays and
/// `aliases` are optional; unknown keys are skipped; a country or region listed twice is an error.
public struct PlaceNames: Sendable, Equatable {
    public struct Country: Sendable, Equatable {
        /// Two capital letters, as the cities' `country`.
        public var code: String
        /// The ISO 3166-1 alpha-3 code, three capital letters.
        public var code3: String?
        public var name: String
        public var aliases: [String]

        public init(code: String, code3: String? = nil, name: String, aliases: [String] = []) {
            (self.code, self.code3, self.name, self.aliases) = (code, code3, name, aliases)
        }
    }

    public struct Region: Sendable, Equatable {
        /// The country's two capital letters.
        public var country: String
        /// The region's code as the cities' `region` gives it (GeoNames admin1: "TX", "08").
        public var code: String
        /// The ISO 3166-2 code ("US-TX", "CA-ON").
        public var isoCode: String?
        public var name: String
        public var aliases: [String]

        public init(country: String, code: String, isoCode: String? = nil, name: String, aliases: [String] = []) {
            (self.country, self.code, self.isoCode, self.name, self.aliases) = (country, code, isoCode, name, aliases)
        }
    }

    public var countries: [Country]
    public var regions: [Region]

    public init(countries: [Country] = [], regions: [Region] = []) {
        self.countries = countries
        self.regions = regions
    }

    /// Reads a places JSON file (plain, gzip or xz).
    /// - Throws: `IndexBuildError.invalidPlaceNames` naming the line and column of what is wrong.
    public init(contentsOfFile path: String, maximumByteCount: Int = 256 << 20) throws(IndexBuildError) {
        do {
            let (source, _, _) = try InputReading.open(path: path, maximumByteCount: maximumByteCount)
            self = try PlaceNamesParser(source: source).parse()
        } catch let error as CityListError {
            throw .invalidPlaceNames(path: path, error)
        } catch {
            throw .wrapping(error)
        }
    }

    /// Reads places JSON from memory.
    public init(jsonBytes: [UInt8]) throws(IndexBuildError) {
        do {
            self = try PlaceNamesParser(source: MemorySource(jsonBytes)).parse()
        } catch let error as CityListError {
            throw .invalidPlaceNames(path: nil, error)
        } catch {
            throw .wrapping(error)
        }
    }
}
