// ArtifactDownload.swift: one source's bytes streamed into a file, counted, hashed, bounded.
import CityIndexArtifacts
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams a source (a file, or an http(s) URL) into an open file descriptor, computing the
/// SHA-256 and the byte count as the bytes arrive. Nothing is held in memory beyond one chunk;
/// the byte limit and the three timeouts of `IndexStore.Limits` are enforced as it runs.
enum ArtifactDownload {
    typealias RefreshError = IndexStore.RefreshError

    struct Outcome: Sendable {
        let byteCount: Int
        let sha256: String
    }

    /// Copies the regular file at `path` (a FIFO or device is refused without blocking).
    static func copyFile(at path: String, into output: Int32, limits: IndexStore.Limits) throws(RefreshError) -> Outcome {
        let input = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw .cannotFetch(source: path, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .cannotFetch(source: path, reason: "it is not a regular file")
        }
        var writer = HashingWriter(descriptor: output, limit: limits.maximumDownloadByteCount)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .cannotFetch(source: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            try writer.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return writer.finish()
    }

    /// Downloads `url` with `URLSession`, dropping it when a limit is crossed.
    static func download(_ url: URL, into output: Int32, limits: IndexStore.Limits,
                         allowsInsecureHTTP: Bool) async throws(RefreshError) -> Outcome {
        let transfer = HTTPTransfer(url: url, writer: HashingWriter(descriptor: output, limit: limits.maximumDownloadByteCount),
                                    limits: limits, allowsInsecureHTTP: allowsInsecureHTTP)
        return try await transfer.run()
    }
}

/// Writes bytes to a descriptor while hashing and counting them, refusing more than `limit`.
struct HashingWriter {
    let descriptor: Int32
    let limit: Int
    private(set) var byteCount = 0
    private var hasher = SHA256()

    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(IndexStore.RefreshError) {
        guard bytes.count <= limit - byteCount else { throw .downloadTooLarge(limit: limit) }
        hasher.update(bytes)
        var written = 0
        while written < bytes.count {
            let count = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotWriteCache(path: "(temporary download file)", reason: String(cString: strerror(errno)))
            }
            written += count
        }
        byteCount += bytes.count
    }

    func finish() -> ArtifactDownload.Outcome {
        ArtifactDownload.Outcome(byteCount: byteCount, sha256: SHA256.hex(hasher.finalize()))
    }
}

/// One HTTP(S) download: a `URLSession` data task whose delegate streams the body into a
/// `HashingWriter`, and a watchdog that cancels it when the server does not answer, stalls or
/// takes too long in all. The first outcome (completion, a limit, a timeout, cancellation)
/// wins; the task is cancelled and the session invalidated after it.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias RefreshError = IndexStore.RefreshError

    private let url: URL
    private let limits: IndexStore.Limits
    private let allowsInsecureHTTP: Bool
    private let lock = NSLock()
    // Guarded by `lock`:
    private var writer: HashingWriter
    private var started = ContinuousClock.now
    private var lastProgress: ContinuousClock.Instant?
    private var outcome: Result<ArtifactDownload.Outcome, RefreshError>?
    private var waiter: CheckedContinuation<Void, Never>?
    private var task: URLSessionDataTask?

    init(url: URL, writer: HashingWriter, limits: IndexStore.Limits, allowsInsecureHTTP: Bool) {
        self.url = url
        self.writer = writer
        self.limits = limits
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    func run() async throws(RefreshError) -> ArtifactDownload.Outcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Backstops only: the watchdog below enforces the limits precisely.
        configuration.timeoutIntervalForRequest = (limits.responseTimeout + limits.stallTimeout).inSeconds
        configuration.timeoutIntervalForResource = limits.totalTimeout.inSeconds + 5
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        defer { session.invalidateAndCancel() }
        let dataTask = session.dataTask(with: URLRequest(url: url))
        lock.withLock {
            started = .now
            task = dataTask
        }
        dataTask.resume()
        let watchdog = Task { [weak self] in
            while !Task.isCancelled, let self, self.checkLimits() {
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { watchdog.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let finished = lock.withLock {
                    if outcome != nil { return true }
                    waiter = continuation
                    return false
                }
                if finished { continuation.resume() }
            }
        } onCancel: {
            finish(.failure(.cancelled))
        }
        return try lock.withLock { outcome! }.get()
    }

    /// Records the first outcome, wakes `run()` and cancels the transfer.
    private func finish(_ result: Result<ArtifactDownload.Outcome, RefreshError>) {
        let (continuation, runningTask) = lock.withLock { () -> (CheckedContinuation<Void, Never>?, URLSessionDataTask?) in
            guard outcome == nil else { return (nil, nil) }
            outcome = result
            defer { waiter = nil }
            return (waiter, task)
        }
        if case .failure = result { runningTask?.cancel() }
        continuation?.resume()
    }

    /// Finishes with a timeout when one has passed; returns whether the transfer goes on.
    private func checkLimits() -> Bool {
        let now = ContinuousClock.now
        lock.lock()
        let (done, started, lastProgress) = (outcome != nil, self.started, self.lastProgress)
        lock.unlock()
        if done { return false }
        if now - started > limits.totalTimeout {
            finish(.failure(.timedOut(.total, limit: limits.totalTimeout)))
        } else if let lastProgress {
            if now - lastProgress > limits.stallTimeout { finish(.failure(.timedOut(.stall, limit: limits.stallTimeout))) }
        } else if now - started > limits.responseTimeout {
            finish(.failure(.timedOut(.response, limit: limits.responseTimeout)))
        }
        return true
    }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse, !(200 ..< 300).contains(http.statusCode) {
            finish(.failure(.httpStatus(url: url.absoluteString, status: http.statusCode)))
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(limits.maximumDownloadByteCount) {
            finish(.failure(.downloadTooLarge(limit: limits.maximumDownloadByteCount)))
            completionHandler(.cancel)
            return
        }
        lock.withLock { lastProgress = .now }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var failure: RefreshError?
        lock.lock()
        if outcome == nil {
            lastProgress = .now
            data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                do throws(RefreshError) { try writer.write(bytes) } catch { failure = error }
            }
        }
        lock.unlock()
        if let failure { finish(.failure(failure)) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            finish(.failure(.cannotFetch(source: url.absoluteString, reason: error.localizedDescription)))
        } else {
            finish(.success(lock.withLock { writer.finish() }))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        // An https source must not be redirected to plain http (unless http is allowed).
        if request.url?.scheme?.lowercased() == "http" && !allowsInsecureHTTP {
            finish(.failure(.insecureSource(url: request.url?.absoluteString ?? "")))
            completionHandler(nil)
        } else {
            completionHandler(request)
        }
    }
}
