// ResultFormatting.swift: matches as terminal text or as the JSON of SEARCH.md §5.
import CityIndex
import Foundation

enum ResultFormatting {
    /// "57 cities match "san jo"", then one line per match: name (highlight in bold when
    /// `emphasize`), country, coordinates and id, and "matched ALTERNATE" when an alternate
    /// name matched (the highlight is then in the alternate).
    static func text(query: String, count: Int, page: some Collection<CityMatch>, emphasize: Bool, near: Coordinate? = nil) -> String {
        var lines = ["\(count) \(count == 1 ? "city matches" : "cities match") \"\(TerminalText.safe(query))\""]
        func safe(_ text: Substring) -> String { TerminalText.safe(text) }
        func safe(_ text: String) -> String { TerminalText.safe(text) }
        for match in page {
            func emphasized(_ name: String) -> String {
                let range = match.highlightRange
                guard emphasize && !range.isEmpty else { return safe(name) }
                return safe(name[..<range.lowerBound]) + "\u{1B}[1m" + safe(name[range]) + "\u{1B}[0m" + safe(name[range.upperBound...])
            }
            let alternate = match.matchedAlternateName
            let shown = alternate == nil ? emphasized(match.name) : safe(match.name)
            let matched = alternate.map { "  (matched \(emphasized($0)))" } ?? ""
            let edits = (match.editCount == 0 ? "" : "  (\(match.editCount) \(match.editCount == 1 ? "typo" : "typos"))")
                + (match.skipsWords ? "  (words skipped)" : "")
            let region = match.city.regionLabel.map { ", " + safe($0) } ?? ""
            let distance = near.map { "  " + kilometres(match.city.coordinate.distanceMeters(to: $0)) } ?? ""
            lines.append("  \(shown)\(region), \(safe(match.countryCode))  (\(degrees(match.latitudeMicrodegrees)), \(degrees(match.longitudeMicrodegrees)))  id \(match.id)\(distance)\(matched)\(edits)")
        }
        return lines.joined(separator: "\n")
    }

    /// The object of SEARCH.md §5, on one line. When an alternate name matched (word
    /// matching), a result also has `"matchedName"`, and its highlights are in that name.
    static func json(query: String, count: Int, page: some Collection<CityMatch>, near: Coordinate? = nil) -> String {
        let results = page.map { resultObject($0, near: near) }
        return "{\"query\": \(jsonString(query)), \"count\": \(count), \"results\": [" + results.joined(separator: ", ") + "]}"
    }

    /// One result of SEARCH.md §5 as a JSON object.
    static func resultObject(_ match: CityMatch, near: Coordinate? = nil) -> String {
        let highlight = match.highlightUTF16Range
        let matched = match.matchedAlternateName.map { ", \"matchedName\": \(jsonString($0))" } ?? ""
        let edits = (match.editCount == 0 ? "" : ", \"edits\": \(match.editCount)")
            + (match.skipsWords ? ", \"skipsWords\": true" : "")
        return "{\"id\": \(match.id), \"name\": \(jsonString(match.name)), \"country\": \(jsonString(match.countryCode)), "
            + "\"lat\": \(degrees(match.latitudeMicrodegrees)), \"lon\": \(degrees(match.longitudeMicrodegrees)), "
            + "\"highlights\": [[\(highlight.lowerBound), \(highlight.count)]]\(matched)\(edits), \(placeFields(match.city))"
            + (near.map { ", \"distanceMeters\": \(meters(match.city.coordinate.distanceMeters(to: $0)))" } ?? "") + "}"
    }

    /// `"region", "regionCode", "regionISO"` of a result (each null when the index has none).
    static func placeFields(_ city: City) -> String {
        let region = city.region
        func value(_ text: String?) -> String { text.map(jsonString) ?? "null" }
        return "\"region\": \(value(region?.name)), \"regionCode\": \(value(region?.code)), \"regionISO\": \(value(region?.isoCode))"
    }

    /// One JSON object per match, one per line (NDJSON): the result objects of `json`.
    static func ndjson(page: some Collection<CityMatch>, near: Coordinate? = nil) -> String {
        page.map { resultObject($0, near: near) }.joined(separator: "\n")
    }

    /// RFC 4180 CSV: a header line, then one line per match.
    static func csv(page: some Collection<CityMatch>, near: Coordinate? = nil) -> String {
        let rows = page.map { match in
            [String(match.id), csvField(match.name), csvField(match.countryCode), degrees(match.latitudeMicrodegrees),
             degrees(match.longitudeMicrodegrees), csvField(match.matchedAlternateName ?? ""), String(match.editCount),
             csvField(match.city.region?.name ?? ""), csvField(match.city.region?.code ?? "")]
                + (near.map { [meters(match.city.coordinate.distanceMeters(to: $0))] } ?? [])
        }
        let header = "id,name,country,lat,lon,matched_name,edits,region,region_code" + (near == nil ? "" : ",distance_meters")
        return ([header] + rows.map { $0.joined(separator: ",") }).joined(separator: "\n")
    }

    /// One city, for `--id`: a line of text, or one object in the JSON formats (CSV: a header and a row).
    static func city(_ city: City, format: OutputFormat) -> String {
        let lat = degrees(city.latitudeMicrodegrees), lon = degrees(city.longitudeMicrodegrees)
        let population = city.population.map { ", \"population\": \($0)" } ?? ""
        switch format {
        case .text:
            return "\(TerminalText.safe(city.label))  (\(lat), \(lon))  id \(city.id)" + (city.population.map { "  population \($0)" } ?? "")
        case .json, .ndjson:
            return "{\"id\": \(city.id), \"name\": \(jsonString(city.name)), \"country\": \(jsonString(city.countryCode)), "
                + "\"lat\": \(lat), \"lon\": \(lon)\(population), \(placeFields(city))}"
        case .csv:
            return "id,name,country,lat,lon,population,region,region_code\n\(city.id),\(csvField(city.name)),\(csvField(city.countryCode)),\(lat),\(lon),"
                + (city.population.map(String.init) ?? "") + ",\(csvField(city.region?.name ?? "")),\(csvField(city.region?.code ?? ""))"
        }
    }

    /// `--nearest`: "3 nearest cities to 48.8566, 2.3522", then a line per city with its
    /// distance; JSON `{"nearest": {"lat", "lon"}, "count", "results": [… "distanceMeters"]}`.
    static func nearest(_ found: [NearbyCity], to point: Coordinate, format: OutputFormat) -> String {
        func object(_ nearby: NearbyCity) -> String {
            let city = nearby.city
            let population = city.population.map { ", \"population\": \($0)" } ?? ""
            return "{\"id\": \(city.id), \"name\": \(jsonString(city.name)), \"country\": \(jsonString(city.countryCode)), "
                + "\"lat\": \(degrees(city.latitudeMicrodegrees)), \"lon\": \(degrees(city.longitudeMicrodegrees))\(population), "
                + "\(placeFields(city)), \"distanceMeters\": \(meters(nearby.distanceMeters))}"
        }
        switch format {
        case .text:
            let header = "\(found.count) nearest \(found.count == 1 ? "city" : "cities") to \(point.latitude), \(point.longitude)"
            return ([header] + found.map { nearby in
                let city = nearby.city
                return "  \(TerminalText.safe(city.label))  (\(degrees(city.latitudeMicrodegrees)), \(degrees(city.longitudeMicrodegrees)))  id \(city.id)  "
                    + kilometres(nearby.distanceMeters)
            }).joined(separator: "\n")
        case .json:
            return "{\"nearest\": {\"lat\": \(point.latitude), \"lon\": \(point.longitude)}, \"count\": \(found.count), \"results\": ["
                + found.map(object).joined(separator: ", ") + "]}"
        case .ndjson:
            return found.map(object).joined(separator: "\n")
        case .csv:
            return (["id,name,country,lat,lon,region,region_code,distance_meters"] + found.map { nearby in
                let city = nearby.city
                return [String(city.id), csvField(city.name), csvField(city.countryCode), degrees(city.latitudeMicrodegrees),
                        degrees(city.longitudeMicrodegrees), csvField(city.region?.name ?? ""), csvField(city.region?.code ?? ""),
                        meters(nearby.distanceMeters)].joined(separator: ",")
            }).joined(separator: "\n")
        }
    }

    /// Metres to the decimetre: "345.2".
    static func meters(_ value: Double) -> String { String(format: "%.1f", value) }

    /// "0.3 km", "12 km", "1,234 km".
    static func kilometres(_ meters: Double) -> String {
        let kilometres = meters / 1000
        return kilometres < 10 ? String(format: "%.1f km", kilometres) : "\(Int(kilometres.rounded()).formatted()) km"
    }

    /// What `--inspect` prints: format, counts, checksum state, the section table.
    static func inspection(of index: CityIndex, path: String) -> String {
        let checksum: String
        do {
            try index.verifyChecksum()
            checksum = "ok"
        } catch {
            checksum = "MISMATCH (\(error.problem))"
        }
        var lines = [
            "file:           \(path)",
            "format version: \(index.formatVersion) (this reader: \(CityIndexRelease.description))",
            "cities:         \(index.cityCount)",
            "populations:    \(index.hasPopulation ? "yes" : "no")",
            "size:           \(index.fileByteCount) bytes",
            "checksum:       \(checksum)",
            "sections:",
            "  name  required       offset        bytes  share",
        ]
        for section in index.sections {
            let share = String(format: "%5.1f%%", 100 * Double(section.byteCount) / Double(max(index.fileByteCount, 1)))
            lines.append("  " + section.name + "  " + (section.isRequired ? "yes     " : "no      ")
                         + pad(section.offset, 13) + pad(section.byteCount, 13) + "  " + share)
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// A CSV field (RFC 4180) that a spreadsheet shows as text: quoted when it holds a comma,
    /// quote, line break or other control character (quotes doubled), and, when it starts with
    /// `=`, `+`, `-`, `@`, a tab or a carriage return (a formula to a spreadsheet: OWASP's CSV
    /// injection rule), prefixed with `'` inside quotes.
    static func csvField(_ text: String) -> String {
        let isFormula = text.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } ?? false
        guard isFormula || text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
                || text.unicodeScalars.contains(where: TerminalText.isControl) else { return text }
        return "\"" + (isFormula ? "'" : "") + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Millionths of a degree as an exact decimal with trailing zeros dropped ("9.93333", "28").
    static func degrees(_ microdegrees: Int32) -> String {
        let magnitude = Int(microdegrees).magnitude
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return (microdegrees < 0 ? "-" : "") + String(magnitude / 1_000_000) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
