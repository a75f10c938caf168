// APIError.swift: the errors a client gets, as JSON that names what to fix.
import CityJSON
import Hummingbird

/// A request the service cannot answer as asked: status 400 and a JSON body that names the
/// parameter (`{"error": {"status": 400, "parameter": "limit", "message": "…"}}`).
struct BadRequest: HTTPResponseError {
    /// The parameter at fault, when one is.
    let parameter: String?
    let message: String

    init(parameter: String?, _ message: String) {
        self.parameter = parameter
        self.message = message
    }

    var status: HTTPResponse.Status { .badRequest }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        APIError(status: status, parameter: parameter, message: message).response
    }
}

/// An error response of the API: any status, a JSON body `{"error": {"status", "parameter"?, "message"}}`.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    var parameter: String?
    let message: String
    /// With 503: when to try again (`Retry-After`, seconds).
    var retryAfterSeconds: Int?

    func response(from request: Request, context: some RequestContext) throws -> Response { response }

    var response: Response {
        var json = JSONWriter()
        json.object { json in
            json.key("error")
            json.object { json in
                json.field("status", status.code)
                if let parameter { json.field("parameter", parameter) }
                json.field("message", parameter.map { "\($0): \(message)" } ?? message)
            }
        }
        var response = json.response(status: status)
        if let retryAfterSeconds { response.headers[.retryAfter] = String(retryAfterSeconds) }
        return response
    }
}
