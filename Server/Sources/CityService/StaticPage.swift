// StaticPage.swift: the web page's files, read once at start and served from memory.
import Foundation
import Hummingbird

/// The files of the page at `/` (the `Page` resource folder: HTML, script, style and the
/// world map), read into memory when the service starts: a request never touches the disk.
public struct StaticPage: Sendable {
    struct File: Sendable {
        let bytes: ByteBuffer
        let contentType: String
    }

    /// The page's paths and the resource file each serves.
    static let paths: [String: (name: String, contentType: String)] = [
        "/": ("index.html", "text/html; charset=utf-8"),
        "/app.js": ("app.js", "text/javascript; charset=utf-8"),
        "/style.css": ("style.css", "text/css; charset=utf-8"),
        "/world.geojson": ("world.geojson", "application/geo+json"),
        "/favicon.svg": ("favicon.svg", "image/svg+xml"),
        // What browsers ask for when a page names no icon (the same picture).
        "/favicon.ico": ("favicon.svg", "image/svg+xml"),
    ]

    /// The page allows itself and nothing else: no request leaves for another host.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    private let files: [String: File]

    /// Reads the page's files from the module's resources.
    /// - Throws: when a file is missing (a broken build).
    public init() throws {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the page's resources are missing"])
        }
        var files: [String: File] = [:]
        for (path, file) in Self.paths {
            let data = try Data(contentsOf: folder.appendingPathComponent(file.name))
            files[path] = File(bytes: ByteBuffer(bytes: data), contentType: file.contentType)
        }
        self.files = files
    }

    /// Whether `path` is one of the page's.
    static func serves(_ path: String) -> Bool { paths[path] != nil }

    /// The response for `path`, or `nil` when it is not the page's.
    func response(forPath path: String) -> Response? {
        guard let file = files[path] else { return nil }
        return Response(status: .ok, headers: [.contentType: file.contentType, .cacheControl: "no-cache",
                                               .contentSecurityPolicy: Self.contentSecurityPolicy,
                                               .init("X-Content-Type-Options")!: "nosniff"],
                        body: ResponseBody(byteBuffer: file.bytes))
    }
}
