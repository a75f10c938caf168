// ServiceOptions.swift: how city-server is set up, and the limits on what a client sends.
import Foundation

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
    /// How long a connection may stay open in all, busy or not.
    public var connectionLifetime: Duration = .seconds(300)
    /// How long SIGTERM or SIGINT waits for the requests in flight before the service stops
    /// anyway (connections closed, the process exits).
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// The threads searches run on (`SearchWorkers`), and how many searches may wait for one
    /// before the next is answered 503.
    public var searchThreads = max(2, ProcessInfo.processInfo.activeProcessorCount)
    public var searchQueueLimit = 64

    public init() {}
}

/// The limits on a request's head: 16 KB per header line, 32 KB in all, 100 lines. A search
/// needs a few hundred bytes; larger heads are refused by the HTTP parser (the connection closes).
public enum RequestHeadLimits {
    public static let fieldBytes = 16 * 1024
    public static let totalBytes = 32 * 1024
    public static let fieldCount = 100
}
