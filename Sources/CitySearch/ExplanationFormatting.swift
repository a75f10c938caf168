// ExplanationFormatting.swift: `city-search --explain` as a table (its JSON is ResultFormatting.json's).
import CityIndex
import CityJSON

enum ExplanationFormatting {
    /// The search's line, a table of its stages, then the shown matches, each with its weight
    /// and what changed it; no blank line, so that the whole is one block to copy.
    static func text(_ explanation: SearchExplanation, page: some Collection<CityMatch>, offset: Int) -> String {
        let options = explanation.options
        let count = explanation.matches.totalCount
        var lines = ["\(SearchExplanation.groupedCount(count)) \(count == 1 ? "city matches" : "cities match") "
                     + "\"\(TerminalText.safe(explanation.query))\" in \(microseconds(explanation.duration)) "
                     + "(\(options.matching), \(options.order), typos \(options.typos.defaultValueDescription))"]
        let header = ["stage", "section", "window", "in", "out", "count", "walks", "nodes", "time"]
        var rows = [header]
        for stage in explanation.stages {
            rows.append([stage.name, stage.section, stage.window.map { $0 == .max ? "all" : SearchExplanation.groupedCount($0) } ?? "",
                         SearchExplanation.groupedCount(stage.candidatesIn), SearchExplanation.groupedCount(stage.candidatesOut),
                         SearchExplanation.groupedCount(stage.totalCount), SearchExplanation.groupedCount(stage.walks),
                         SearchExplanation.groupedCount(stage.nodesVisited), microseconds(stage.duration)])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                // Names left, numbers right.
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + padding : padding + cell
            }
            lines.append("  " + cells.joined(separator: "  "))
        }
        let rankings = Dictionary(explanation.rankings.map { ($0.position, $0) }, uniquingKeysWith: { first, _ in first })
        for (number, match) in zip(offset..., page) {
            let alternate = match.matchedAlternateName.map { " (matched \(TerminalText.safe($0)))" } ?? ""
            var line = "  \(number + 1). \(TerminalText.safe(match.city.label))  id \(match.id)\(alternate)"
            if let ranking = rankings[number] {
                line += "\n       weight \(SearchExplanation.groupedCount(Int(ranking.weight.rounded()))): "
                    + ranking.factors.map(TerminalText.safe).joined(separator: " · ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static func microseconds(_ duration: Duration) -> String {
        let value = JSONWriter.microseconds(duration)
        return value < 10 ? JSONWriter.number(value, decimals: 1) + " µs" : SearchExplanation.groupedCount(Int(value.rounded())) + " µs"
    }
}
