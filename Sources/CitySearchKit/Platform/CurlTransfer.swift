// CurlTransfer.swift: one download with libcurl (Linux), streamed, bounded, never spinning.
#if canImport(CCurl)
import CCurl
import Foundation

/// One HTTP(S) download with libcurl's easy interface, run on a thread of its own (the
/// blocking `curl_easy_perform`, which waits in `poll`, so a silent or trickling server costs
/// no CPU). The body streams into a `HashingWriter`; libcurl's progress callback, called at
/// least once a second, enforces the three timeouts and cancellation. Only https is allowed
/// (http too with `allowsInsecureHTTP`), for the request and every redirect.
final class CurlTransfer: @unchecked Sendable {
    typealias RefreshError = IndexStore.RefreshError

    private let url: URL
    private let limits: IndexStore.Limits
    private let allowsInsecureHTTP: Bool
    private let lock = NSLock()
    // Guarded by `lock` (written by the transfer thread, read by cancellation):
    private var writer: HashingWriter
    private var failure: RefreshError?
    private var isCancelled = false
    private var timer = TransferTimer()
    /// Whether the headers arriving are a redirect's.
    private var isRedirect = false
    /// The transfer's handle while `curl_easy_perform` runs (its response status, in `receive`).
    private var handle: UnsafeMutableRawPointer?

    /// libcurl's process-wide initialization, once, before the first transfer.
    private static let globalInitialization: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    init(url: URL, writer: HashingWriter, limits: IndexStore.Limits, allowsInsecureHTTP: Bool) {
        self.url = url
        self.writer = writer
        self.limits = limits
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    func run() async throws(RefreshError) -> ArtifactDownload.Outcome {
        let result: Result<ArtifactDownload.Outcome, RefreshError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: self.perform()) }
                thread.name = "CityIndex download"
                thread.start()
            }
        } onCancel: {
            lock.withLock { isCancelled = true }
        }
        return try result.get()
    }

    /// Runs the transfer to its end on the calling thread.
    private func perform() -> Result<ArtifactDownload.Outcome, RefreshError> {
        guard Self.globalInitialization == CURLE_OK, let handle = curl_easy_init() else {
            return .failure(.cannotFetch(source: url.absoluteString, reason: "libcurl could not be initialized"))
        }
        defer { curl_easy_cleanup(handle) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var code = cityindex_curl_setopt_string(handle, CURLOPT_URL, url.absoluteString)
        for (option, value) in [(CURLOPT_NOSIGNAL, 1), (CURLOPT_FOLLOWLOCATION, 1), (CURLOPT_MAXREDIRS, 5),
                                (CURLOPT_NOPROGRESS, 0),
                                (CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.responseTimeout)),
                                // A backstop: the progress callback ends the transfer first, with the right reason.
                                (CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.totalTimeout) + 2_000)] where code == CURLE_OK {
            code = cityindex_curl_setopt_long(handle, option, value)
        }
        if code == CURLE_OK { code = cityindex_curl_restrict_protocols(handle, allowsInsecureHTTP ? 1 : 0) }
        if code == CURLE_OK { code = cityindex_curl_setopt_string(handle, CURLOPT_USERAGENT, "CityIndex IndexStore") }
        if code == CURLE_OK, let authorities = limits.certificateAuthorityFile {
            code = cityindex_curl_setopt_string(handle, CURLOPT_CAINFO, authorities)
        }
        if code == CURLE_OK {
            code = cityindex_curl_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumDownloadByteCount))
        }
        if code == CURLE_OK { code = cityindex_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context) }
        if code == CURLE_OK { code = cityindex_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context) }
        if code == CURLE_OK { code = cityindex_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context) }
        if code == CURLE_OK {
            // Each response header line is progress: headers followed by silence are a stalled
            // download, not a server that never answered.
            code = cityindex_curl_set_header_function(handle) { bytes, size, count, context in
                guard let context else { return 0 }
                let line = bytes.map { UnsafeRawBufferPointer(start: $0, count: size * count) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
                Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receivedHeader(line)
                return size * count
            }
        }
        if code == CURLE_OK {
            code = cityindex_curl_set_write_function(handle) { data, size, count, context in
                guard let context, let data else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count))
            }
        }
        if code == CURLE_OK {
            code = cityindex_curl_set_progress_function(handle) { context, _, _, _, _ in
                guard let context else { return 1 }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().checkLimits() ? 0 : 1
            }
        }
        guard code == CURLE_OK else {
            return .failure(.cannotFetch(source: url.absoluteString, reason: String(cString: curl_easy_strerror(code))))
        }
        lock.withLock {
            timer.start()
            self.handle = handle
        }
        defer { lock.withLock { self.handle = nil } }
        let performed = curl_easy_perform(handle)
        let status = cityindex_curl_response_code(handle)
        return lock.withLock {
            if let failure { return .failure(failure) }
            if isCancelled { return .failure(.cancelled) }
            switch performed {
            case CURLE_OK:
                guard (200 ..< 300).contains(status) else { return .failure(.httpStatus(url: url.absoluteString, status: status)) }
                return .success(writer.finish())
            case CURLE_FILESIZE_EXCEEDED:
                return .failure(.downloadTooLarge(limit: limits.maximumDownloadByteCount))
            case CURLE_OPERATION_TIMEDOUT where status == 0 || (300 ..< 400).contains(status):
                // No final response yet (none, or only a redirect's): the response limit, not the total.
                return .failure(.timedOut(.response, limit: limits.responseTimeout))
            case CURLE_OPERATION_TIMEDOUT:
                return .failure(.timedOut(.total, limit: limits.totalTimeout))
            case CURLE_UNSUPPORTED_PROTOCOL:
                // A redirect to a scheme not allowed: plain http is the insecure case; anything
                // else (file:, ftp:) is never followed, whatever allowsInsecureHTTP says.
                let effective = cityindex_curl_effective_url(handle).map { String(cString: $0) } ?? url.absoluteString
                let scheme = effective.prefix { $0 != ":" }.lowercased()
                if scheme == "http" && !allowsInsecureHTTP { return .failure(.insecureSource(url: effective)) }
                return .failure(.cannotFetch(source: url.absoluteString,
                                             reason: "redirected to '\(effective)': only https (and http with allowsInsecureHTTP) is followed"))
            default:
                return .failure(.cannotFetch(source: url.absoluteString, reason: String(cString: curl_easy_strerror(performed))))
            }
        }
    }

    /// The write callback: streams body bytes, refusing an error status's body. Returns the
    /// count taken (anything else makes libcurl stop).
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        lock.withLock {
            guard failure == nil, !isCancelled else { return 0 }
            // The body of an error status is not the artifact: stop at the status, not after
            // the download limit (an endless 404 body used to be read to 256 MiB).
            if let handle {
                let status = Int(cityindex_curl_response_code(handle))
                if !(200 ..< 300).contains(status) {
                    failure = .httpStatus(url: url.absoluteString, status: status)
                    return 0
                }
            }
            timer.progressed()
            do throws(RefreshError) {
                try writer.write(bytes)
                return bytes.count
            } catch {
                failure = error
                return 0
            }
        }
    }

    /// The header callback, a line at a time: a response is arriving. The end of a redirect's
    /// headers (its status line 3xx) starts the wait for its target's response.
    private func receivedHeader(_ line: UnsafeRawBufferPointer) {
        lock.withLock {
            timer.progressed()
            if line.starts(with: "HTTP/".utf8) {
                let status = line.split(separator: UInt8(ascii: " "), maxSplits: 2).dropFirst().first
                isRedirect = status.map { $0.count == 3 && $0.first == UInt8(ascii: "3") } ?? false
            } else if isRedirect && line.allSatisfy({ $0 == 0x0D || $0 == 0x0A }) {
                isRedirect = false
                timer.redirected()
            }
        }
    }

    /// The progress callback (at least once a second): whether the transfer may go on.
    private func checkLimits() -> Bool {
        lock.withLock {
            guard failure == nil, !isCancelled else { return false }
            failure = timer.exceededLimit(limits)
            return failure == nil
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(min(duration.inSeconds * 1000, Double(Int32.max)))
    }
}
#endif
