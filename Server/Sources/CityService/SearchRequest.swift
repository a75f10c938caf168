// SearchRequest.swift: the parameters of /api/search and /api/nearest, checked.
import CityIndex

/// A search as `/api/search` is asked for it. The defaults are the search box's recommended
/// mode: words, population order, typos forgiven by length.
struct SearchRequest: Sendable {
    /// The most UTF-8 bytes of `q`: a search box sends a few dozen.
    static let maximumQueryByteCount = 256
    /// The most results one request returns, and the furthest page it reaches.
    static let maximumLimit = 100
    static let maximumOffset = 1_000
    /// The largest radius of a search (`within`), in metres: a search from a point within more
    /// reads the matches of most of the earth to rank none of them by distance.
    static let maximumSearchRadius = 5_000_000.0

    enum Format: String {
        case json, geojson

        var contentType: String { self == .geojson ? "application/geo+json" : "application/json; charset=utf-8" }
    }

    var query: String
    /// The library's options (`SearchOptions`): the recommended mode unless asked otherwise;
    /// its limit is `offset + limit`, the matches up to the end of the page.
    private(set) var options = SearchOptions.recommended
    /// The page: `limit` matches from `offset`.
    var limit = 10
    var offset = 0
    var format: Format = .json
    /// Whether the answer carries the search's trace (`CityIndex.explain(_:options:)`).
    var explain = false

    static let parameterNames: Set<String> = ["q", "match", "rank", "typos", "limit", "offset", "country", "near", "within", "format",
                                              "explain"]

    init(_ parameters: QueryParameters) throws(BadRequest) {
        try parameters.rejectUnknown(allowed: Self.parameterNames)
        guard let query = parameters["q"] else { throw BadRequest(parameter: "q", "is missing (the text to search for)") }
        guard query.utf8.count <= Self.maximumQueryByteCount else {
            throw BadRequest(parameter: "q", "has \(query.utf8.count) bytes; at most \(Self.maximumQueryByteCount)")
        }
        self.query = query
        if let value = parameters["match"] {
            switch value {
            case "words": options.matching = .words
            case "prefix": options.matching = .prefix
            default: throw BadRequest(parameter: "match", "must be words or prefix, not \(Self.quoted(value))")
            }
        }
        if let value = parameters["rank"] {
            switch value {
            case "population": options.order = .population
            case "alphabetical": options.order = .alphabetical
            default: throw BadRequest(parameter: "rank", "must be population or alphabetical, not \(Self.quoted(value))")
            }
        }
        if let value = parameters["typos"] {
            switch value {
            case "auto": options.typos = .automatic
            case "none", "0": options.typos = .none
            case "1", "2", "3": options.typos = .maximum(Int(value)!)
            default: throw BadRequest(parameter: "typos", "must be auto, none, 1, 2 or 3, not \(Self.quoted(value))")
            }
        }
        limit = try parameters.integer("limit", in: 1 ... Self.maximumLimit) ?? limit
        offset = try parameters.integer("offset", in: 0 ... Self.maximumOffset) ?? offset
        options.countries = try parameters.countries("country")
        options.near = try parameters.coordinate("near")
        options.within = try parameters.distance("within")
        if options.within != nil && options.near == nil { throw BadRequest(parameter: "within", "needs near (the point it is measured from)") }
        if let within = options.within, within > Self.maximumSearchRadius {
            throw BadRequest(parameter: "within", "is at most \(Int(Self.maximumSearchRadius)) metres for a search: a larger radius is most "
                             + "of the earth, which costs a pass over every match and keeps them all; search without within")
        }
        // Forgiving as many typos as half the letters matches almost every name: pure cost.
        if case .maximum(let edits) = options.typos {
            let letters = query.unicodeScalars.count { !$0.properties.isWhitespace && $0 != "," }
            guard letters > 2 * edits else {
                throw BadRequest(parameter: "typos", "\(edits) on a query of \(letters) letters matches almost every name; "
                                 + "forgive at most \(max(0, (letters - 1) / 2)) here, or use typos=auto")
            }
        }
        if let value = parameters["format"] {
            guard let format = Format(rawValue: value) else { throw BadRequest(parameter: "format", "must be json or geojson, not \(Self.quoted(value))") }
            self.format = format
        }
        if let value = parameters["explain"] {
            guard let explain = Bool(value) else { throw BadRequest(parameter: "explain", "must be true or false, not \(Self.quoted(value))") }
            guard format == .json || !explain else { throw BadRequest(parameter: "explain", "is given with format=json only") }
            self.explain = explain
        }
        options.limit = offset + limit
    }

    /// A value as an error message shows it: quoted, cut to 40 characters.
    static func quoted(_ value: String) -> String {
        "\"" + (value.count > 40 ? String(value.prefix(40)) + "…" : value) + "\""
    }
}

/// What `/api/nearest` is asked: the point, how many, how far.
struct NearestRequest: Sendable {
    var point: Coordinate
    var limit = 10
    var within: Double?
    /// Only cities of at least this many people: a tap in a city's suburbs names the city.
    var minimumPopulation = 0
    /// Only cities of these countries (`country=FR,BE`), as `/api/search` takes them.
    var countries: Set<String>?
    var format: SearchRequest.Format = .json

    init(_ parameters: QueryParameters) throws(BadRequest) {
        try parameters.rejectUnknown(allowed: ["lat", "lon", "limit", "within", "minPopulation", "country", "format"])
        let latitude = try parameters.number("lat", in: -90 ... 90, what: "a latitude in degrees, -90 to 90")
        let longitude = try parameters.number("lon", in: -180 ... 180, what: "a longitude in degrees, -180 to 180")
        guard let latitude else { throw BadRequest(parameter: "lat", "is missing (a latitude in degrees, -90 to 90)") }
        guard let longitude else { throw BadRequest(parameter: "lon", "is missing (a longitude in degrees, -180 to 180)") }
        do { point = try Coordinate(latitude: latitude, longitude: longitude) } catch {
            throw BadRequest(parameter: "lat", "\(latitude),\(longitude) is not a coordinate")
        }
        limit = try parameters.integer("limit", in: 1 ... SearchRequest.maximumLimit) ?? limit
        within = try parameters.distance("within")
        minimumPopulation = try parameters.integer("minPopulation", in: 0 ... 100_000_000) ?? 0
        countries = try parameters.countries("country")
        if let value = parameters["format"] {
            guard let format = SearchRequest.Format(rawValue: value) else {
                throw BadRequest(parameter: "format", "must be json or geojson, not \(SearchRequest.quoted(value))")
            }
            self.format = format
        }
    }
}

extension QueryParameters {
    /// Throws for the first parameter not in `allowed` (a misspelt name would else be ignored).
    func rejectUnknown(allowed: Set<String>) throws(BadRequest) {
        if let unknown = names.sorted().first(where: { !allowed.contains($0) }) {
            throw BadRequest(parameter: unknown, "is not a parameter here (known: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// A whole number in `range`, or `nil` when the parameter is absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(BadRequest) -> Int? {
        guard let value = self[name] else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw BadRequest(parameter: name, "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(SearchRequest.quoted(value))")
        }
        return number
    }

    /// A finite decimal number in `range`, or `nil` when the parameter is absent.
    func number(_ name: String, in range: ClosedRange<Double>, what: String) throws(BadRequest) -> Double? {
        guard let value = self[name] else { return nil }
        guard let number = Self.decimal(value), range.contains(number) else {
            throw BadRequest(parameter: name, "must be \(what), not \(SearchRequest.quoted(value))")
        }
        return number
    }

    /// Two-letter country codes separated by commas ("FR" or "us, ca"), upper-cased, or `nil`
    /// when the parameter is absent.
    func countries(_ name: String) throws(BadRequest) -> Set<String>? {
        guard let value = self[name] else { return nil }
        let codes = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.filter { $0 != " " }.uppercased() }
        guard !codes.isEmpty, codes.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (65 ... 90).contains($0) } }) else {
            throw BadRequest(parameter: name, "must be two-letter country codes separated by commas (FR or US,CA), not \(SearchRequest.quoted(value))")
        }
        return Set(codes)
    }

    /// A point given as `LAT,LON` in degrees, or `nil` when the parameter is absent.
    func coordinate(_ name: String) throws(BadRequest) -> Coordinate? {
        guard let value = self[name] else { return nil }
        guard let point = Coordinate(text: value) else {
            throw BadRequest(parameter: name, "must be LAT,LON in degrees (latitude -90 to 90, longitude -180 to 180), not \(SearchRequest.quoted(value))")
        }
        return point
    }

    /// A distance in metres, more than 0 and at most half the Earth's circumference.
    func distance(_ name: String) throws(BadRequest) -> Double? {
        try number(name, in: 0 ... 20_037_509, what: "a distance in metres, 0 to 20037509").map { value throws(BadRequest) in
            guard value > 0 else { throw BadRequest(parameter: name, "must be more than 0 metres") }
            return value
        }
    }

    /// Plain decimal notation ("48.85", "-0.5", "2"): no exponent, no "nan" or "inf"; the
    /// grammar of `LAT,LON`'s numbers.
    private static func decimal(_ text: String) -> Double? { Coordinate.plainDecimal(text) }
}
