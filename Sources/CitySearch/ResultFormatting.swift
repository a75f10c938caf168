// ResultFormatting.swift: matches as terminal text or as the JSON of SEARCH.md §5.
import CityIndex
import Foundation

enum ResultFormatting {
    /// "57 cities match "san jo"", then one line per match: name (highlight in bold when
    /// `emphasize`), country, coordinates and id, and "matched ALTERNATE" when an alternate
    /// name matched (the highlight is then in the alternate).
    static func text(query: String, count: Int, page: some Collection<CityMatch>, emphasize: Bool) -> String {
        var lines = ["\(count) \(count == 1 ? "city matches" : "cities match") \"\(query)\""]
        for match in page {
            func emphasized(_ name: String) -> String {
                let range = match.highlightRange
                guard emphasize && !range.isEmpty else { return name }
                return name[..<range.lowerBound] + "\u{1B}[1m" + name[range] + "\u{1B}[0m" + name[range.upperBound...]
            }
            let alternate = match.matchedAlternateName
            let shown = alternate == nil ? emphasized(match.name) : match.name
            let matched = alternate.map { "  (matched \(emphasized($0)))" } ?? ""
            let edits = (match.editCount == 0 ? "" : "  (\(match.editCount) \(match.editCount == 1 ? "typo" : "typos"))")
                + (match.skipsWords ? "  (words skipped)" : "")
            lines.append("  \(shown), \(match.countryCode)  (\(degrees(match.latitudeMicrodegrees)), \(degrees(match.longitudeMicrodegrees)))  id \(match.id)\(matched)\(edits)")
        }
        return lines.joined(separator: "\n")
    }

    /// The object of SEARCH.md §5, on one line. When an alternate name matched (word
    /// matching), a result also has `"matchedName"`, and its highlights are in that name.
    static func json(query: String, count: Int, page: some Collection<CityMatch>) -> String {
        let results = page.map(resultObject)
        return "{\"query\": \(jsonString(query)), \"count\": \(count), \"results\": [" + results.joined(separator: ", ") + "]}"
    }

    /// One result of SEARCH.md §5 as a JSON object.
    static func resultObject(_ match: CityMatch) -> String {
        let highlight = match.highlightUTF16Range
        let matched = match.matchedAlternateName.map { ", \"matchedName\": \(jsonString($0))" } ?? ""
        let edits = (match.editCount == 0 ? "" : ", \"edits\": \(match.editCount)")
            + (match.skipsWords ? ", \"skipsWords\": true" : "")
        return "{\"id\": \(match.id), \"name\": \(jsonString(match.name)), \"country\": \(jsonString(match.countryCode)), "
            + "\"lat\": \(degrees(match.latitudeMicrodegrees)), \"lon\": \(degrees(match.longitudeMicrodegrees)), "
            + "\"highlights\": [[\(highlight.lowerBound), \(highlight.count)]]\(matched)\(edits)}"
    }

    /// One JSON object per match, one per line (NDJSON): the result objects of `json`.
    static func ndjson(page: some Collection<CityMatch>) -> String {
        page.map(resultObject).joined(separator: "\n")
    }

    /// RFC 4180 CSV: a header line, then one line per match.
    static func csv(page: some Collection<CityMatch>) -> String {
        let rows = page.map { match in
            [String(match.id), csvField(match.name), match.countryCode, degrees(match.latitudeMicrodegrees),
             degrees(match.longitudeMicrodegrees), csvField(match.matchedAlternateName ?? ""), String(match.editCount)]
                .joined(separator: ",")
        }
        return (["id,name,country,lat,lon,matched_name,edits"] + rows).joined(separator: "\n")
    }

    /// One city, for `--id`: a line of text, or one object in the JSON formats (CSV: a header and a row).
    static func city(_ city: City, format: OutputFormat) -> String {
        let lat = degrees(city.latitudeMicrodegrees), lon = degrees(city.longitudeMicrodegrees)
        let population = city.population.map { ", \"population\": \($0)" } ?? ""
        switch format {
        case .text:
            return "\(city.name), \(city.countryCode)  (\(lat), \(lon))  id \(city.id)" + (city.population.map { "  population \($0)" } ?? "")
        case .json, .ndjson:
            return "{\"id\": \(city.id), \"name\": \(jsonString(city.name)), \"country\": \(jsonString(city.countryCode)), "
                + "\"lat\": \(lat), \"lon\": \(lon)\(population)}"
        case .csv:
            return "id,name,country,lat,lon,population\n\(city.id),\(csvField(city.name)),\(city.countryCode),\(lat),\(lon),"
                + (city.population.map(String.init) ?? "")
        }
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

    /// A CSV field, quoted when it holds a comma, quote or line break (quotes doubled).
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
