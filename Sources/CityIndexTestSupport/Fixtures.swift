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

    public init(path: String) throws {
        let json = try InputReading.decompressedBytes(path: path)
        indexBytes = try IndexBuilder().build(jsonBytes: json).bytes
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

    /// The shipped dataset, loaded once per test process.
    public static let defaultDataset: Result<LoadedDataset, any Error> = Result { try LoadedDataset(path: defaultDataPath) }

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
    public static let smallIndex: CityIndex = try! CityIndex(bytes: smallIndexBytes)
    public static let smallReference: NaiveCitySearch = try! NaiveCitySearch(json: Data(smallCitiesJSON.utf8))
}

extension CityMatches {
    /// The matches in the reference's shape, for comparison.
    public var asReference: [ReferenceMatch] {
        map { ReferenceMatch(id: $0.id, name: $0.name, highlight: [$0.highlightUTF16Range.lowerBound, $0.highlightUTF16Range.count]) }
    }
}
