// ResultFormatting.swift: matches as terminal text or as the JSON of SEARCH.md §5.
import CityIndex

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
            let edits = match.editCount == 0 ? "" : "  (\(match.editCount) \(match.editCount == 1 ? "typo" : "typos"))"
            lines.append("  \(shown), \(match.countryCode)  (\(degrees(match.latitudeMicrodegrees)), \(degrees(match.longitudeMicrodegrees)))  id \(match.id)\(matched)\(edits)")
        }
        return lines.joined(separator: "\n")
    }

    /// The object of SEARCH.md §5, on one line. When an alternate name matched (word
    /// matching), a result also has `"matchedName"`, and its highlights are in that name.
    static func json(query: String, count: Int, page: some Collection<CityMatch>) -> String {
        let results = page.map { match in
            let highlight = match.highlightUTF16Range
            let matched = match.matchedAlternateName.map { ", \"matchedName\": \(jsonString($0))" } ?? ""
            let edits = match.editCount == 0 ? "" : ", \"edits\": \(match.editCount)"
            return "{\"id\": \(match.id), \"name\": \(jsonString(match.name)), \"country\": \(jsonString(match.countryCode)), "
                + "\"lat\": \(degrees(match.latitudeMicrodegrees)), \"lon\": \(degrees(match.longitudeMicrodegrees)), "
                + "\"highlights\": [[\(highlight.lowerBound), \(highlight.count)]]\(matched)\(edits)}"
        }
        return "{\"query\": \(jsonString(query)), \"count\": \(count), \"results\": [" + results.joined(separator: ", ") + "]}"
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
