// ServiceMiddleware.swift: what every request goes through: method and body limits, CORS, JSON errors.
import Hummingbird

/// Only `GET` and `HEAD` (and `OPTIONS` for CORS), and no request body: anything else is
/// refused before routing, with a JSON error (405, 413).
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
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
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return APIError(status: .internalServerError, message: "the server failed to answer; the error is logged").response
        }
    }
}
