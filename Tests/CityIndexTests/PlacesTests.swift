// PlacesTests.swift: every city of Data/ has the region its record names, with the places' names.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Places on Data/: regions and countries")
struct PlacesTests {
    @Test("every city's region is its record's, named as Data/places.json names it; verify() passes")
    func everyCityAgainstItsRecord() throws {
        let dataset = try Fixtures.defaultDataset.get()
        struct Places: Decodable {
            struct Region: Decodable { let country: String, code: String, iso: String?, name: String, aliases: [String] }
            struct Country: Decodable { let code: String, code3: String, name: String, aliases: [String] }
            let countries: [Country]
            let regions: [Region]
        }
        let places = try JSONDecoder().decode(Places.self, from: Data(contentsOf: URL(fileURLWithPath: Fixtures.defaultPlacesPath)))
        let regions = Dictionary(uniqueKeysWithValues: places.regions.map { ([$0.country, $0.code], $0) })
        let countries = Dictionary(uniqueKeysWithValues: places.countries.map { ($0.code, $0) })
        var named = 0
        for reference in dataset.cities {
            let city = try #require(dataset.index.city(id: reference.id))
            let region = city.region
            #expect(region?.code == reference.region, "id \(reference.id)")
            if let code = reference.region, let expected = regions[[reference.country, code]] {
                named += 1
                #expect(region?.name == expected.name && region?.isoCode == expected.iso && region?.aliases == expected.aliases,
                        "id \(reference.id)")
            } else if reference.region != nil {
                #expect(region?.name == nil, "id \(reference.id)")
            }
            #expect(city.country?.name == countries[reference.country]?.name, "id \(reference.id)")
        }
        // Data/places.json names nearly every region Data/'s cities give (the rest keep their code).
        let withRegion = dataset.cities.count { $0.region != nil }
        #expect(named * 1_000 >= withRegion * 995, "\(named) of \(withRegion) cities with a region have it named")
        try dataset.index.verify()
    }

    @Test("labels people recognise")
    func labels() throws {
        let index = try Fixtures.defaultDataset.get().index
        func label(_ id: Int) -> String? { index.city(id: id)?.label }
        #expect(label(4250542) == "Springfield, IL, US")
        #expect(label(6058560) == "London, ON, CA")
        #expect(label(2643743) == "London, England, GB")
        #expect(label(2988507) == "Paris, Île-de-France, FR")
        #expect(label(2147714) == "Sydney, NSW, AU")
        #expect(index.city(id: 2643743)?.country?.aliases.contains("UK") == true)
    }
}
