// PlacesCommandLineTests.swift: regions, --places, --nearest and --near as a user runs them.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Command line: places, nearest cities, searching from a location")
struct PlacesCommandLineTests {
    let buildIndex = Tool(name: "build-index")
    let citySearch = Tool(name: "city-search")
    let pluginTool = Tool(name: "CityIndexPluginTool")

    static let cities = #"""
        [{"_id":1,"name":"Springfield","country":"US","region":"IL","coord":{"lat":39.80172,"lon":-89.64371},"population":114394},
         {"_id":2,"name":"Springfield","country":"US","region":"MO","coord":{"lat":37.21533,"lon":-93.29824},"population":169176},
         {"_id":3,"name":"Paris","country":"US","region":"TX","coord":{"lat":33.66094,"lon":-95.55551},"population":24782},
         {"_id":4,"name":"Paris","country":"FR","region":"11","coord":{"lat":48.85341,"lon":2.3488},"population":2138551}]
        """#
    static let places = #"""
        {"countries":[{"code":"US","code3":"USA","name":"United States"},{"code":"FR","code3":"FRA","name":"France"}],
         "regions":[{"country":"US","code":"IL","iso":"US-IL","name":"Illinois"},{"country":"US","code":"MO","iso":"US-MO","name":"Missouri"},
                    {"country":"US","code":"TX","iso":"US-TX","name":"Texas"},{"country":"FR","code":"11","iso":"FR-IDF","name":"Île-de-France"}]}
        """#

    /// A directory with the list, the places file and the index built from them.
    func prepared() throws -> (directory: URL, index: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("places-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.cities.utf8).write(to: directory.appendingPathComponent("cities.json"))
        try Data(Self.places.utf8).write(to: directory.appendingPathComponent("places.json"))
        let index = directory.appendingPathComponent("cities.cidx").path
        let built = try buildIndex.run([directory.appendingPathComponent("cities.json").path, "--places",
                                        directory.appendingPathComponent("places.json").path, "-o", index, "--quiet"])
        #expect(built.status == 0, "\(built.standardError)")
        return (directory, index)
    }

    @Test("regions in text, JSON and CSV; qualified queries; --near orders and measures, --within restricts")
    func searches() throws {
        let (directory, index) = try prepared()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try citySearch.run(["--index", index, "--match", "words", "--order", "population", "springfield"])
        #expect(text.standardOutput == "2 cities match \"springfield\"\n  Springfield, MO, US  (37.21533, -93.29824)  id 2\n"
                + "  Springfield, IL, US  (39.80172, -89.64371)  id 1\n")
        let near = try citySearch.run(["--index", index, "--match", "words", "--order", "population", "--near", "39.8,-89.6",
                                       "--format", "json", "springfield"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(near.standardOutput.utf8)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.first?["id"] as? Int == 1 && results.first?["region"] as? String == "Illinois")
        #expect(results.first?["regionCode"] as? String == "IL" && results.first?["regionISO"] as? String == "US-IL")
        #expect((results.first?["distanceMeters"] as? Double ?? .infinity) < 5_000)
        let within = try citySearch.run(["--index", index, "--match", "words", "--near", "39.8,-89.6", "--within", "100", "springfield"])
        #expect(within.standardOutput.hasPrefix("1 city matches"), "\(within.standardOutput)")
        let qualified = try citySearch.run(["--index", index, "--match", "words", "--order", "population", "paris tx"])
        #expect(qualified.standardOutput == "1 city matches \"paris tx\"\n  Paris, TX, US  (33.66094, -95.55551)  id 3\n")
        let csv = try citySearch.run(["--index", index, "--match", "words", "--format", "csv", "--near", "48.85,2.35", "paris, france"])
        #expect(csv.standardOutput.hasPrefix("id,name,country,lat,lon,matched_name,edits,region,region_code,distance_meters\n"
                                              + "4,Paris,FR,48.85341,2.3488,,0,Île-de-France,11,"), "\(csv.standardOutput)")
    }

    @Test("--nearest in every format; a bad point is one line and status 64")
    func nearest() throws {
        let (directory, index) = try prepared()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try citySearch.run(["--index", index, "--nearest", "48.86,2.35", "--limit", "2"])
        #expect(text.standardOutput.hasPrefix("2 nearest cities to 48.86, 2.35\n  Paris, Île-de-France, FR  (48.85341, 2.3488)  id 4  0.7 km\n"),
                "\(text.standardOutput)")
        let south = try citySearch.run(["--index", index, "--nearest", "-33.9,151.2", "--limit", "1", "--format", "ndjson"])
        #expect(south.status == 0 && south.standardOutput.contains("\"distanceMeters\": "), "\(south.standardError)")
        let json = try citySearch.run(["--index", index, "--nearest", "40,-90", "--limit", "4", "--within", "500", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((object["results"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1, 2])
        let csv = try citySearch.run(["--index", index, "--nearest", "40,-90", "--limit", "1", "--format", "csv", "--min-population", "150000"])
        #expect(csv.standardOutput.hasPrefix("id,name,country,lat,lon,region,region_code,distance_meters\n2,Springfield,US,"))
        for bad in [["--nearest", "91,0"], ["--nearest", "abc"], ["--nearest", "1,2,3"], ["--near", "0,181", "x"], ["--nearest", "0,0", "--within", "-1"]] {
            let outcome = try citySearch.run(["--index", index] + bad)
            #expect(outcome.status == 64, "\(bad)")
            #expect(outcome.standardError.split(separator: "\n").count == 1 && outcome.standardOutput.isEmpty, "\(bad): \(outcome.standardError)")
        }
    }

    @Test("a malformed places file stops build-index (status 65) and the plugin's compiler at its line and column")
    func malformedPlaces() throws {
        let (directory, _) = try prepared()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad-places.json")
        try Data(#"{"countries":[{"code":"usa","name":"X"}]}"#.utf8).write(to: bad)
        let list = directory.appendingPathComponent("cities.json").path
        let built = try buildIndex.run([list, "--places", bad.path, "-o", directory.appendingPathComponent("x.cidx").path])
        #expect(built.status == 65)
        #expect(built.standardError == "build-index: \(bad.path):1:23: \"code\" must be two capital letters A-Z, found \"usa\"\n")
        let plugin = try pluginTool.run([list, directory.appendingPathComponent("y.cidx").path, bad.path])
        #expect(plugin.status == 1)
        #expect(plugin.standardError.hasPrefix("\(bad.path):1:23: error: \"code\" must be two capital letters"), "\(plugin.standardError)")
        // With a good places file the plugin's index names the regions.
        let good = try pluginTool.run([list, directory.appendingPathComponent("z.cidx").path, directory.appendingPathComponent("places.json").path])
        #expect(good.status == 0)
        let index = try CityIndex(path: directory.appendingPathComponent("z.cidx").path)
        #expect(index.city(id: 1)?.label == "Springfield, IL, US")
    }
}
