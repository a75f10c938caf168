// ExplanationJSON.swift: a search's trace as JSON, the same for city-search --explain and city-server's explain=true.
import CityIndex

extension JSONWriter {
    /// The fields of `explanation` (`CityIndex.explain(_:options:)`), written into the object
    /// being written: `microseconds` (the whole search), `stages` (each stage that ran: name,
    /// section, window, microseconds, candidates in and out, count, walks, nodes) and
    /// `rankings` (the first matches' id, name, weight and factors).
    public mutating func explanationFields(_ explanation: SearchExplanation) {
        field("microseconds", Self.microseconds(explanation.duration), decimals: 1)
        key("stages")
        array { json in
            for stage in explanation.stages {
                json.object { json in
                    json.field("name", stage.name)
                    json.field("section", stage.section)
                    json.field("window", stage.window)
                    json.field("microseconds", Self.microseconds(stage.duration), decimals: 1)
                    json.field("candidatesIn", stage.candidatesIn)
                    json.field("candidatesOut", stage.candidatesOut)
                    json.field("count", stage.totalCount)
                    json.field("walks", stage.walks)
                    json.field("nodesVisited", stage.nodesVisited)
                }
            }
        }
        key("rankings")
        array { json in
            for ranking in explanation.rankings {
                json.object { json in
                    json.field("position", ranking.position)
                    json.field("id", ranking.match.id)
                    json.field("name", ranking.match.name)
                    json.field("weight", ranking.weight, decimals: 2)
                    json.key("factors")
                    json.array { json in
                        for factor in ranking.factors { json.value(factor) }
                    }
                }
            }
        }
    }

    /// A duration in microseconds.
    public static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
