// InitialismTests.swift: "la", "sf", "nyc" find the city they stand for first (WORDS.md §12).
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Initialisms (WORDS.md §12)")
struct InitialismTests {
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
        [{"country":"US","name":"Los Angeles","_id":1,"coord":{"lon":-118.2,"lat":34.1},"population":3898747,"alternatenames":["LA","L.A."]},
         {"country":"NG","name":"Lagos","_id":2,"coord":{"lon":3.4,"lat":6.5},"population":15388000,"alternatenames":["LOS"]},
         {"country":"US","name":"San Francisco","_id":3,"coord":{"lon":-122.4,"lat":37.8},"population":873965,"alternatenames":["SF","sf city"]},
         {"country":"TN","name":"Sfax","_id":4,"coord":{"lon":10.8,"lat":34.7},"population":330440},
         {"country":"US","name":"New York City","_id":5,"coord":{"lon":-74,"lat":40.7},"population":8804190,"alternatenames":["NY","NYC","Nyc"]},
         {"country":"XX","name":"Smallford","_id":6,"coord":{"lon":0,"lat":0},"population":50000,"alternatenames":["SF"]},
         {"country":"XX","name":"Nyala","_id":7,"coord":{"lon":24.9,"lat":12},"population":565734}]
        """.utf8)).bytes)

    func top(_ query: String, matching: MatchMode = .words, order: ResultOrder = .population) throws -> [String] {
        try Self.index.search(query, matching: matching, order: order, limit: 3, typos: .automatic)
            .map { $0.name + ($0.matchedAlternateName.map { " [\($0)]" } ?? "") }
    }

    @Test("an alternate of capitals spelling the initials of the city's name weighs ten times its population")
    func promoted() throws {
        // Before: Lagos (15.4 million, a prefix of its name) before Los Angeles by "LA" (a tenth of 3.9 million).
        #expect(try top("la") == ["Los Angeles [LA]", "Lagos"])
        // Before: Sfax (330,440) before San Francisco by "SF" (87,396).
        #expect(try top("sf") == ["San Francisco [SF]", "Sfax", "Smallford [SF]"])
        #expect(try top("nyc") == ["New York City [NYC]"])
        // The first letters of the first words: "NY" of New York City, before Nyala.
        let ny = try top("ny")
        #expect(ny == ["New York City [NY]", "Nyala"], "\(ny)")
    }

    @Test("keys of 2 to 5 letters: a five-letter initialism is promoted, a six-letter one is not")
    func lengthBounds() throws {
        // Five and six words, and a larger city whose own name each key begins.
        let index = try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
            [{"country":"XX","name":"Alpha Beta Gamma Delta Epsilon","_id":1,"coord":{"lon":0,"lat":0},"population":500000,"alternatenames":["ABGDE"]},
             {"country":"XX","name":"Abgdetown","_id":2,"coord":{"lon":1,"lat":1},"population":1000000},
             {"country":"XX","name":"Alpha Beta Gamma Delta Epsilon Zeta","_id":3,"coord":{"lon":2,"lat":2},"population":500000,"alternatenames":["ABGDEZ"]},
             {"country":"XX","name":"Abgdeztown","_id":4,"coord":{"lon":3,"lat":3},"population":1000000}]
            """.utf8)).bytes)
        func first(_ query: String) throws -> [Int] {
            try index.search(query, matching: .words, order: .population, limit: 2, typos: .none).map(\.id)
        }
        // 10 × 500,000 before 1,000,000.
        #expect(try first("abgde") == [1, 2])
        // Not an initialism key: a tenth of 500,000 after 1,000,000.
        #expect(try first("abgdez") == [4, 3])
    }

    @Test("capitals that are not the city's initials, other modes and other cases are not promoted")
    func notPromoted() throws {
        // "LOS" is an airport code of Lagos, not its initials: Los Angeles keeps its place.
        #expect(try top("los") == ["Los Angeles", "Lagos [LOS]"])
        // "SF" on Smallford (50,000) is not its initials: it weighs 5,000, after Sfax; San Francisco's is.
        #expect(try top("sf") == ["San Francisco [SF]", "Sfax", "Smallford [SF]"])
        // A query that goes on past the letters ("la " asks for another word) is not an initialism.
        #expect(try top("la ").first != "Los Angeles [LA]")
        // Prefix matching, alphabetical order: unchanged.
        #expect(try top("la", matching: .prefix) == ["Lagos"])
        #expect(try top("sf", order: .alphabetical) == ["San Francisco [SF]", "Sfax", "Smallford [SF]"])
        // Counts are unchanged: the promoted city matched anyway.
        #expect(try Self.index.search("sf", matching: .words, order: .population, limit: 1).totalCount == 3)
        // The restricted search keeps the rule, within its countries.
        #expect(try Self.index.search("sf", matching: .words, order: .population, limit: 2, countries: ["TN"]).map(\.name) == ["Sfax"])
        #expect(try Self.index.search("sf", matching: .words, order: .population, limit: 2, countries: ["US"]).map(\.name) == ["San Francisco"])
    }

    @Test("the initialisms of the 40 most populous cities that have one agree with the naive reference on Data/")
    func differential() throws {
        let dataset = try Fixtures.defaultDataset.get()
        var queries: [String] = []
        for city in dataset.cities.sorted(by: { ($0.population ?? 0) > ($1.population ?? 0) }) where queries.count < 40 {
            let names = [city.name] + (city.alternatenames ?? [])
            for name in names.dropFirst() where name.count <= 5 {
                let key = Array(name.lowercased().utf8)
                if NaiveWordSearch.initialismSlot(names: names, key: key) != nil, !queries.contains(name.lowercased()) {
                    queries.append(name.lowercased())
                }
            }
        }
        queries = Array(queries.prefix(40))
        #expect(queries.count == 40 && queries.contains("la") && queries.contains("sf") && queries.contains("nyc"), "\(queries)")
        for query in queries {
            let top = try dataset.index.searchIgnoringPlaces(query, matching: .words, order: .population, limit: 10)
            let expected = Array(dataset.wordReference.search(query, byPopulation: true).prefix(10))
            #expect(top.asWordReference == expected, "\(query)")
        }
        for (query, name) in [("la", "Los Angeles"), ("sf", "San Francisco"), ("nyc", "New York City"), ("kl", "Kuala Lumpur")] {
            let first = try dataset.index.search(query, matching: .words, order: .population, limit: 1, typos: .automatic).first
            #expect(first?.name == name && first?.matchedAlternateName == query.uppercased(), "\(query): \(first?.name ?? "-")")
        }
    }
}
