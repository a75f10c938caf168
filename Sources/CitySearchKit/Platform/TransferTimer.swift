// TransferTimer.swift: the time limits of one download, as one policy for every transport.

/// When a download started and last made progress, and which limit of `IndexStore.Limits` it
/// has crossed: no response within `responseTimeout`, no byte within `stallTimeout` after the
/// last one (or the response), longer than `totalTimeout` in all.
struct TransferTimer {
    private(set) var started = ContinuousClock.now
    /// When the request for the response awaited was sent: at the start, or when a redirect's
    /// response ended (its target is a request of its own).
    private(set) var requested = ContinuousClock.now
    /// When the response or the last body byte arrived; nil before the response.
    private(set) var lastProgress: ContinuousClock.Instant?

    mutating func start() { (started, requested, lastProgress) = (.now, .now, nil) }

    /// Records a response or body bytes.
    mutating func progressed() { lastProgress = .now }

    /// A redirect's response ended: the response of its target is awaited anew.
    mutating func redirected() { (requested, lastProgress) = (.now, nil) }

    /// The timeout crossed at `now`, if any.
    func exceededLimit(_ limits: IndexStore.Limits, at now: ContinuousClock.Instant = .now) -> IndexStore.RefreshError? {
        if now - started > limits.totalTimeout { return .timedOut(.total, limit: limits.totalTimeout) }
        if let lastProgress {
            return now - lastProgress > limits.stallTimeout ? .timedOut(.stall, limit: limits.stallTimeout) : nil
        }
        return now - requested > limits.responseTimeout ? .timedOut(.response, limit: limits.responseTimeout) : nil
    }
}
