// RequestMetrics.swift: request counts and latencies by endpoint, in Prometheus's text format.
import Hummingbird
import Prometheus

/// The service's metrics, in a registry of its own (not the process-wide `MetricsSystem`, so
/// that several services, as in tests, keep apart): `city_server_requests_total` by endpoint
/// and status, `city_server_request_duration_seconds` (a histogram) by endpoint, and
/// `city_server_index_replacements_total` by outcome.
public final class RequestMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// The latency buckets: 50 µs to 1 s (a search takes microseconds; a page file, a copy).
    private static let buckets: [Duration] = [.microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
                                              .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
                                              .milliseconds(25), .milliseconds(100), .milliseconds(250), .seconds(1)]

    private static var durationDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "city_server", metricName: "request_duration", unitName: "seconds",
                             helpText: "Time from a request's head to its response, by endpoint.")
    }

    private static var requestsDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "city_server", metricName: "requests", unitName: "total",
                             helpText: "Requests answered, by endpoint and status.")
    }

    private static var replacementsDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "city_server", metricName: "index_replacements", unitName: "total",
                             helpText: "Replaced index files found, by outcome: replaced (now served) or refused (damaged).")
    }

    public init() {}

    /// The endpoint label of a request path: the API's routes by name, anything else "page"
    /// (the page's files) or "other", so that the labels stay few whatever clients ask.
    static func endpoint(ofPath path: String) -> String {
        switch path {
        case "/api/search": "search"
        case "/api/nearest": "nearest"
        case "/health": "health"
        case "/metrics": "metrics"
        case _ where path.hasPrefix("/api/cities/"): "city"
        case _ where StaticPage.serves(path): "page"
        default: "other"
        }
    }

    func record(endpoint: String, status: HTTPResponse.Status, duration: Duration) {
        registry.makeCounter(descriptor: Self.requestsDescriptor, labels: [("endpoint", endpoint), ("status", String(status.code))])
            .increment()
        registry.makeDurationHistogram(descriptor: Self.durationDescriptor,
                                       labels: [("endpoint", endpoint)], buckets: Self.buckets)
            .record(duration)
    }

    func recordReplacement(_ outcome: String) {
        registry.makeCounter(descriptor: Self.replacementsDescriptor, labels: [("outcome", outcome)]).increment()
    }

    /// The metrics in Prometheus's text exposition format.
    var text: [UInt8] { registry.emitToBuffer() }
}

/// Times every request and counts it by endpoint and status (errors by the status they get).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: RequestMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let endpoint = RequestMetrics.endpoint(ofPath: request.uri.path)
        do {
            let response = try await next(request, context)
            metrics.record(endpoint: endpoint, status: response.status, duration: ContinuousClock.now - started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.record(endpoint: endpoint, status: status, duration: ContinuousClock.now - started)
            throw error
        }
    }
}
