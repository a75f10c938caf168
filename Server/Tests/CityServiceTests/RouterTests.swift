// RouterTests.swift: every endpoint of city-server, and every bad input it must refuse.
import CityService
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("city-server's routes")
struct RouterTests {
    @Test("/api/search: the recommended mode by default, every field, highlights as UTF-16 ranges and as HTML")
    func search() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try await fixture.withClient { client in
            try await client.execute(uri: "/api/search?q=sna+fran", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let body = try json(response)
                #expect(body["count"] as? Int == 1)
                #expect(body["tookMicroseconds"] is Int)
                let first = try #require((body["results"] as? [[String: Any]])?.first)
                #expect(first["id"] as? Int == 5391959)
                #expect(first["name"] as? String == "San Francisco")
                #expect(first["country"] as? String == "US")
                #expect(first["lat"] as? Double == 37.77493 && first["lon"] as? Double == -122.41942)
                #expect(first["population"] as? Int == 864816)
                #expect(first["edits"] as? Int == 1)
                #expect(first["highlights"] as? [[Int]] == [[0, 8]])
                #expect(first["highlightedName"] as? String == "<mark>San Fran</mark>cisco")
                #expect(first["matchedName"] == nil)   // only when an alternate name matched
                // The short display form, so that no client repeats the label rules (without a
                // places file the region's code is not shown: the browser test reads "MB, CA").
                #expect(first["label"] as? String == "San Francisco, US" && first["locationLabel"] as? String == "US")
                #expect(first["regionCode"] as? String == "CA")
            }
            // An alternate name matched: its highlight is in that name.
            try await client.execute(uri: "/api/search?q=wien", method: .get) { response in
                let first = try #require((try json(response)["results"] as? [[String: Any]])?.first)
                #expect(first["name"] as? String == "Vienna" && first["matchedName"] as? String == "Wien")
                #expect(first["highlightedName"] as? String == "<mark>Wien</mark>")
            }
            // UTF-16 offsets: "Tōkyō" is 5 code units; a CJK name's match.
            try await client.execute(uri: "/api/search?q=%E6%9D%B1", method: .get) { response in
                let first = try #require((try json(response)["results"] as? [[String: Any]])?.first)
                #expect(first["highlights"] as? [[Int]] == [[0, 1]])
                #expect(first["highlightedName"] as? String == "<mark>東</mark>京")
            }
            // HTML in a name is escaped, the mark is not.
            try await client.execute(uri: "/api/search?q=tom", method: .get) { response in
                let first = try #require((try json(response)["results"] as? [[String: Any]])?.first)
                #expect(first["highlightedName"] as? String == "<mark>Tom</mark> &amp; Jerry &lt;Town&gt;")
            }
        }
    }

    @Test("/api/search: modes, pages, countries, a location, GeoJSON")
    func searchOptions() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try await fixture.withClient { client in
            func ids(_ uri: String) async throws -> [Int] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    return (try json(response)["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
                }
            }
            #expect(try await ids("/api/search?q=paris") == [2988507, 4717560])
            #expect(try await ids("/api/search?q=paris&rank=alphabetical&limit=1&offset=1") == [4717560])
            #expect(try await ids("/api/search?q=paris&country=us") == [4717560])
            #expect(try await ids("/api/search?q=london&near=43.0,-81.2") == [6058560, 2643743])
            #expect(try await ids("/api/search?q=london&near=43.0,-81.2&within=100000") == [6058560])
            #expect(try await ids("/api/search?q=pari&typos=none&match=prefix") == [2988507, 4717560])
            #expect(try await ids("/api/search?q=pqris&typos=none") == [])
            // Explicit typos, match and rank.
            #expect(try await ids("/api/search?q=pqris&typos=1") == [2988507, 4717560])
            #expect(try await ids("/api/search?q=pqrls&typos=1") == [])
            #expect(try await ids("/api/search?q=pqrls&typos=2") == [2988507, 4717560])
            #expect(try await ids("/api/search?q=francisco&match=prefix&typos=none") == [])
            #expect(try await ids("/api/search?q=francisco&match=words&typos=none") == [5391959])
            #expect(try await ids("/api/search?q=london&rank=population") == [2643743, 6058560])
            #expect(try await ids("/api/search?q=london&rank=alphabetical") == [6058560, 2643743])
            try await client.execute(uri: "/api/search?q=london&near=43.0,-81.2", method: .get) { response in
                let first = try #require((try json(response)["results"] as? [[String: Any]])?.first)
                #expect((first["distanceMeters"] as? Int).map { $0 < 10_000 } == true)
            }
            try await client.execute(uri: "/api/search?q=paris&format=geojson", method: .get) { response in
                #expect(response.headers[.contentType] == "application/geo+json")
                let body = try json(response)
                #expect(body["type"] as? String == "FeatureCollection")
                let feature = try #require((body["features"] as? [[String: Any]])?.first)
                let geometry = try #require(feature["geometry"] as? [String: Any])
                #expect(geometry["type"] as? String == "Point")
                #expect(geometry["coordinates"] as? [Double] == [2.3488, 48.85341])
                #expect((feature["properties"] as? [String: Any])?["name"] as? String == "Paris")
            }
        }
    }

    @Test("/api/search pages past the first 20: offset 150 and limit 100 answer the 151st to the 250th by population")
    func deepPages() async throws {
        // 300 towns, town n with n people: population order is n = 300, 299, …
        let towns = (1 ... 300).map { n in
            #"{"country":"US","name":"Town \#(n)","_id":\#(n),"coord":{"lon":-100,"lat":40},"population":\#(n)}"#
        }
        let fixture = try ServiceFixture(citiesJSON: "[" + towns.joined(separator: ",") + "]")
        defer { fixture.remove() }
        try await fixture.withClient { client in
            try await client.execute(uri: "/api/search?q=town&limit=100&offset=150", method: .get) { response in
                let body = try json(response)
                #expect(body["count"] as? Int == 300)
                let ids = try #require(body["results"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
                #expect(ids == Array((51 ... 150).reversed()), "\(ids.prefix(3))…")
            }
        }
    }

    @Test("/api/search?explain=true: the same results, with each stage that ran and why the first are where they are")
    func explain() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try await fixture.withClient { client in
            var plain: [Int] = []
            try await client.execute(uri: "/api/search?q=sna+fran&limit=5", method: .get) { response in
                plain = try #require(try json(response)["results"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
                #expect(try json(response)["explain"] == nil)
            }
            try await client.execute(uri: "/api/search?q=sna+fran&limit=5&explain=true", method: .get) { response in
                #expect(response.status == .ok)
                let body = try json(response)
                #expect(try #require(body["results"] as? [[String: Any]]).compactMap { $0["id"] as? Int } == plain)
                let explain = try #require(body["explain"] as? [String: Any])
                #expect(explain["microseconds"] is Double || explain["microseconds"] is Int)
                let stages = try #require(explain["stages"] as? [[String: Any]])
                #expect(stages.compactMap { $0["name"] as? String }.last == "page", "\(stages)")
                #expect(stages.first?["name"] as? String == "forgiving walk" && (stages.first?["walks"] as? Int ?? 0) >= 1, "\(stages)")
                let rankings = try #require(explain["rankings"] as? [[String: Any]])
                #expect(rankings.first?["id"] as? Int == 5391959, "\(rankings)")
                #expect((rankings.first?["factors"] as? [String])?.first == "population 864,816", "\(rankings)")
            }
        }
    }

    @Test("bad parameters: 400 with a JSON error that names the parameter", arguments: [
        ("/api/search", "q"),
        ("/api/search?q=paris&limit=0", "limit"),
        ("/api/search?q=paris&limit=101", "limit"),
        ("/api/search?q=paris&limit=ten", "limit"),
        ("/api/search?q=paris&offset=-1", "offset"),
        ("/api/search?q=paris&near=abc", "near"),
        ("/api/search?q=paris&near=91,0", "near"),
        ("/api/search?q=paris&near=48.8,nan", "near"),
        ("/api/search?q=paris&within=1000", "within"),
        ("/api/search?q=paris&near=1,1&within=-5", "within"),
        ("/api/search?q=" + String(repeating: "a", count: 257), "q"),
        ("/api/search?q=%FF%FE", "q"),
        ("/api/search?q=%E6%9D", "q"),
        ("/api/search?q=pa%2", "q"),
        ("/api/search?q=paris&match=fuzzy", "match"),
        ("/api/search?q=paris&rank=relevance", "rank"),
        ("/api/search?q=paris&typos=4", "typos"),
        // Pure cost: three typos on three letters match almost every name; a radius of most of the earth.
        ("/api/search?q=aaa&typos=3", "typos"),
        ("/api/search?q=ab&typos=1", "typos"),
        ("/api/search?q=aaa&typos=3&near=35.7,139.7&within=20037509&limit=100&offset=1000", "within"),
        ("/api/search?q=paris&near=48,2&within=5000001", "within"),
        ("/api/search?q=paris&country=France", "country"),
        ("/api/search?q=paris&format=xml", "format"),
        ("/api/search?q=paris&q=lyon", "q"),
        ("/api/search?q=paris&limt=5", "limt"),
        ("/api/nearest?lon=2", "lat"),
        ("/api/nearest?lat=48", "lon"),
        ("/api/nearest?lat=91&lon=0", "lat"),
        ("/api/nearest?lat=48&lon=181", "lon"),
        ("/api/nearest?lat=abc&lon=2", "lat"),
        ("/api/nearest?lat=1e3&lon=2", "lat"),
        ("/api/nearest?lat=48&lon=2&limit=500", "limit"),
        ("/api/nearest?lat=48&lon=2&minPopulation=-1", "minPopulation"),
        ("/api/nearest?lat=48&lon=2&country=France", "country"),
        ("/api/search?q=paris&explain=yes", "explain"),
        ("/api/search?q=paris&explain=true&format=geojson", "explain"),
        ("/api/cities/abc", "id"),
        ("/health?verbose=1", "verbose"),
    ])
    func badParameters(uri: String, parameter: String) async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try await fixture.withClient { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest, "\(uri)")
                let error = try #require(try json(response)["error"] as? [String: Any])
                #expect(error["status"] as? Int == 400)
                #expect(error["parameter"] as? String == parameter, "\(uri)")
                #expect((error["message"] as? String)?.hasPrefix(parameter + ": ") == true, "\(uri)")
            }
        }
    }

    @Test("/api/nearest, /api/cities/{id}, /health, /metrics")
    func otherEndpoints() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try await fixture.withClient { client in
            try await client.execute(uri: "/api/nearest?lat=48.9&lon=2.3&limit=2", method: .get) { response in
                #expect(response.status == .ok)
                let results = try #require(try json(response)["results"] as? [[String: Any]])
                #expect(results.compactMap { $0["name"] as? String } == ["Paris", "London"])
                #expect((results.first?["distanceMeters"] as? Int).map { $0 < 10_000 } == true)
            }
            try await client.execute(uri: "/api/nearest?lat=33.66&lon=-95.56&limit=1&minPopulation=100000", method: .get) { response in
                try #expect((json(response)["results"] as? [[String: Any]])?.first?["name"] as? String == "London")
            }
            try await client.execute(uri: "/api/nearest?lat=48.9&lon=2.3&within=1000", method: .get) { response in
                try #expect(json(response)["count"] as? Int == 0)
            }
            // country, as /api/search takes it: the nearest city in the US to Paris, France.
            try await client.execute(uri: "/api/nearest?lat=48.9&lon=2.3&limit=2&country=us,CA", method: .get) { response in
                let results = try #require(try json(response)["results"] as? [[String: Any]])
                #expect(!results.isEmpty && results.allSatisfy { ["US", "CA"].contains($0["country"] as? String) }, "\(results)")
            }
            try await client.execute(uri: "/api/nearest?lat=48.9&lon=2.3&limit=2&format=geojson", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/geo+json")
                let body = try json(response)
                #expect(body["type"] as? String == "FeatureCollection")
                let features = try #require(body["features"] as? [[String: Any]])
                #expect(features.compactMap { ($0["properties"] as? [String: Any])?["id"] as? Int } == [2988507, 2643743])
                let geometry = try #require(features.first?["geometry"] as? [String: Any])
                #expect(geometry["coordinates"] as? [Double] == [2.3488, 48.85341])
                #expect(((features.first?["properties"] as? [String: Any])?["distanceMeters"] as? Int).map { $0 < 10_000 } == true)
            }
            try await client.execute(uri: "/api/cities/2761369", method: .get) { response in
                let body = try json(response)
                #expect(body["name"] as? String == "Vienna" && body["country"] as? String == "AT")
            }
            try await client.execute(uri: "/api/cities/42", method: .get) { response in
                #expect(response.status == .notFound)
                try #expect((json(response)["error"] as? [String: Any])?["parameter"] as? String == "id")
            }
            try await client.execute(uri: "/health", method: .get) { response in
                let body = try json(response)
                #expect(body["status"] as? String == "ok")
                let index = try #require(body["index"] as? [String: Any])
                #expect(index["cities"] as? Int == 8)
                // The file's name, not where it lies on the server.
                #expect(index["file"] as? String == "cities.cidx" && index["path"] == nil)
                #expect((index["checksum"] as? String)?.count == 8)
                #expect(index["formatVersion"] is Int && index["loadedAt"] is String)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                #expect(text.contains(#"city_server_requests_total{endpoint="nearest",status="200"} 5"#))   // the five above
                #expect(text.contains(#"city_server_requests_total{endpoint="city",status="404"} 1"#))
                #expect(text.contains(#"city_server_request_duration_seconds_bucket{endpoint="health""#))
            }
            try await client.execute(uri: "/no/such/path", method: .get) { response in
                #expect(response.status == .notFound)
                try #expect((json(response)["error"] as? [String: Any])?["status"] as? Int == 404)
            }
        }
    }

    @Test("only GET without a body; CORS only for the origins given")
    func methodsBodiesAndCORS() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        var options = ServiceOptions()
        options.corsOrigins = ["https://app.example"]
        try await fixture.withClient(options: options) { client in
            try await client.execute(uri: "/api/search?q=paris", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD, OPTIONS")
            }
            // HEAD is GET without the body: every route, the same status and length.
            for uri in ["/health", "/api/search?q=paris", "/api/cities/2988507", "/", "/api/cities/1"] {
                var getLength: String?
                var getStatus: HTTPResponse.Status?
                try await client.execute(uri: uri, method: .get) { response in
                    getLength = response.headers[.contentLength]
                    getStatus = response.status
                }
                try await client.execute(uri: uri, method: .head) { response in
                    #expect(response.status == getStatus, "\(uri)")
                    #expect(response.body.readableBytes == 0, "\(uri)")
                    if uri != "/api/search?q=paris" { #expect(response.headers[.contentLength] == getLength, "\(uri)") }
                }
            }
            // A second Host header is refused (RFC 9112 §3.2).
            try await client.execute(uri: "/health", method: .get, headers: [HTTPField.Name("Host")!: "other.example"]) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/search?q=paris", method: .get, headers: [.contentLength: "5"],
                                     body: ByteBuffer(string: "hello")) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(uri: "/api/search?q=paris", method: .get, headers: [.origin: "https://app.example"]) { response in
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example")
            }
            try await client.execute(uri: "/api/search?q=paris", method: .get, headers: [.origin: "https://evil.example"]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
            try await client.execute(uri: "/api/search", method: .options,
                                     headers: [.origin: "https://app.example", .accessControlRequestMethod: "GET"]) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowMethods] == "GET, HEAD, OPTIONS")
            }
        }
    }

    @Test("the page and its files, from memory, allowing no other host")
    func page() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try await fixture.withClient { client in
            for (path, type) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css"), ("/world.geojson", "application/geo+json"),
                                 ("/favicon.svg", "image/svg+xml"), ("/favicon.ico", "image/svg+xml")] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(path)")
                    #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
                    #expect(response.body.readableBytes > (path.hasPrefix("/favicon") ? 100 : 500), "\(path)")
                }
            }
            try await client.execute(uri: "/", method: .get) { response in
                let html = String(buffer: response.body)
                #expect(html.contains(#"role="combobox""#) && html.contains(#"role="listbox""#))
                #expect(!html.contains("http://") && !html.contains("https://"))
            }
        }
    }
}
