// Timing.swift: the clock arithmetic and percentiles the benchmark executables report with.

/// `duration` in seconds.
public func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// The value at `fraction` (0…1) of `sorted`, which is in increasing order:
/// `sorted[⌊count × fraction⌋]` (the last value for 1); NaN when `sorted` is empty.
public func percentile(ofSorted sorted: [Double], _ fraction: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}
