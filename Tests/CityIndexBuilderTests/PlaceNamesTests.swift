// PlaceNamesTests.swift: the places file and the cities' region codes, read and refused by rule.
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Places: the region field and the places file")
struct PlaceNamesTests {
    static let cities = #"""
        [{"_id":1,"name":"Springfield","country":"US","region":"IL","coord":{"lat":39.80172,"lon":-89.64371},"population":114394},
         {"_id":2,"name":"Springfield","country":"US","region":"MO","coord":{"lat":37.21533,"lon":-93.29824},"population":169176},
         {"_id":3,"name":"Berlin","country":"DE","region":"16","coord":{"lat":52.52437,"lon":13.41053},"population":3426354},
         {"_id":4,"name":"Perth","country":"GB","region":"SCT","coord":{"lat":56.39522,"lon":-3.43139}},
         {"_id":5,"name":"Nowhere","country":"GB","region":null,"coord":{"lat":0,"lon":0}},
         {"_id":6,"name":"Unnamed","country":"FR","region":"99","coord":{"lat":45,"lon":2}}]
        """#
    static let places = #"""
        {"countries":[{"code":"US","code3":"USA","name":"United States","aliases":["USA","U.S.A."]},
                      {"code":"GB","code3":"GBR","name":"United Kingdom","aliases":["UK"]},
                      {"code":"NZ","name":"New Zealand"}],
         "ignored": {"any": [1, 2]},
         "regions":[{"country":"US","code":"IL","iso":"US-IL","name":"Illinois"},
                    {"country":"US","code":"MO","iso":"US-MO","name":"Missouri","aliases":["Show-Me State"]},
                    {"country":"DE","code":"16","iso":"DE-BE","name":"Berlin"},
                    {"country":"GB","code":"SCT","iso":"GB-SCT","name":"Scotland","aliases":["Alba"]},
                    {"country":"CA","code":"08","iso":"CA-ON","name":"Ontario"}]}
        """#

    func build(cities: String = Self.cities, places: String? = Self.places) throws -> CityIndex {
        var builder = IndexBuilder()
        builder.places = try places.map { try PlaceNames(jsonBytes: Array($0.utf8)) }
        let index = try CityIndex(bytes: builder.build(jsonBytes: Array(cities.utf8)).bytes)
        try index.verify()
        return index
    }

    @Test("regions and countries are stored, labelled by the rule of City.label, and verify() passes")
    func storedAndLabelled() throws {
        let index = try build()
        func city(_ id: Int) throws -> City { try #require(index.city(id: id)) }
        #expect(try city(1).label == "Springfield, IL, US")
        #expect(try city(2).region == Region(code: "MO", isoCode: "US-MO", name: "Missouri", aliases: ["Show-Me State"], countryCode: "US"))
        #expect(try city(3).label == "Berlin, DE")   // the region is the city's own name
        #expect(try city(4).label == "Perth, Scotland, GB")
        #expect(try city(5).region == nil && city(5).label == "Nowhere, GB")
        // A code the places do not name is kept, without a name: the label leaves it out.
        #expect(try city(6).region == Region(code: "99", isoCode: nil, name: nil, aliases: [], countryCode: "FR"))
        #expect(try city(6).label == "Unnamed, FR")
        #expect(try city(1).country == Country(code: "US", code3: "USA", name: "United States", aliases: ["USA", "U.S.A."]))
        #expect(try city(3).country == nil)   // no names for DE
    }

    @Test("without places the codes are kept and no country is named; a list without regions has neither section")
    func withoutPlaces() throws {
        let index = try build(places: nil)
        #expect(index.city(id: 1)?.region?.code == "IL" && index.city(id: 1)?.region?.name == nil)
        #expect(index.city(id: 1)?.label == "Springfield, US" && index.city(id: 1)?.country == nil)
        let plain = try build(cities: Fixtures.smallCitiesJSON, places: nil)
        #expect(!plain.sections.contains { $0.name == "REGN" || $0.name == "CTRY" })
        #expect(plain.city(id: 2988507)?.region == nil)
    }

    @Test("CityRecord values with regions build the bytes of the equivalent JSON")
    func recordsCarryRegions() throws {
        let records = [CityRecord(id: 1, name: "Springfield", countryCode: "US", latitude: 39.80172, longitude: -89.64371, region: "IL")]
        let json = #"[{"_id":1,"name":"Springfield","country":"US","region":"IL","coord":{"lat":39.80172,"lon":-89.64371}}]"#
        #expect(try IndexBuilder().build(cities: records).bytes == IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes)
    }

    @Test("a malformed places file names the line and column", arguments: [
        ("", 1, 1, "expected the places file as an object"),
        (#"{"countries":{}}"#, 1, 14, "\"countries\" must be an array"),
        (#"{"countries":[{"code":"us","name":"X"}]}"#, 1, 23, "\"code\" must be two capital letters"),
        (#"{"countries":[{"code":"US"}]}"#, 1, 15, "a country has no \"name\""),
        (#"{"countries":[{"code":"US","code3":"US","name":"X"}]}"#, 1, 36, "\"code3\" must be three capital letters"),
        (#"{"countries":[{"code":"US","name":"X"},{"code":"US","name":"Y"}]}"#, 1, 40, "country US is listed twice"),
        (#"{"regions":[{"country":"US","code":"TX","name":""}]}"#, 1, 48, "\"name\" must be 1 to 255 bytes long"),
        (#"{"regions":[{"country":"US","name":"Texas"}]}"#, 1, 13, "a region has no \"code\""),
        (#"{"regions":[{"country":"US","code":"TX","name":"A"},{"country":"US","code":"TX","name":"B"}]}"#, 1, 53, "region TX of US is listed twice"),
        (#"{"regions":[{"country":"US","code":"TX","name":"A","aliases":[1]}]}"#, 1, 63, "\"aliases\" must be a string"),
        (#"{"regions":[{"country":"US","code":"TX","code":"TX","name":"A"}]}"#, 1, 41, "duplicate key \"code\""),
        (#"{"regions":[]} x"#, 1, 16, "unexpected 'x' after the end of the places object"),
    ] as [(String, Int, Int, String)])
    func refusesMalformedPlaces(json: String, line: Int, column: Int, message: String) throws {
        do throws(IndexBuildError) {
            _ = try PlaceNames(jsonBytes: Array(json.utf8))
            Issue.record("accepted: \(json)")
        } catch {
            guard case .invalidPlaceNames(_, let listError) = error else { Issue.record("\(error)"); return }
            #expect(listError.message.contains(message), "\(listError)")
            #expect(listError.line == line && listError.column == column, "\(listError)")
        }
    }

    @Test("a bad region field names its record; more distinct regions than the limit fail at the record that passes it",
          arguments: [
              (#"[{"country":"US","name":"A","_id":1,"region":5,"coord":{"lon":0,"lat":0}}]"#, "\"region\" must be a string"),
              (#"[{"country":"US","name":"A","_id":1,"region":"","coord":{"lon":0,"lat":0}}]"#, "\"region\" must be 1 to 255 bytes long, found 0"),
              (#"[{"country":"US","name":"A","_id":1,"region":"\#(String(repeating: "x", count: 256))","coord":{"lon":0,"lat":0}}]"#,
               "\"region\" must be 1 to 255 bytes long, found 256"),
          ])
    func refusesBadRegions(json: String, message: String) throws {
        #expect(throws: IndexBuildError.self) { try IndexBuilder().build(jsonBytes: Array(json.utf8)) }
        do throws(IndexBuildError) {
            _ = try IndexBuilder().build(jsonBytes: Array(json.utf8))
        } catch {
            guard case .invalidCityList(let listError) = error else { Issue.record("\(error)"); return }
            #expect(listError.message.contains(message) && listError.recordID == 1, "\(listError)")
        }
        var builder = IndexBuilder()
        builder.limits.maximumRegionCount = 3
        do throws(IndexBuildError) {
            _ = try builder.build(jsonBytes: Array(Self.cities.utf8))
            Issue.record("more regions than the limit were built")
        } catch {
            guard case .invalidCityList(let listError) = error else { Issue.record("\(error)"); return }
            #expect(listError.message.contains("more than 3 distinct regions") && listError.recordID == 4, "\(listError)")
        }
    }
}
