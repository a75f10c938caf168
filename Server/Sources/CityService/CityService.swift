// CityService.swift: the routes of city-server and the application that serves them.
import CityIndex
import CityJSON
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The routes of the service (README "city-server"), answering from `served`.
public func makeRouter(served: ServedIndex, metrics: RequestMetrics, page: StaticPage,
                       options: ServiceOptions = ServiceOptions(),
                       workers: SearchWorkers = SearchWorkers()) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: HeadRequestMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: CORSMiddleware(allowedOrigins: options.corsOrigins))
    router.add(middleware: RequestLimitsMiddleware())
    let started = Date()

    router.getAndHead("/api/search") { request, _ -> Response in
        let search = try SearchRequest(try QueryParameters(request.uri.query))
        let loaded = try served.usable()
        let clock = ContinuousClock.now
        let matches: CityMatches
        let explanation: SearchExplanation?
        do {
            // On a search thread: /health, /metrics and the page never wait behind searches.
            (matches, explanation) = try await workers.run { () throws -> (CityMatches, SearchExplanation?) in
                guard search.explain else { return (try loaded.index.search(search.query, options: search.options), nil) }
                let explanation = try loaded.index.explain(search.query, options: search.options, rankings: search.options.limit)
                return (explanation.matches, explanation)
            }
        } catch let overloaded as SearchWorkers.Overloaded {
            throw APIError(status: .serviceUnavailable,
                           message: overloaded.waiting < 0 ? "the search waited too long for a free thread; try again"
                               : "\(overloaded.waiting) searches are waiting already; try again",
                           retryAfterSeconds: 1)
        } catch IndexFileError.searchTooCostly(_, let limit) {
            throw BadRequest(parameter: "q", "matches too much of the index for these options (the search would read more than "
                             + "\(limit) index entries): type more letters, forgive fewer typos, rank by population or search a smaller radius")
        }
        try served.checkAnswered(from: loaded)   // changed in place meanwhile: no wrong answer is sent
        let page = matches.dropFirst(search.offset)
        let took = ContinuousClock.now - clock
        var json = JSONWriter()
        json.object { json in
            if search.format == .geojson { json.field("type", "FeatureCollection") }
            json.field("query", search.query)
            json.field("count", matches.totalCount)
            json.field("offset", search.offset)
            json.field("tookMicroseconds", took.microseconds)
            json.places(page, geoJSON: search.format == .geojson, at: \.city) { json, match, coordinates in
                json.match(match, near: search.options.near, html: true, coordinates: coordinates)
            }
            if let explanation {
                json.key("explain")
                json.object { $0.explanationFields(explanation) }
            }
        }
        return json.response(contentType: search.format.contentType)
    }

    router.getAndHead("/api/nearest") { request, _ -> Response in
        let nearest = try NearestRequest(try QueryParameters(request.uri.query))
        let loaded = try served.usable()
        guard loaded.index.hasSpatialIndex else {
            throw APIError(status: .notImplemented, message: "the index served has no spatial index (GEOK): rebuild it with build-index")
        }
        let clock = ContinuousClock.now
        let cities = try loaded.index.nearest(to: nearest.point, limit: nearest.limit, within: nearest.within,
                                              minimumPopulation: nearest.minimumPopulation, countries: nearest.countries)
        try served.checkAnswered(from: loaded)
        let took = ContinuousClock.now - clock
        var json = JSONWriter()
        json.object { json in
            if nearest.format == .geojson { json.field("type", "FeatureCollection") }
            json.point(nearest.point)
            json.field("count", cities.count)
            json.field("tookMicroseconds", took.microseconds)
            json.places(cities, geoJSON: nearest.format == .geojson, at: \.city) { json, city, coordinates in
                json.nearby(city, coordinates: coordinates)
            }
        }
        return json.response(contentType: nearest.format.contentType)
    }

    router.getAndHead("/api/cities/{id}") { request, context -> Response in
        try QueryParameters(request.uri.query).rejectUnknown(allowed: [])
        let text = context.parameters.get("id") ?? ""
        guard let id = Int(text) else {
            throw BadRequest(parameter: "id", "must be a city's id (a whole number), not \(SearchRequest.quoted(text))")
        }
        let loaded = try served.usable()
        guard let city = loaded.index.city(id: id) else {
            try served.checkAnswered(from: loaded)
            throw APIError(status: .notFound, parameter: "id", message: "no city has id \(id) in the index served")
        }
        try served.checkAnswered(from: loaded)
        var json = JSONWriter()
        json.object { $0.cityFields(city) }
        return json.response()
    }

    router.getAndHead("/health") { request, _ -> Response in
        try QueryParameters(request.uri.query).rejectUnknown(allowed: [])
        let loaded = served.current
        let unavailable = served.unavailableReason
        var json = JSONWriter()
        json.object { json in
            json.field("status", unavailable == nil ? "ok" : "unavailable")
            if let unavailable {
                json.field("reason", "the index file was changed in place (\(unavailable.reason)); it is served again once "
                           + "the path holds a valid index (rename a new file over it)")
                json.field("unavailableSince", unavailable.since.formatted(.iso8601))
            }
            json.key("index")
            json.object { json in
                // The file's name only: where it lies on the server is none of a client's business.
                json.field("file", served.path.split(separator: "/").last.map(String.init) ?? served.path)
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
        return json.response(status: unavailable == nil ? .ok : .serviceUnavailable)
    }

    router.getAndHead("/metrics") { _, _ -> Response in
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text)))
    }

    for path in StaticPage.paths.keys {
        router.getAndHead(RouterPath(path)) { request, _ -> Response in
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
    let router = makeRouter(served: served, metrics: metrics, page: try StaticPage(), options: options,
                            workers: SearchWorkers(threads: options.searchThreads, queueLimit: options.searchQueueLimit))
    let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: RequestHeadLimits.fieldBytes, maxHeaderListSize: RequestHeadLimits.totalBytes,
        maxHeaderFieldCount: RequestHeadLimits.fieldCount)
    // The idle timer restarts on each request part and response end, not on bytes: a head
    // trickled one byte at a time is cut off too (Server/Tests/live checks it).
    // Each connection: no request body, a lifetime (ConnectionGuard). A request without a body
    // ends with its head, which the idle timeout bounds.
    let lifetime = options.connectionLifetime
    let server = HTTPServerBuilder.http1(configuration: .init(
        additionalChannelHandlers: [ConnectionGuard(lifetime: lifetime)],
        idleTimeout: .nanoseconds(Int64(options.idleTimeout.nanoseconds)), httpDecoderConfiguration: decoder))
    let watcher = IndexReplacementWatcher(served: served, metrics: metrics, interval: options.checkInterval, logger: logger)
    return Application(router: router, server: server,
                       configuration: .init(address: .hostname(options.host, port: options.port), serverName: "city-server",
                                            availableConnectionsDelegate: ConnectionBudget.forOpenFileLimit(logger: logger)),
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

extension Router {
    /// `handler` for GET and HEAD at `path` (RequestLimitsMiddleware sends HEAD's answer without its body).
    func getAndHead(_ path: RouterPath, handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        get(path, use: handler)
        head(path, use: handler)
    }
}
