// WholeNamesTests.swift: the largest city whose primary name is the whole query weighs three times its population (WORDS.md §14).
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Testing

@Suite("Whole names typed (WORDS.md §14)")
struct WholeNamesTests {
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
        [{"country":"BR","name":"Porto Alegre","_id":1,"coord":{"lon":-51.23,"lat":-30.03},"population":1372741},
         {"country":"PT","name":"Porto","_id":2,"coord":{"lon":-8.61,"lat":41.15},"population":249633},
         {"country":"BR","name":"Porto Velho","_id":3,"coord":{"lon":-63.9,"lat":-8.76},"population":428527},
         {"country":"BJ","name":"Porto-Novo","_id":4,"coord":{"lon":2.6,"lat":6.5},"population":264320},
         {"country":"ES","name":"Santa Cruz de Tenerife","_id":5,"coord":{"lon":-16.25,"lat":28.47},"population":207312},
         {"country":"US","name":"Santa Cruz","_id":6,"coord":{"lon":-122.03,"lat":36.97},"population":64220},
         {"country":"BR","name":"Santa Cruz do Sul","_id":7,"coord":{"lon":-52.43,"lat":-29.72},"population":131365},
         {"country":"PH","name":"Santa Cruz","_id":8,"coord":{"lon":121.42,"lat":14.28},"population":60000},
         {"country":"US","name":"Saint George","_id":9,"coord":{"lon":-113.58,"lat":37.1},"population":89587},
         {"country":"SL","name":"Freetown","_id":10,"coord":{"lon":-13.24,"lat":8.49},"population":802639,"alternatenames":["Saint George"]},
         {"country":"US","name":"Portola","_id":11,"coord":{"lon":-120.47,"lat":39.81},"population":0},
         {"country":"US","name":"Porto","_id":12,"coord":{"lon":-80.0,"lat":40.0},"population":0}]
        """.utf8)).bytes)

    func top(_ query: String, typos: TypoTolerance = .automatic, countries: Set<String>? = nil) throws -> [String] {
        try Self.index.search(query, matching: .words, order: .population, limit: 10, typos: typos, countries: countries)
            .map { $0.name + ($0.matchedAlternateName.map { " [\($0)]" } ?? "") + " " + $0.city.countryCode }
    }

    @Test("the largest city named by the whole query weighs three times its population, in every typo setting")
    func wholeName() throws {
        // Before: Porto (249,633) fifth, after every city whose name starts with "porto".
        // Now 748,899: after Porto Alegre (1.4 million, more than three times larger), before the rest.
        for typos in [TypoTolerance.none, .automatic] {
            #expect(try top("porto", typos: typos).prefix(4) == ["Porto Alegre BR", "Porto PT", "Porto Velho BR", "Porto-Novo BJ"],
                    "\(typos)")
        }
        // The namesake of no people stays last; a longer name that starts with the query is not whole.
        #expect(try top("porto", typos: .none).suffix(2) == ["Porto US", "Portola US"])
        // Still a prefix search: "port" names no city whole.
        #expect(try top("port", typos: .none).prefix(2) == ["Porto Alegre BR", "Porto Velho BR"])
    }

    @Test("one city per key: a namesake keeps its population; a whole name through an abbreviation counts")
    func oneCityAndAbbreviations() throws {
        // Santa Cruz, CA (64,220 × 3) before Santa Cruz do Sul (131,365); Santa Cruz, PH (60,000) is not promoted.
        #expect(try top("santa cruz") == ["Santa Cruz de Tenerife ES", "Santa Cruz US", "Santa Cruz do Sul BR", "Santa Cruz PH"])
        // "st george" is Saint George's whole name (WORDS.md §7): before Freetown's alternate (a tenth of 802,639).
        #expect(try top("st george") == ["Saint George US", "Freetown [Saint George] SL"])
        // With countries, a whole name outside them is left out; the others keep their weight.
        #expect(try top("santa cruz", countries: ["PH", "BR"]) == ["Santa Cruz do Sul BR", "Santa Cruz PH"])
    }

    @Test("the trace names the stage and the factor")
    func explained() throws {
        let explanation = try Self.index.explain("porto", options: .recommended)
        #expect(explanation.stages.contains { $0.name == "whole names" && $0.section == "WORDS.md §14" })
        let porto = try #require(explanation.rankings.first { $0.match.name == "Porto" && $0.match.city.countryCode == "PT" })
        #expect(porto.factors.contains("the whole name typed ×3"), "\(porto.factors)")
    }
}
