// SkippedWordTests.swift: the skipped-word fallback of forgiving word search (WORDS.md §9).
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Skipped words (WORDS.md §9)")
struct SkippedWordTests {
    /// Twenty cities named "Santa Clara N" make "santa cl" reach the fallback threshold.
    static let citiesJSON: String = {
        var cities = [
            #"{"country":"BR","name":"Rio de Janeiro","_id":1,"coord":{"lon":-43.2,"lat":-22.9},"population":6747815}"#,
            #"{"country":"AR","name":"Mar del Plata","_id":2,"coord":{"lon":-57.6,"lat":-38}, "population":614350}"#,
            #"{"country":"DO","name":"Santo Domingo Oeste","_id":3,"coord":{"lon":-70,"lat":18.5},"population":701269}"#,
            #"{"country":"DO","name":"Santo Domingo Este","_id":4,"coord":{"lon":-69.9,"lat":18.5},"population":948885}"#,
            #"{"country":"MX","name":"Mexico City","_id":5,"coord":{"lon":-99.1,"lat":19.4},"population":12294193,"alternatenames":["Ciudad de México","CDMX"]}"#,
            #"{"country":"AR","name":"San Miguel de Tucumán","_id":6,"coord":{"lon":-65.2,"lat":-26.8},"population":781023}"#,
            #"{"country":"BR","name":"Rio Janeiro Velho","_id":7,"coord":{"lon":-43,"lat":-22},"population":900}"#,
            #"{"country":"CU","name":"Santa Clara del Mar","_id":8,"coord":{"lon":-80,"lat":22.4},"population":250000}"#,
            #"{"country":"ES","name":"Mar Plateado","_id":9,"coord":{"lon":-1,"lat":38},"population":40}"#,
            #"{"country":"MX","name":"San Luis Potosí","_id":10,"coord":{"lon":-101,"lat":22.2},"population":722772,"alternatenames":["saina lu'isa potosi"]}"#,
            #"{"country":"MX","name":"Ejido San Luis Potosí","_id":11,"coord":{"lon":-115,"lat":32.5},"population":1200}"#,
        ]
        for number in 1 ... 20 {
            cities.append(#"{"country":"US","name":"Santa Clara \#(number)","_id":\#(100 + number),"coord":{"lon":-120,"lat":37},"population":\#(number)}"#)
        }
        return "[" + cities.joined(separator: ",\n") + "]"
    }()
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(citiesJSON.utf8)).bytes)
    static let reference = NaiveTypoSearch(cities: try! JSONDecoder().decode([ReferenceCity].self, from: Data(citiesJSON.utf8)),
                                           words: true)

    private func search(_ query: String, typos: TypoTolerance = .automatic, limit: Int = 10) throws -> CityMatches {
        try Self.index.search(query, matching: .words, order: .population, limit: limit, typos: typos)
    }

    @Test("the query's words in order with words between them, only when forgiving: \"rio janeiro\", \"ciudad mexico\"")
    func rule() throws {
        let rio = try search("rio janeiro")
        #expect(rio.map(\.id) == [1, 7])
        #expect(rio[0].skipsWords && rio[0].editCount == 0 && rio[0].highlightUTF16Range == 0 ..< 14)
        #expect(!rio[1].skipsWords && rio[1].highlightUTF16Range == 0 ..< 11)
        #expect(try search("rio janeiro", typos: .none).map(\.id) == [7])
        #expect(try search("rio jan").first?.highlightUTF16Range == 0 ..< 10)
        let mexico = try #require(try search("ciudad mexico").first)
        #expect(mexico.id == 5 && mexico.matchedAlternateName == "Ciudad de México" && mexico.skipsWords)
        #expect(try search("san tucuman").map(\.id) == [6])
        // The first query word is a name's word; the others follow it, in order.
        #expect(try search("janeiro rio").isEmpty)
        #expect(try search("de janeiro").map(\.id) == [1])
        #expect(try search("oeste santo").isEmpty)
        // A whole last word (a trailing separator) must be followed by another word.
        #expect(try search("santo oeste").map(\.id) == [3])
        #expect(try search("santo oeste ").isEmpty)
        #expect(try search("santo domingo ").map(\.id) == [4, 3])
    }

    @Test("a skipped word weighs as one edit: the big city before an exact hamlet, after comparable exact matches")
    func order() throws {
        // Mar Plateado (40) matches "mar plat" exactly; Mar del Plata (614,350) skips "del".
        let plata = try search("mar plat")
        #expect(plata.map(\.id) == [2, 9])
        #expect(plata.totalCount == 2)
        #expect(try search("mar plat", limit: 1).map(\.id) == [2])
        let alphabetical = try Self.index.search("mar plat", matching: .words, order: .alphabetical, typos: .automatic)
        #expect(alphabetical.map(\.id) == [9, 2])
    }

    @Test("a city matched with typos keeps the better of its two matches")
    func betterMatch() throws {
        // "san potosi" is two edits from the machine-made alternate "saina lu'isa potosi"
        // (weight 722,772 / 10 / 10 / 100 = 72); skipping "luis" weighs 72,277.
        let potosi = try search("san potosi")
        #expect(potosi.map(\.id) == [10, 11])
        #expect(potosi[0].skipsWords && potosi[0].editCount == 0 && potosi[0].matchedAlternateName == nil)
        #expect(potosi.totalCount == 2)
        #expect(try search("san potosi", typos: .maximum(1)).map(\.id) == [10, 11])
    }

    @Test("a fallback: nothing is added once 20 cities match without skipping")
    func threshold() throws {
        // Santa Clara 1…20 match "santa clara"; Santa Clara del Mar too: 21 cities.
        #expect(try search("santa clara", limit: 50).totalCount == 21)
        // With one typo "santa mar" matches nothing else: Santa Clara del Mar is found. With
        // two ("santa cla"), the twenty Santa Claras reach the threshold: it is only found as
        // they are, with two typos, not by skipping.
        #expect(try search("santa mar", typos: .maximum(1)).map(\.id) == [8])
        let twoTypos = try search("santa mar", limit: 50)
        #expect(twoTypos.totalCount == 21 && !twoTypos.contains { $0.skipsWords })
    }

    @Test("agrees with the naive reference, both orders, every budget, any limit")
    func differential() throws {
        let queries = ["rio janeiro", "rio jan", "rio j", "rio de jan", "rio velho", "mar plat", "mar p", "mar del plata",
                       "santo oeste", "santo oeste ", "santo domingo ", "santo este", "santo e", "ciudad mexico", "ciudad mex",
                       "san tucuman", "san miguel tucu", "santa mar", "santa clara", "santa c", "de janeiro", "oeste santo",
                       "clara mar", "rio", "x y", "san potosi", "san luis", "saina potosi", "luis potosi"]
        for query in queries {
            for budget in 0 ... 2 {
                let typos: TypoTolerance = budget == 0 ? .none : .maximum(budget)
                for order in ResultOrder.allCases {
                    let variants = Self.reference.queryKeyVariantsWithCosts(query)
                    let expected = Self.reference.search(queryKeys: variants.map(\.key), costs: variants.map(\.cost), budget: budget,
                                                         byPopulation: order == .population, skippingWords: typos != .none, typed: query)
                    let all = try Self.index.search(query, matching: .words, order: order, typos: typos)
                    #expect(all.asTypoReference == expected, "\(query) \(order) budget \(budget)")
                    #expect(all.totalCount == expected.count, "count: \(query) \(order) budget \(budget)")
                    let five = try Self.index.search(query, matching: .words, order: order, limit: 5, typos: typos)
                    #expect(five.asTypoReference == Array(expected.prefix(5)), "\(query) \(order) budget \(budget) limit 5")
                }
            }
        }
    }
}
