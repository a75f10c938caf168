// IndexStore+Limits.swift: how much and how long a refresh may take.

extension IndexStore {
    /// Bounds on one refresh. Every download is bounded in bytes (downloaded and decompressed
    /// alike) and in time (waiting for an answer, between bytes, and in all); the defaults fit
    /// a phone on a slow network and an index of up to a few million cities.
    public struct Limits: Sendable, Equatable {
        /// The most bytes downloaded (or read from a file source): a longer body is dropped at
        /// this many bytes. Default 256 MiB.
        public var maximumDownloadByteCount: Int
        /// The largest index accepted after decompression (a decompression bomb stops here).
        /// Default 512 MiB.
        public var maximumIndexByteCount: Int
        /// How long to wait from the request to the response headers. Default 30 s.
        public var responseTimeout: Duration
        /// How long the body may go without a byte arriving (a stalled or trickling server
        /// that sends less than one byte per this interval is dropped). Default 30 s.
        public var stallTimeout: Duration
        /// How long the whole download may take. Default 10 minutes.
        public var totalTimeout: Duration
        /// A PEM file of certificate authorities trusted for https, in place of the system's
        /// (libcurl's `CURLOPT_CAINFO`; ignored where URLSession downloads). For the tests'
        /// loopback TLS server, whose self-signed authority no system trusts; nil: the system's.
        @_spi(Testing) public var certificateAuthorityFile: String? = nil

        public init(maximumDownloadByteCount: Int = 256 << 20, maximumIndexByteCount: Int = 512 << 20,
                    responseTimeout: Duration = .seconds(30), stallTimeout: Duration = .seconds(30),
                    totalTimeout: Duration = .seconds(600)) {
            self.maximumDownloadByteCount = maximumDownloadByteCount
            self.maximumIndexByteCount = maximumIndexByteCount
            self.responseTimeout = responseTimeout
            self.stallTimeout = stallTimeout
            self.totalTimeout = totalTimeout
        }
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
