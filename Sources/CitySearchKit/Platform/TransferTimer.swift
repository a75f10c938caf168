// TransferTimer.swift: the time limits of one download, as one policy for every transport.

/// When a download started and last made progress, and which limit of `IndexStore.Limits` it
/// has crossed: no response within `responseTimeout`, no byte within `stallTimeout` after the
/// last one (or the response), longer than `totalTimeout` in all.
struct TransferTimer {
    private(set) var started = ContinuousClock.now
    /// When the response or the last body byte arrived; nil before the response.
    private(set) var lastProgress: ContinuousClock.Instant?

    mutating func start() { (started, lastProgress) = (.now, nil) }

    /// Records a response or body bytes.
    mutating func progressed() { lastProgress = .now }

    /// The timeout crossed at `now`, if any.
    func exceededLimit(_ limits: IndexStore.Limits, at now: ContinuousClock.Instant = .now) -> IndexStore.RefreshError? {
        if now - started > limits.totalTimeout { return .timedOut(.total, limit: limits.totalTimeout) }
        if let lastProgress {
            return now - lastProgress > limits.stallTimeout ? .timedOut(.stall, limit: limits.stallTimeout) : nil
        }
        return now - started > limits.responseTimeout ? .timedOut(.response, limit: limits.responseTimeout) : nil
    }
}
