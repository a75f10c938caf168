// IndexStore+RefreshError.swift: why a refresh failed, in terms a library user can act on.
import CityIndex

extension IndexStore {
    /// Why fetching the source did not produce a new cache. Each message says what the app
    /// (or its publisher) can do; none assumes the caller builds indexes.
    public enum RefreshError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The source is a plain `http://` URL and `allowsInsecureHTTP` is false.
        case insecureSource(url: String)
        /// The source is neither a file path nor an `http(s)` URL, or the store's
        /// configuration is invalid (`expectedSHA256` not 64 hexadecimal digits).
        case invalidConfiguration(String)
        /// The source could not be read or the server not reached.
        case cannotFetch(source: String, reason: String)
        /// The server answered with a status outside 200…299.
        case httpStatus(url: String, status: Int)
        /// No response, no byte for too long, or the whole download too long.
        case timedOut(TimeoutKind, limit: Duration)
        /// The body is longer than `Limits.maximumDownloadByteCount`.
        case downloadTooLarge(limit: Int)
        /// The body decompresses to more than `Limits.maximumIndexByteCount`.
        case indexTooLarge(limit: Int)
        /// The downloaded bytes do not have the pinned SHA-256 (`expectedSHA256`).
        case digestMismatch(expected: String, found: String)
        /// The body is a damaged gzip or xz stream.
        case corruptArtifact(reason: String)
        /// The body is not a valid index (what is wrong, as `IndexFileError`).
        case invalidIndex(IndexFileError)
        /// The cache directory could not be written.
        case cannotWriteCache(path: String, reason: String)
        /// Another process held the source's lock (it was refreshing it) for longer than this
        /// refresh's `Limits.totalTimeout`: a holder stopped or slower than the limits allow.
        case busy(lockPath: String, waited: Duration)
        /// The calling task was cancelled.
        case cancelled

        /// Which of the time limits of `Limits` a download crossed.
        public enum TimeoutKind: String, Sendable, Equatable {
            /// No response headers within `Limits.responseTimeout`.
            case response
            /// No body byte within `Limits.stallTimeout`.
            case stall
            /// The whole download took longer than `Limits.totalTimeout`.
            case total
        }

        /// What went wrong, in one sentence a UI can show.
        public var description: String {
            switch self {
            case .insecureSource(let url):
                return "refusing to download '\(url)' over plain http: use an https URL, or pass allowsInsecureHTTP: true together with expectedSHA256"
            case .invalidConfiguration(let detail):
                return "the index store is misconfigured: \(detail)"
            case .cannotFetch(let source, let reason):
                return "cannot fetch '\(source)': \(reason)"
            case .httpStatus(let url, let status):
                return "'\(url)' answered HTTP \(status)"
            case .timedOut(.response, let limit):
                return "the server sent no response within \(Self.seconds(limit))"
            case .timedOut(.stall, let limit):
                return "the download stalled: no data for \(Self.seconds(limit))"
            case .timedOut(.total, let limit):
                return "the download took longer than \(Self.seconds(limit))"
            case .downloadTooLarge(let limit):
                return "the download is larger than the limit of \(limit) bytes (Limits.maximumDownloadByteCount)"
            case .indexTooLarge(let limit):
                return "the artifact decompresses to more than the limit of \(limit) bytes (Limits.maximumIndexByteCount)"
            case .digestMismatch(let expected, let found):
                return "the download's SHA-256 is \(found), not the pinned \(expected): refusing it (the publisher changed the artifact, or it was tampered with)"
            case .corruptArtifact(let reason):
                return "the downloaded artifact is damaged: \(reason)"
            case .invalidIndex(let error):
                return "the downloaded file is not a valid city index: \(error.problem)"
            case .cannotWriteCache(let path, let reason):
                return "cannot write the cache '\(path)': \(reason)"
            case .busy(let lockPath, let waited):
                let seconds = Double(waited.components.seconds) + Double(waited.components.attoseconds) * 1e-18
                return "another process has been refreshing this source for \(Int(seconds.rounded())) s and still holds its lock ('\(lockPath)')"
            case .cancelled:
                return "the refresh was cancelled"
            }
        }

        /// "0.5 s", "60 s": to the tenth of a second (a limit less the time spent waiting for the
        /// cache's lock is not shown as 59.999940522 s).
        private static func seconds(_ duration: Duration) -> String {
            let tenths = (duration.inSeconds * 10).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
        }
    }
}
