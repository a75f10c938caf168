// CityJSON.swift: a city, a match and a nearby city as JSON objects (SEARCH.md §5), written once
// for city-search's --format json/ndjson and city-server's answers.
import CityIndex

extension JSONWriter {
    /// A city's own fields: id, name, region (name, GeoNames code, ISO 3166-2 code), country
    /// (code and name), coordinates (exact to the microdegree the index holds), population
    /// (`null` when unknown), `label` ("Winnipeg, MB, CA") and `locationLabel` ("MB, CA": the
    /// label after the name, for a list that shows the name apart).
    public mutating func cityFields(_ city: City, coordinates: Bool = true) {
        field("id", city.id)
        field("name", city.name)
        let region = city.region
        field("region", region?.name)
        field("regionCode", region?.code)
        field("regionISO", region?.isoCode)
        field("country", city.countryCode)
        field("countryName", city.country?.name)
        if coordinates {
            key("lat")
            raw(Self.degrees(city.latitudeMicrodegrees))
            key("lon")
            raw(Self.degrees(city.longitudeMicrodegrees))
        }
        field("population", city.population)
        field("label", city.label)
        field("locationLabel", city.locationLabel)
    }

    /// A search result: the city's fields, then what matched and how. `matchedName` (only when
    /// an alternate name matched); `highlights`, the matched part as one `[start, length]` pair
    /// in UTF-16 code units (what JavaScript strings index) of `matchedName` when present, else
    /// of `name`; with `html`, `highlightedName`, that name HTML-escaped with `<mark>` around
    /// the part; `edits` (typos forgiven, a named place's included) and `skipsWords`; with
    /// `near`, `distanceMeters` to it, whole metres.
    public mutating func match(_ match: CityMatch, near: Coordinate?, html: Bool = false, coordinates: Bool = true) {
        cityFields(match.city, coordinates: coordinates)
        let highlight = match.highlightUTF16Range
        if let alternate = match.matchedAlternateName { field("matchedName", alternate) }
        key("highlights")
        array { json in
            json.array { json in
                json.value(highlight.lowerBound)
                json.value(highlight.count)
            }
        }
        if html { field("highlightedName", HighlightHTML.marked(match.matchedName, utf16Range: highlight)) }
        field("edits", match.editCount)
        field("skipsWords", match.skipsWords)
        if let near { field("distanceMeters", match.city.coordinate.distanceMeters(to: near), decimals: 0) }
    }

    /// A city near a point: its fields and `distanceMeters`, whole metres.
    public mutating func nearby(_ nearby: NearbyCity, coordinates: Bool = true) {
        cityFields(nearby.city, coordinates: coordinates)
        field("distanceMeters", nearby.distanceMeters, decimals: 0)
    }

    /// `"point": {"lat", "lon"}`: where a nearest-cities answer or a biased search measures from.
    public mutating func point(_ point: Coordinate) {
        key("point")
        object { json in
            json.field("lat", point.latitude, decimals: 6)
            json.field("lon", point.longitude, decimals: 6)
        }
    }

    /// The places of an answer: `results`, an array of objects (`write` gives each its
    /// coordinates), or with `geoJSON` `features`, point features (RFC 7946) whose properties
    /// `write` gives without coordinates (the geometry holds them).
    public mutating func places<Place>(_ places: some Sequence<Place>, geoJSON: Bool, at location: (Place) -> City,
                                       write: (inout JSONWriter, Place, _ withCoordinates: Bool) -> Void) {
        key(geoJSON ? "features" : "results")
        array { json in
            for place in places {
                if geoJSON {
                    let city = location(place)
                    json.feature(of: city) { write(&$0, place, false) }
                } else {
                    json.object { write(&$0, place, true) }
                }
            }
        }
    }

    /// A GeoJSON point feature at `city`, its properties written by `properties`.
    mutating func feature(of city: City, properties: (inout JSONWriter) -> Void) {
        object { json in
            json.field("type", "Feature")
            json.key("geometry")
            json.object { json in
                json.field("type", "Point")
                json.key("coordinates")
                json.array { json in
                    json.raw(Self.degrees(city.longitudeMicrodegrees))
                    json.raw(Self.degrees(city.latitudeMicrodegrees))
                }
            }
            json.key("properties")
            json.object(properties)
        }
    }

    /// Millionths of a degree as an exact decimal, trailing zeros dropped ("9.93333", "28").
    public static func degrees(_ microdegrees: Int32) -> String {
        let magnitude = Int(microdegrees).magnitude
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return (microdegrees < 0 ? "-" : "") + String(magnitude / 1_000_000) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

/// A name as HTML with its matched part in `<mark>`.
public enum HighlightHTML {
    /// `name` HTML-escaped (`&`, `<`, `>`, `"`, `'`), the characters whose UTF-16 offsets fall
    /// in `range` wrapped in `<mark>…</mark>` (nothing wrapped when none do). O(length).
    public static func marked(_ name: String, utf16Range range: Range<Int>) -> String {
        var out = ""
        var offset = 0
        var isOpen = false
        for scalar in name.unicodeScalars {
            let inside = range.contains(offset)
            if inside && !isOpen { out += "<mark>" }
            if !inside && isOpen { out += "</mark>" }
            isOpen = inside
            out += escaped(scalar)
            offset += scalar.utf16.count
        }
        if isOpen { out += "</mark>" }
        return out
    }

    static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&#39;"
        default: String(scalar)
        }
    }
}
