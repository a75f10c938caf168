// LoopbackHTTPServer.swift: a real HTTP server on 127.0.0.1 with the behaviours of hostile
// and broken servers, for the IndexStore tests.
import CityIndexTestSupport
import Foundation

/// A Python `ThreadingHTTPServer` on 127.0.0.1 and a free port. Paths:
/// - `/files/NAME`: the file NAME of `directory` (after `delay` seconds, if given);
/// - `/silent`: reads the request and never answers;
/// - `/trickle?interval=S`: answers 200 with a 1 MB length, then sends one byte every S seconds;
/// - `/endless`: answers 200 without a length and sends zeros as fast as it can, forever;
/// - `/endless-404`: answers 404 without a length and sends zeros forever;
/// - `/status/N`: answers status N;
/// - `/redirect?to=URL`: answers 302 with `Location: URL`;
/// - `/headers-then-silence`: answers 200 with a 1 MB length, then sends nothing;
/// - `/count?path=P`: how many requests for P arrived so far.
final class LoopbackHTTPServer: @unchecked Sendable {
    let process = Process()
    let port: Int

    static let script = #"""
        import http.server, os, ssl, sys, threading, time, urllib.parse
        directory = sys.argv[1]
        counts = {}
        lock = threading.Lock()
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def send(self, status, body=b"", headers=()):
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers: self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(url.query)
                with lock: counts[url.path] = counts.get(url.path, 0) + 1
                try:
                    if url.path.startswith("/files/"):
                        time.sleep(float(query.get("delay", ["0"])[0]))
                        name = urllib.parse.unquote(url.path[len("/files/"):])
                        try:
                            with open(os.path.join(directory, os.path.basename(name)), "rb") as f: body = f.read()
                        except OSError:
                            return self.send(404)
                        self.send(200, body)
                    elif url.path == "/silent":
                        time.sleep(3600)
                    elif url.path == "/trickle":
                        interval = float(query.get("interval", ["1"])[0])
                        self.send_response(200)
                        self.send_header("Content-Length", "1000000")
                        self.end_headers()
                        self.wfile.flush()
                        for _ in range(1000000):
                            time.sleep(interval)
                            self.wfile.write(b"\0")
                            self.wfile.flush()
                    elif url.path in ("/endless", "/endless-404"):
                        self.send_response(404 if url.path == "/endless-404" else 200)
                        self.send_header("Connection", "close")
                        self.end_headers()
                        chunk = b"\0" * 65536
                        while True: self.wfile.write(chunk)
                    elif url.path == "/redirect":
                        self.send(302, b"", [("Location", query["to"][0])])
                    elif url.path == "/headers-then-silence":
                        self.send_response(200)
                        self.send_header("Content-Length", "1000000")
                        self.end_headers()
                        self.wfile.flush()
                        time.sleep(3600)
                    elif url.path.startswith("/status/"):
                        self.send(int(url.path[len("/status/"):]), b"no")
                    elif url.path == "/count":
                        with lock: count = counts.get(query["path"][0], 0)
                        self.send(200, str(count).encode())
                    else:
                        self.send(404)
                except (BrokenPipeError, ConnectionResetError):
                    pass
        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
        server = Server(("127.0.0.1", 0), Handler)
        if len(sys.argv) > 3:   # https: the certificate chain and its key
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[2], sys.argv[3])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// The server's scheme: `https` when it was given a certificate.
    let scheme: String

    /// Serves `directory` over http, or over https with `certificate` (`LoopbackCertificates`).
    init(serving directory: URL, certificate: LoopbackCertificates? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, directory.path]
            + (certificate.map { [$0.serverCertificate.path, $0.serverKey.path] } ?? [])
        scheme = certificate == nil ? "http" : "https"
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSetupError("the loopback HTTP server did not start")
        }
        self.port = port
    }

    /// `http://127.0.0.1:PORT` + `path` (a path and query, written as sent); `https` for a
    /// server with a certificate, and `host` in place of 127.0.0.1 when given.
    func url(_ path: String, host: String = "127.0.0.1") -> URL { URL(string: "\(scheme)://\(host):\(port)\(path)")! }

    /// How many requests for `path` the server received.
    func requestCount(_ path: String) throws -> Int {
        let data = try Data(contentsOf: url("/count?path=\(path)"))
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    /// Stops the server (idempotent). Signals and reaps it directly: `waitUntilExit()` can
    /// wait forever inside an async test on Linux.
    func stop() {
        let pid = process.processIdentifier
        guard pid > 0, kill(pid, 0) == 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}

/// A certificate authority of its own and a server certificate it signed for 127.0.0.1 (and no
/// other name), made with the openssl command in `directory`: what a private https server
/// presents. No system trusts the authority; `IndexStore.Limits.certificateAuthorityFile` can.
struct LoopbackCertificates {
    let authority: URL
    let serverCertificate: URL
    let serverKey: URL

    init(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        authority = directory.appendingPathComponent("authority.pem")
        serverCertificate = directory.appendingPathComponent("server.pem")
        serverKey = directory.appendingPathComponent("server.key")
        let script = """
            set -e
            printf 'subjectAltName=IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > server.ext
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \\
                -subj '/CN=CityIndex test authority' -keyout authority.key -out authority.pem \\
                -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj '/CN=127.0.0.1' \\
                -keyout server.key -out server.csr
            openssl x509 -req -in server.csr -CA authority.pem -CAkey authority.key -CAcreateserial \\
                -days 2 -extfile server.ext -out server.pem
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestSetupError("openssl could not make the test certificates") }
    }
}
