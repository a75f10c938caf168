// CityServer.swift: the city-server command: serve one index file over HTTP, with its web page.
import ArgumentParser
import CityService
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

@main
struct CityServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city-server",
        abstract: "Serve a CityIndex file over HTTP: a JSON search API and a type-ahead web page.",
        discussion: """
            Endpoints (GET only): /api/search?q=, /api/nearest?lat=&lon=, /api/cities/{id}, /health, /metrics, and the page at /.
            The index file is checked every few seconds: a file renamed over it (as build-index writes) is verified and served;
            a damaged one is refused and the previous index keeps serving. SIGTERM or SIGINT stops it after the request in flight
            on each connection, or after --shutdown-grace seconds at most.
            """)

    @Option(help: "The index file to serve (build it with build-index).")
    var index = "cities.cidx"

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(name: .customLong("cors-origin"), help: "An origin whose pages may call the API (repeatable; * for any).")
    var corsOrigins: [String] = []

    @Option(help: "Seconds between checks for a replaced index file.")
    var checkInterval = 2.0

    @Option(help: "Seconds an idle connection stays open.")
    var idleTimeout = 30.0

    @Option(help: "Seconds SIGTERM or SIGINT waits for the requests in flight before stopping anyway.")
    var shutdownGrace = 10.0

    func validate() throws {
        guard (0 ... 65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535, not \(port)") }
        guard checkInterval > 0, checkInterval <= 86_400 else { throw ValidationError("--check-interval must be more than 0 and at most 86400 seconds") }
        guard idleTimeout > 0, idleTimeout <= 3_600 else { throw ValidationError("--idle-timeout must be more than 0 and at most 3600 seconds") }
        guard shutdownGrace >= 0, shutdownGrace <= 3_600 else { throw ValidationError("--shutdown-grace must be 0 to 3600 seconds") }
    }

    func run() async throws {
        var logger = Logger(label: "city-server")
        logger.logLevel = .info
        let served: ServedIndex
        do {
            served = try ServedIndex(path: index)
        } catch {
            FileHandle.standardError.write(Data("city-server: cannot serve \(index): \(error)\n".utf8))
            throw ExitCode(66)
        }
        var options = ServiceOptions()
        options.host = host
        options.port = port
        options.corsOrigins = Set(corsOrigins)
        options.checkInterval = .milliseconds(Int64(checkInterval * 1_000))
        options.idleTimeout = .milliseconds(Int64(idleTimeout * 1_000))
        options.shutdownGracePeriod = .milliseconds(Int64(shutdownGrace * 1_000))
        let loaded = served.current
        let app = try makeApplication(served: served, options: options, logger: logger) { port in
            let line = "city-server: serving \(index) (\(loaded.index.cityCount) cities, checksum \(loaded.checksum)) at http://\(host):\(port)/\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        // SIGTERM or SIGINT: each connection finishes the request in flight and closes; past
        // the grace period the service is cancelled (connections closed) and the process exits.
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = options.shutdownGracePeriod
        group.maximumCancellationDuration = .seconds(5)
        do {
            try await ServiceGroup(configuration: group).run()
        } catch {
            // Cancelled after the grace period: a stop that took too long, not a failure.
            logger.warning("stopped after the grace period with requests still in flight", metadata: ["error": "\(error)"])
        }
    }
}
