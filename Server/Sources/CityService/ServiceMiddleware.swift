// ServiceMiddleware.swift: what every request goes through: method and body limits, CORS, JSON errors.
import HTTPTypes
import Hummingbird
import Synchronization

/// Only `GET` and `HEAD` (and `OPTIONS` for CORS), no request body, and exactly one `Host`
/// (RFC 9112 §3.2): anything else is refused before routing, with a JSON error (405, 413,
/// 400).
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The first Host is the request's authority; a second one stays among its fields.
        guard request.head.authority != nil else {
            return APIError(status: .badRequest, message: "a request needs a Host header (RFC 9112 §3.2)").response
        }
        guard request.headers[HTTPField.Name("Host")!] == nil else {
            return APIError(status: .badRequest, message: "a request has one Host header, not several (RFC 9112 §3.2)").response
        }
        guard [.get, .head, .options].contains(request.method) else {
            var response = APIError(status: .methodNotAllowed, message: "only GET is served, not \(request.method.rawValue)").response
            response.headers[.allow] = "GET, HEAD, OPTIONS"
            return response
        }
        let declaredLength = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        guard declaredLength == 0, request.headers[.transferEncoding] == nil else {
            return APIError(status: .contentTooLarge, message: "a request has no body here").response
        }
        return try await next(request, context)
    }
}

/// `HEAD` answered as `GET` is (routed to GET's handler, `getAndHead`), errors included, with
/// the same status and headers and no body. Outside the error middleware, so that an error's
/// JSON is left out too.
struct HeadRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        var response = try await next(request, context)
        let length = response.body.contentLength
        response.body = ResponseBody()
        if let length { response.headers[.contentLength] = String(length) }
        return response
    }
}

/// Cross-origin access for the origins given (`--cors-origin`; `*` for any): the response to
/// a request from one of them names it in `Access-Control-Allow-Origin`, and a preflight
/// (`OPTIONS`) is answered with 204. Without origins, no CORS header is sent and browsers
/// keep other sites' pages from reading the API.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowedOrigins: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], allowedOrigins.contains(origin) || allowedOrigins.contains("*") else {
            return try await next(request, context)
        }
        var response: Response
        if request.method == .options {
            response = Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = "GET, HEAD, OPTIONS"
            response.headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders] ?? ""
            response.headers[.accessControlMaxAge] = "600"
        } else {
            response = try await next(request, context)
        }
        response.headers[.accessControlAllowOrigin] = allowedOrigins.contains("*") ? "*" : origin
        response.headers[.vary] = "Origin"
        return response
    }
}

/// Every error as JSON: the API's own (`HTTPResponseError`s that write JSON), a route that
/// does not exist (404), and anything unexpected (500, its description logged, not sent).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as BadRequest {
            return try error.response(from: request, context: context)
        } catch let error as APIError {
            return error.response
        } catch is ServedIndex.Unavailable {
            return APIError(status: .serviceUnavailable,
                            message: "the index file was changed in place; it is served again once the path holds a valid index",
                            retryAfterSeconds: 2).response
        } catch let error as HTTPError {
            let message = error.status == .notFound ? "no such path: \(request.uri.path)" : error.status.reasonPhrase
            return APIError(status: error.status, message: message).response
        } catch {
            // At most one line a second: a flood of failing requests does not flood the log.
            if let suppressed = FailureLogLimit.shared.admit() {
                context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)",
                                                                  "alsoFailedSinceLastLine": "\(suppressed)"])
            }
            return APIError(status: .internalServerError, message: "the server failed to answer; the error is logged").response
        }
    }
}

/// How often a failed request is logged: one line a second at most, with the number of
/// failures not logged since the line before.
public final class FailureLogLimit: Sendable {
    static let shared = FailureLogLimit(interval: .seconds(1))
    private let interval: Duration
    private let state = Mutex<(last: ContinuousClock.Instant?, suppressed: Int)>((nil, 0))

    public init(interval: Duration) { self.interval = interval }

    /// The number of failures not logged before this one when this one may be logged, else `nil`.
    public func admit(at now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { state in
            if let last = state.last, now - last < interval {
                state.suppressed += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.suppressed
        }
    }
}
