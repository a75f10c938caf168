// ConnectionBudget.swift: no more connections than the process can hold descriptors for.
import HummingbirdCore
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Accepts connections only while fewer than `maximum` are open: the open-file limit less a
/// reserve for the index files, the log and the replacement's checks. At the limit the server
/// stops accepting (new clients wait in the kernel's backlog) instead of failing `accept` with
/// "too many open files" in a loop; it says so once in the log, and again only after the
/// count has gone down below nine tenths of the limit and back up.
struct ConnectionBudget: AvailableConnectionsDelegate {
    let maximum: Int
    let logger: Logger
    private var open = 0
    private var hasWarned = false

    /// Descriptors kept for other uses than connections, out of `files`: a quarter, from 16 to 64.
    static func reserve(outOf files: Int) -> Int { min(64, max(16, files / 4)) }

    init(maximum: Int, logger: Logger) {
        self.maximum = max(1, maximum)
        self.logger = logger
    }

    /// The budget for this process's open-file limit (`RLIMIT_NOFILE`, soft).
    static func forOpenFileLimit(logger: Logger) -> ConnectionBudget {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        let current = getrlimit(resource, &limit) == 0 ? UInt64(limit.rlim_cur) : 65_536
        let files = Int(min(current, 1 << 20))
        return ConnectionBudget(maximum: max(1, files - reserve(outOf: files)), logger: logger)
    }

    mutating func connectionOpened() {
        open += 1
        if open >= maximum && !hasWarned {
            hasWarned = true
            logger.warning("not accepting new connections until some close: \(open) are open, the most the open-file limit allows",
                           metadata: ["maximum": "\(maximum)"])
        }
    }

    mutating func connectionClosed() {
        open -= 1
        if hasWarned && open < maximum * 9 / 10 { hasWarned = false }
    }

    func isAcceptingNewConnections() -> Bool { open < maximum }
}
