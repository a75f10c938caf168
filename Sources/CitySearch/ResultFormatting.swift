// ResultFormatting.swift: matches as terminal text or as the JSON of SEARCH.md §5.
import CityIndex
import CityJSON
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
            lines.append("  \(shown)\(region), \(safe(match.countryCode))  (\(JSONWriter.degrees(match.latitudeMicrodegrees)), \(JSONWriter.degrees(match.longitudeMicrodegrees)))  id \(match.id)\(distance)\(matched)\(edits)")
        }
        return lines.joined(separator: "\n")
    }

    /// The object of SEARCH.md §5, on one line: the query, the count and the result objects
    /// (CityJSON, the same as city-server's without its HTML highlight); with `explanation`
    /// (`--explain`), the trace's fields after them (`JSONWriter.explanationFields`).
    static func json(query: String, count: Int, page: some Collection<CityMatch>, near: Coordinate? = nil,
                     explanation: SearchExplanation? = nil) -> String {
        var json = JSONWriter(spaced: true)
        json.object { json in
            json.field("query", query)
            json.field("count", count)
            if let near { json.point(near) }
            json.places(page, geoJSON: false, at: \.city) { json, match, _ in json.match(match, near: near) }
            if let explanation { json.explanationFields(explanation) }
        }
        return json.text
    }

    /// One JSON object per match, one per line (NDJSON): the result objects of `json`.
    static func ndjson(page: some Collection<CityMatch>, near: Coordinate? = nil) -> String {
        page.map { match in
            var json = JSONWriter(spaced: true)
            json.object { $0.match(match, near: near) }
            return json.text
        }.joined(separator: "\n")
    }

    /// The CSV columns of a match, before `distance_meters` (with `--near`).
    static let matchColumns = ["id", "name", "country", "lat", "lon", "matched_name", "edits", "region", "region_code"]

    /// RFC 4180 CSV: a header line, then one line per match.
    static func csv(page: some Collection<CityMatch>, near: Coordinate? = nil) -> String {
        let rows = page.map { match in
            [String(match.id), csvField(match.name), csvField(match.countryCode), JSONWriter.degrees(match.latitudeMicrodegrees),
             JSONWriter.degrees(match.longitudeMicrodegrees), csvField(match.matchedAlternateName ?? ""), String(match.editCount),
             csvField(match.city.region?.name ?? ""), csvField(match.city.region?.code ?? "")]
                + (near.map { [meters(match.city.coordinate.distanceMeters(to: $0))] } ?? [])
        }
        let header = matchColumns.joined(separator: ",") + (near == nil ? "" : ",distance_meters")
        return ([header] + rows.map { $0.joined(separator: ",") }).joined(separator: "\n")
    }

    /// One city, for `--id`: a line of text, or one object in the JSON formats (CSV: a header and a row).
    static func city(_ city: City, format: OutputFormat) -> String {
        let lat = JSONWriter.degrees(city.latitudeMicrodegrees), lon = JSONWriter.degrees(city.longitudeMicrodegrees)
        switch format {
        case .text:
            return "\(TerminalText.safe(city.label))  (\(lat), \(lon))  id \(city.id)" + (city.population.map { "  population \($0)" } ?? "")
        case .json, .ndjson:
            var json = JSONWriter(spaced: true)
            json.object { $0.cityFields(city) }
            return json.text
        case .csv:
            return "id,name,country,lat,lon,population,region,region_code\n\(city.id),\(csvField(city.name)),\(csvField(city.countryCode)),\(lat),\(lon),"
                + (city.population.map(String.init) ?? "") + ",\(csvField(city.region?.name ?? "")),\(csvField(city.region?.code ?? ""))"
        }
    }

    /// `--nearest`: "3 nearest cities to 48.8566, 2.3522", then a line per city with its
    /// distance; JSON `{"nearest": {"lat", "lon"}, "count", "results": [… "distanceMeters"]}`.
    static func nearest(_ found: [NearbyCity], to point: Coordinate, format: OutputFormat) -> String {
        func object(_ nearby: NearbyCity) -> String {
            var json = JSONWriter(spaced: true)
            json.object { $0.nearby(nearby) }
            return json.text
        }
        switch format {
        case .text:
            let header = "\(found.count) nearest \(found.count == 1 ? "city" : "cities") to \(point.latitude), \(point.longitude)"
            return ([header] + found.map { nearby in
                let city = nearby.city
                return "  \(TerminalText.safe(city.label))  (\(JSONWriter.degrees(city.latitudeMicrodegrees)), \(JSONWriter.degrees(city.longitudeMicrodegrees)))  id \(city.id)  "
                    + kilometres(nearby.distanceMeters)
            }).joined(separator: "\n")
        case .json:
            var json = JSONWriter(spaced: true)
            json.object { json in
                json.point(point)
                json.field("count", found.count)
                json.places(found, geoJSON: false, at: \.city) { json, nearby, _ in json.nearby(nearby) }
            }
            return json.text
        case .ndjson:
            return found.map(object).joined(separator: "\n")
        case .csv:
            return (["id,name,country,lat,lon,region,region_code,distance_meters"] + found.map { nearby in
                let city = nearby.city
                return [String(city.id), csvField(city.name), csvField(city.countryCode), JSONWriter.degrees(city.latitudeMicrodegrees),
                        JSONWriter.degrees(city.longitudeMicrodegrees), csvField(city.region?.name ?? ""), csvField(city.region?.code ?? ""),
                        meters(nearby.distanceMeters)].joined(separator: ",")
            }).joined(separator: "\n")
        }
    }

    /// Whole metres, as the JSON objects write them: "345".
    static func meters(_ value: Double) -> String { JSONWriter.number(value, decimals: 0) }

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


}
