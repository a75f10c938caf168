// Fixtures.swift: indexes and reference searches shared by the tests, built once.
import CityIndex
import CityIndexArtifacts
import CityIndexBuilder
import Foundation

/// Test fixtures: the shipped dataset (and the shared 209k list) loaded as an index and as the
/// naive references, and a small hand-written list.
///
/// A dataset loaded both ways: as an index built by `IndexBuilder` and as the naive
/// reference search over the same JSON decoded by `JSONDecoder`.
public struct LoadedDataset: Sendable {
    public let index: CityIndex
    public let indexBytes: [UInt8]
    public let reference: NaiveCitySearch
    public let wordReference: NaiveWordSearch
    public let names: [String]
    /// Each city's primary name, then its alternates.
    public let allNames: [[String]]
    /// Population by id (unknown: 0).
    public let populationByID: [Int: Int]
    /// The cities as `JSONDecoder` reads them.
    public let cities: [ReferenceCity]

    /// - Parameter placesPath: the places file the index is built with (`IndexBuilder.places`).
    public init(path: String, placesPath: String? = nil) throws {
        let json = try InputReading.decompressedBytes(path: path)
        var builder = IndexBuilder()
        builder.places = try placesPath.map { try PlaceNames(contentsOfFile: $0) }
        indexBytes = try builder.build(jsonBytes: json).bytes
        index = try CityIndex(bytes: indexBytes)
        let cities = try JSONDecoder().decode([ReferenceCity].self, from: Data(json))
        self.cities = cities
        names = cities.map(\.name)
        allNames = cities.map { [$0.name] + ($0.alternatenames ?? []) }
        populationByID = Dictionary(uniqueKeysWithValues: cities.map { ($0.id, $0.population ?? 0) })
        reference = NaiveCitySearch(cities: cities)
        wordReference = NaiveWordSearch(cities: cities)
    }
}

public enum Fixtures {
    /// `Tests/Fixtures/`: small input files, a format 1 index and the fuzzer's regressions.
    public static let directory = SharedData.packageRoot.appendingPathComponent("Tests/Fixtures")

    /// `Data/cities500.json.xz`, the dataset the project ships.
    public static let defaultDataPath = SharedData.packageRoot.appendingPathComponent("Data/cities500.json.xz").path

    /// `Data/places.json`, the names of the shipped dataset's countries and regions.
    public static let defaultPlacesPath = SharedData.packageRoot.appendingPathComponent("Data/places.json").path

    /// The shipped dataset with its places, as `build-index` builds it by default; loaded once per test process.
    public static let defaultDataset: Result<LoadedDataset, any Error> = Result {
        try LoadedDataset(path: defaultDataPath, placesPath: defaultPlacesPath)
    }

    /// The real 209,557-city list from the shared folder, when `CITYINDEX_SHARED` names it.
    public static let sharedDataset: Result<LoadedDataset, any Error>? = SharedData.file("data/cities.json.xz").map { url in
        Result { try LoadedDataset(path: url.path) }
    }

    /// A handful of cities that exercise folding, ordering and highlighting.
    public static let smallCitiesJSON = """
        [
        {"country":"UA","name":"Hurzuf","_id":707860,"coord":{"lon":34.283333,"lat":44.549999}},
        {"country":"DE","name":"München","_id":2867714,"coord":{"lon":11.57549,"lat":48.13743},"alternatenames":["Munich","Мюнхен"]},
        {"country":"DE","name":"Munchen","_id":1,"coord":{"lon":11,"lat":48}},
        {"country":"FR","name":"Straße","_id":2,"coord":{"lon":7.7,"lat":48.5}},
        {"country":"PL","name":"Łódź","_id":3093133,"coord":{"lon":19.466669,"lat":51.75}},
        {"country":"CH","name":"Zu\\u0308rich","_id":2657896,"coord":{"lon":8.55,"lat":47.366669}},
        {"country":"US","name":"New York","_id":5128581,"coord":{"lon":-74.005966,"lat":40.714272},"population":8804190,"alternatenames":["NYC"]},
        {"country":"US","name":"Newark","_id":5101798,"coord":{"lon":-74.172363,"lat":40.735661}},
        {"country":"KR","name":"서울","_id":1835848,"coord":{"lon":126.977829,"lat":37.566349}},
        {"country":"US","name":"Paris","_id":4717560,"coord":{"lon":-95.555397,"lat":33.660938},"population":25171},
        {"country":"FR","name":"Paris","_id":2988507,"coord":{"lon":2.3488,"lat":48.853409},"population":2138551},
        {"country":"NL","name":"'t Zand","_id":2746031,"coord":{"lon":4.75556,"lat":52.83667}},
        {"country":"GR","name":"Αθήνα","_id":264371,"coord":{"lon":23.716221,"lat":37.979439}}
        ]
        """

    public static let smallIndexBytes: [UInt8] = try! IndexBuilder().build(jsonBytes: Array(smallCitiesJSON.utf8)).bytes

    /// A few cities with regions, and places naming most of them: an index with `REGN` and `CTRY`.
    public static let smallPlacesIndexBytes: [UInt8] = {
        let cities = #"""
            [{"country":"US","name":"Springfield","_id":1,"region":"IL","coord":{"lon":-89.64371,"lat":39.80172},"population":114394},
             {"country":"US","name":"Springfield","_id":2,"region":"MO","coord":{"lon":-93.29824,"lat":37.21533},"population":169176},
             {"country":"US","name":"Paris","_id":3,"region":"TX","coord":{"lon":-95.5554,"lat":33.66094},"population":24782},
             {"country":"FR","name":"Paris","_id":4,"region":"11","coord":{"lon":2.3488,"lat":48.85341},"population":2138551},
             {"country":"FJ","name":"Somosomo","_id":5,"region":"N","coord":{"lon":-179.97,"lat":-16.77}},
             {"country":"FJ","name":"Lambasa","_id":6,"coord":{"lon":179.38,"lat":-16.43}},
             {"country":"AQ","name":"Pole","_id":7,"coord":{"lon":0,"lat":-90}}]
            """#
        let places = #"""
            {"countries":[{"code":"US","code3":"USA","name":"United States","aliases":["USA"]},{"code":"FR","name":"France"}],
             "regions":[{"country":"US","code":"IL","iso":"US-IL","name":"Illinois"},{"country":"US","code":"TX","iso":"US-TX","name":"Texas","aliases":["Tejas"]},
                        {"country":"FR","code":"11","iso":"FR-IDF","name":"Île-de-France"}]}
            """#
        var builder = IndexBuilder()
        builder.places = try! PlaceNames(jsonBytes: Array(places.utf8))
        return try! builder.build(jsonBytes: Array(cities.utf8)).bytes
    }()
    public static let smallIndex: CityIndex = try! CityIndex(bytes: smallIndexBytes)
    public static let smallReference: NaiveCitySearch = try! NaiveCitySearch(json: Data(smallCitiesJSON.utf8))
}

extension CityMatches {
    /// The matches in the reference's shape, for comparison.
    public var asReference: [ReferenceMatch] {
        map { ReferenceMatch(id: $0.id, name: $0.name, highlight: [$0.highlightUTF16Range.lowerBound, $0.highlightUTF16Range.count]) }
    }
}
