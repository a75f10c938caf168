// JSONWriter+Response.swift: a written JSON value as an HTTP response.
import CityJSON
import Hummingbird

extension JSONWriter {
    /// The text as a response with `Content-Type: application/json`.
    func response(status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
