// URLSessionTransfer.swift: one download with URLSession (Apple platforms), streamed and bounded.
// Compiled everywhere (so that Linux builds type-check it); used where CCurl is absent.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP(S) download (Apple platforms): a `URLSession` data task whose delegate streams the body into a
/// `HashingWriter`, and a watchdog that cancels it when the server does not answer, stalls or
/// takes too long in all. The first outcome (completion, a limit, a timeout, cancellation)
/// wins; the task is cancelled and the session invalidated after it.
final class URLSessionTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias RefreshError = IndexStore.RefreshError

    private let url: URL
    private let limits: IndexStore.Limits
    private let allowsInsecureHTTP: Bool
    private let lock = NSLock()
    // Guarded by `lock`:
    private var writer: HashingWriter
    private var timer = TransferTimer()
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
            timer.start()
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
        lock.lock()
        let (done, exceeded) = (outcome != nil, timer.exceededLimit(limits))
        lock.unlock()
        if done { return false }
        if let exceeded { finish(.failure(exceeded)) }
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
        lock.withLock { timer.progressed() }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var failure: RefreshError?
        lock.lock()
        if outcome == nil {
            timer.progressed()
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
        // An https source must not be redirected to plain http (unless http is allowed), nor
        // ever to another scheme (as CurlTransfer).
        let target = request.url?.absoluteString ?? ""
        switch request.url?.scheme?.lowercased() {
        case "https"?:
            completionHandler(request)
        case "http"? where allowsInsecureHTTP:
            completionHandler(request)
        case "http"?:
            finish(.failure(.insecureSource(url: target)))
            completionHandler(nil)
        default:
            finish(.failure(.cannotFetch(source: url.absoluteString,
                                         reason: "redirected to '\(target)': only https (and http with allowsInsecureHTTP) is followed")))
            completionHandler(nil)
        }
    }
}
