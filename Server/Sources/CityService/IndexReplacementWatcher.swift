// IndexReplacementWatcher.swift: the service that notices a replaced index file and swaps it in.
import Dispatch
import Hummingbird
import Logging
import ServiceLifecycle

/// Checks every `interval` whether the file at the served index's path was replaced
/// (`ServedIndex.checkForReplacement()`), and logs what it found: a new index served, or a
/// damaged one refused while the old keeps serving. Stops on graceful shutdown. A check that
/// finds a new file verifies all of it (seconds for a large index): it runs on a thread of its
/// own, not on one of the few that answer requests.
struct IndexReplacementWatcher: Service {
    let served: ServedIndex
    let metrics: RequestMetrics
    let interval: Duration
    let logger: Logger

    func run() async throws {
        logger.info("watching the index file for replacements", metadata: ["path": "\(served.path)", "every": "\(interval)"])
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch is CancellationError {
                // The service is stopping (SIGTERM, SIGINT): a clean stop, not an error.
                logger.debug("watcher stopped")
                return
            } catch {
                logger.error("watcher stopped", metadata: ["error": "\(error)"])
                return
            }
            if Task.isShuttingDownGracefully { return }
            logger.debug("checking", metadata: ["path": "\(served.path)"])
            await checkOnce()
        }
    }

    /// One check, logged and counted.
    func checkOnce() async {
        let served = served
        let outcome = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: served.checkForReplacement()) }
        }
        switch outcome {
        case .unchanged:
            break
        case .replaced(let checksum):
            metrics.recordReplacement("replaced")
            logger.notice("serving the replaced index", metadata: ["path": "\(served.path)", "checksum": "\(checksum)"])
        case .changedInPlace(let reason):
            metrics.recordReplacement("changed_in_place")
            logger.error("the index file was changed in place: not serving it until the path holds a valid index",
                         metadata: ["path": "\(served.path)", "reason": "\(reason)"])
        case .refused(let reason):
            metrics.recordReplacement("refused")
            if served.unavailableReason != nil {
                logger.error("refused the file at the index's path; nothing is served until it holds a valid index",
                             metadata: ["path": "\(served.path)", "reason": "\(reason)"])
            } else {
                logger.error("refused the replaced index; the previous one keeps serving",
                             metadata: ["path": "\(served.path)", "reason": "\(reason)", "serving": "\(served.current.checksum)"])
            }
        }
    }
}
