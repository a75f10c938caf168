// Region.swift: a first-level region (state, province, Land) and a country, as an index names them.

/// The first-level region a city is in (a state, province, Land or oblast), from the index's
/// `REGN` section (FORMAT.md §7.10).
public struct Region: Sendable, Hashable {
    /// The code the city list gave ("TX", "08": GeoNames admin1 codes in the default list).
    public let code: String
    /// The ISO 3166-2 code ("US-TX", "CA-ON"), when the index has it.
    public let isoCode: String?
    /// The name ("Texas"), when the index has it.
    public let name: String?
    /// Other names ("Tejas", "State of Texas").
    public let aliases: [String]
    /// The two-letter code of the region's country.
    public let countryCode: String

    public init(code: String, isoCode: String?, name: String?, aliases: [String], countryCode: String) {
        (self.code, self.isoCode, self.name, self.aliases, self.countryCode) = (code, isoCode, name, aliases, countryCode)
    }

    /// What people write after a city's name for this region: the part of the ISO 3166-2 code
    /// after its dash when it is letters only ("TX", "ON", "NSW"), else `nil` ("FR-75C" has a digit).
    public var abbreviation: String? {
        guard let isoCode, let dash = isoCode.firstIndex(of: "-") else { return nil }
        let suffix = isoCode[isoCode.index(after: dash)...]
        return !suffix.isEmpty && suffix.allSatisfy({ $0.isASCII && $0.isLetter }) ? String(suffix) : nil
    }
}

/// A country, as an index names it (`CTRY`, FORMAT.md §7.11).
public struct Country: Sendable, Hashable {
    /// The two-letter code ("GB").
    public let code: String
    /// The ISO 3166-1 alpha-3 code ("GBR"), when the index has it.
    public let code3: String?
    /// The name ("United Kingdom").
    public let name: String
    /// Other names ("UK", "Britain").
    public let aliases: [String]

    public init(code: String, code3: String?, name: String, aliases: [String]) {
        (self.code, self.code3, self.name, self.aliases) = (code, code3, name, aliases)
    }
}
