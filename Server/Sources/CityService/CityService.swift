// CityService.swift: the routes of city-server and the application that serves them.
import CityIndex
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// How a service is set up: where it listens, who may call it from other sites, how often
/// it looks for a replaced index, how long an idle connection stays open.
public struct ServiceOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Origins whose pages may call the API (`https://example.com`; `*` for any).
    public var corsOrigins: Set<String> = []
    /// How often the index file is checked for a replacement.
    public var checkInterval: Duration = .seconds(2)
    /// How long a connection may stay idle, and how long a request's head may take to arrive
    /// whole after the connection opens or the previous response ends.
    public var idleTimeout: Duration = .seconds(30)

    public init() {}
}

/// The limits on a request's head: 16 KB per header line, 32 KB in all, 100 lines. A search
/// needs a few hundred bytes; larger heads are refused by the HTTP parser (the connection closes).
public enum RequestHeadLimits {
    public static let fieldBytes = 16 * 1024
    public static let totalBytes = 32 * 1024
    public static let fieldCount = 100
}

/// The routes of the service (README "city-server"), answering from `served`.
public func makeRouter(served: ServedIndex, metrics: RequestMetrics, page: StaticPage,
                       options: ServiceOptions = ServiceOptions()) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: CORSMiddleware(allowedOrigins: options.corsOrigins))
    router.add(middleware: RequestLimitsMiddleware())
    let started = Date()

    router.get("/api/search") { request, _ -> Response in
        let search = try SearchRequest(try QueryParameters(request.uri.query))
        let loaded = served.current
        let clock = ContinuousClock.now
        let matches = try loaded.index.search(search.query, matching: search.matching, order: search.order,
                                              limit: search.offset + search.limit, typos: search.typos,
                                              countries: search.countries, near: search.near, within: search.within)
        let page = matches.dropFirst(search.offset)
        let took = ContinuousClock.now - clock
        var json = JSONWriter()
        json.object { json in
            if search.format == .geojson { json.field("type", "FeatureCollection") }
            json.field("query", search.query)
            json.field("count", matches.totalCount)
            json.field("offset", search.offset)
            json.field("tookMicroseconds", took.microseconds)
            json.places(page, format: search.format, at: { ($0.latitude, $0.longitude) }) { json, match, coordinates in
                json.match(match, near: search.near, coordinates: coordinates)
            }
        }
        return json.response(contentType: search.format.contentType)
    }

    router.get("/api/nearest") { request, _ -> Response in
        let nearest = try NearestRequest(try QueryParameters(request.uri.query))
        let loaded = served.current
        guard loaded.index.hasSpatialIndex else {
            throw APIError(status: .notImplemented, message: "the index served has no spatial index (GEOK): rebuild it with build-index")
        }
        let clock = ContinuousClock.now
        let cities = try loaded.index.nearest(to: nearest.point, limit: nearest.limit, within: nearest.within,
                                              minimumPopulation: nearest.minimumPopulation)
        let took = ContinuousClock.now - clock
        var json = JSONWriter()
        json.object { json in
            if nearest.format == .geojson { json.field("type", "FeatureCollection") }
            json.key("point")
            json.object { json in
                json.field("lat", nearest.point.latitude, decimals: 6)
                json.field("lon", nearest.point.longitude, decimals: 6)
            }
            json.field("count", cities.count)
            json.field("tookMicroseconds", took.microseconds)
            json.places(cities, format: nearest.format, at: { ($0.city.latitude, $0.city.longitude) }) { json, city, coordinates in
                json.nearby(city, coordinates: coordinates)
            }
        }
        return json.response(contentType: nearest.format.contentType)
    }

    router.get("/api/cities/{id}") { request, context -> Response in
        try QueryParameters(request.uri.query).rejectUnknown(allowed: [])
        let text = context.parameters.get("id") ?? ""
        guard let id = Int(text) else {
            throw BadRequest(parameter: "id", "must be a city's id (a whole number), not \(SearchRequest.quoted(text))")
        }
        guard let city = served.current.index.city(id: id) else {
            throw APIError(status: .notFound, parameter: "id", message: "no city has id \(id) in the index served")
        }
        var json = JSONWriter()
        json.object { $0.cityFields(city) }
        return json.response()
    }

    router.get("/health") { request, _ -> Response in
        try QueryParameters(request.uri.query).rejectUnknown(allowed: [])
        let loaded = served.current
        var json = JSONWriter()
        json.object { json in
            json.field("status", "ok")
            json.key("index")
            json.object { json in
                json.field("path", served.path)
                json.field("formatVersion", Int(loaded.index.formatVersion))
                json.field("cities", loaded.index.cityCount)
                json.field("bytes", loaded.index.fileByteCount)
                json.field("checksum", loaded.checksum)
                json.field("loadedAt", loaded.loadedAt.formatted(.iso8601))
                json.field("hasPopulation", loaded.index.hasPopulation)
                json.field("hasSpatialIndex", loaded.index.hasSpatialIndex)
            }
            json.field("reader", CityIndexRelease.version)
            json.field("uptimeSeconds", Int(Date().timeIntervalSince(started)))
        }
        return json.response()
    }

    router.get("/metrics") { _, _ -> Response in
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text)))
    }

    for path in StaticPage.paths.keys {
        router.get(RouterPath(path)) { request, _ -> Response in
            guard let response = page.response(forPath: request.uri.path) else { throw HTTPError(.notFound) }
            return response
        }
    }
    return router
}

/// The service listening on `options.host`:`options.port`, with the index watcher beside it;
/// `run()` or `runService()` serves until SIGTERM or SIGINT, then finishes requests in flight.
public func makeApplication(served: ServedIndex, options: ServiceOptions, logger: Logger,
                            onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
    let metrics = RequestMetrics()
    let router = makeRouter(served: served, metrics: metrics, page: try StaticPage(), options: options)
    let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: RequestHeadLimits.fieldBytes, maxHeaderListSize: RequestHeadLimits.totalBytes,
        maxHeaderFieldCount: RequestHeadLimits.fieldCount)
    // The idle timer restarts on each request part and response end, not on bytes: a head
    // trickled one byte at a time is cut off too (Server/Tests/live checks it).
    let server = HTTPServerBuilder.http1(configuration: .init(idleTimeout: .nanoseconds(Int64(options.idleTimeout.nanoseconds)),
                                                              httpDecoderConfiguration: decoder))
    let watcher = IndexReplacementWatcher(served: served, metrics: metrics, interval: options.checkInterval, logger: logger)
    return Application(router: router, server: server,
                       configuration: .init(address: .hostname(options.host, port: options.port), serverName: "city-server"),
                       services: [watcher],
                       onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? options.port) },
                       logger: logger)
}

extension Duration {
    /// Whole microseconds, rounded down.
    var microseconds: Int { Int(components.seconds) * 1_000_000 + Int(components.attoseconds / 1_000_000_000_000) }
    /// Whole nanoseconds.
    var nanoseconds: Int { Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000) }
}

extension JSONWriter {
    /// The places of an answer: `results`, an array of objects (`write` gives each its
    /// coordinates), or for GeoJSON `features`, point features whose properties `write` gives
    /// without coordinates (the geometry holds them).
    mutating func places<Place>(_ places: some Sequence<Place>, format: SearchRequest.Format, at location: (Place) -> (Double, Double),
                                write: (inout JSONWriter, Place, _ withCoordinates: Bool) -> Void) {
        key(format == .geojson ? "features" : "results")
        array { json in
            for place in places {
                if format == .geojson {
                    let (latitude, longitude) = location(place)
                    json.feature(latitude: latitude, longitude: longitude) { write(&$0, place, false) }
                } else {
                    json.object { write(&$0, place, true) }
                }
            }
        }
    }

    /// A GeoJSON point feature (RFC 7946), its properties written by `properties`.
    mutating func feature(latitude: Double, longitude: Double, properties: (inout JSONWriter) -> Void) {
        object { json in
            json.field("type", "Feature")
            json.key("geometry")
            json.object { json in
                json.field("type", "Point")
                json.key("coordinates")
                json.array { json in
                    json.value(longitude, decimals: 6)
                    json.value(latitude, decimals: 6)
                }
            }
            json.key("properties")
            json.object(properties)
        }
    }
}
