// ServiceFixture.swift: a small index on disk and the service's router over it.
import CityIndexBuilder
import CityService
import Foundation
import Hummingbird
import HummingbirdTesting

/// A few cities, built into an index file in a temporary folder of its own.
struct ServiceFixture {
    static let citiesJSON = """
        [{"country":"US","name":"San Francisco","region":"CA","_id":5391959,"coord":{"lon":-122.41942,"lat":37.77493},"population":864816,"alternatenames":["SF","Sanfrancisko"]},
         {"country":"FR","name":"Paris","_id":2988507,"coord":{"lon":2.3488,"lat":48.85341},"population":2138551},
         {"country":"US","name":"Paris","_id":4717560,"coord":{"lon":-95.55551,"lat":33.66094},"population":24782},
         {"country":"AT","name":"Vienna","_id":2761369,"coord":{"lon":16.37208,"lat":48.20849},"population":1691468,"alternatenames":["Wien"]},
         {"country":"GB","name":"London","_id":2643743,"coord":{"lon":-0.12574,"lat":51.50853},"population":8961989},
         {"country":"CA","name":"London","_id":6058560,"coord":{"lon":-81.23304,"lat":42.98339},"population":346765},
         {"country":"US","name":"Tom & Jerry <Town>","_id":9000001,"coord":{"lon":-100.0,"lat":40.0},"population":12},
         {"country":"JP","name":"Tōkyō","_id":1850147,"coord":{"lon":139.69171,"lat":35.6895},"population":8336599,"alternatenames":["東京"]}]
        """

    let folder: URL
    let path: String
    let served: ServedIndex
    let metrics = RequestMetrics()

    /// The service over `citiesJSON` (a few cities, unless given).
    init(citiesJSON: String = ServiceFixture.citiesJSON) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("cities.cidx").path
        try Self.writeIndex(citiesJSON, to: path)
        served = try ServedIndex(path: path)
    }

    /// Builds `json` into an index and renames it over `path` (as build-index replaces files).
    static func writeIndex(_ json: String, to path: String) throws {
        let bytes = try IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes
        let temporary = path + ".new"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `body` with a client of the service's router.
    func withClient(options: ServiceOptions = ServiceOptions(), _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let router = makeRouter(served: served, metrics: metrics, page: try StaticPage(), options: options)
        let app = Application(router: router)
        try await app.test(.router, body)
    }
}

/// A response's body as JSON.
func json(_ response: TestResponse) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
    guard let dictionary = object as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
    return dictionary
}
