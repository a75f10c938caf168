// CityJSON.swift: a city, a match and a nearby city as the API writes them, as JSON or GeoJSON.
import CityIndex

extension JSONWriter {
    /// A city's own fields: id, name, region, country, coordinates, population.
    mutating func cityFields(_ city: City, coordinates: Bool = true) {
        field("id", city.id)
        field("name", city.name)
        let region = city.region
        field("region", region?.name)
        field("regionCode", region?.code)
        field("regionISO", region?.isoCode)
        field("country", city.countryCode)
        field("countryName", city.country?.name)
        if coordinates {
            field("lat", city.latitude, decimals: 6)
            field("lon", city.longitude, decimals: 6)
        }
        field("population", city.population)
        field("label", city.label)
    }

    /// A search result: the city, what matched and how (SEARCH.md §5's fields and more).
    /// `highlights` holds the matched part as `[start, length]` in UTF-16 code units (what
    /// JavaScript strings index), `highlightedName` the same name HTML-escaped with `<mark>`
    /// around that part; both are of `matchedName` when an alternate name matched, else of `name`.
    mutating func match(_ match: CityMatch, near: Coordinate?, coordinates: Bool = true) {
        cityFields(match.city, coordinates: coordinates)
        let matchedName = match.matchedName
        let highlight = match.highlightUTF16Range
        field("matchedName", match.matchedAlternateName)
        key("highlights")
        array { json in
            json.array { json in
                json.value(highlight.lowerBound)
                json.value(highlight.count)
            }
        }
        field("highlightedName", HighlightHTML.marked(matchedName, utf16Range: highlight))
        field("edits", match.editCount)
        field("skipsWords", match.skipsWords)
        if let near { field("distanceMeters", match.city.coordinate.distanceMeters(to: near), decimals: 0) }
    }

    /// A city near a point, with its distance.
    mutating func nearby(_ nearby: NearbyCity, coordinates: Bool = true) {
        cityFields(nearby.city, coordinates: coordinates)
        field("distanceMeters", nearby.distanceMeters, decimals: 0)
    }
}

extension JSONWriter {
    /// The places of an answer: `results`, an array of objects (`write` gives each its
    /// coordinates), or for GeoJSON `features`, point features whose properties `write` gives
    /// without coordinates (the geometry holds them).
    mutating func places<Place>(_ places: some Sequence<Place>, format: SearchRequest.Format, at location: (Place) -> (Double, Double),
                                write: (inout JSONWriter, Place, _ withCoordinates: Bool) -> Void) {
        key(format == .geojson ? "features" : "results")
        array { json in
            for place in places {
                if format == .geojson {
                    let (latitude, longitude) = location(place)
                    json.feature(latitude: latitude, longitude: longitude) { write(&$0, place, false) }
                } else {
                    json.object { write(&$0, place, true) }
                }
            }
        }
    }

    /// A GeoJSON point feature (RFC 7946), its properties written by `properties`.
    mutating func feature(latitude: Double, longitude: Double, properties: (inout JSONWriter) -> Void) {
        object { json in
            json.field("type", "Feature")
            json.key("geometry")
            json.object { json in
                json.field("type", "Point")
                json.key("coordinates")
                json.array { json in
                    json.value(longitude, decimals: 6)
                    json.value(latitude, decimals: 6)
                }
            }
            json.key("properties")
            json.object(properties)
        }
    }
}

/// A name as HTML with its matched part in `<mark>`.
enum HighlightHTML {
    /// `name` HTML-escaped (`&`, `<`, `>`, `"`, `'`), the characters whose UTF-16 offsets fall
    /// in `range` wrapped in `<mark>…</mark>` (nothing wrapped when none do). O(length).
    static func marked(_ name: String, utf16Range range: Range<Int>) -> String {
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
