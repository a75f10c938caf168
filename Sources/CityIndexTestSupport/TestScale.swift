// TestScale.swift: how much work the heavy tests do in this run.
import Foundation

/// How many seeded queries, kills or rounds a heavy test runs.
///
/// Three scales:
/// - **quick:** `Scripts/test.sh`, the README's test command.
/// - **full:** `Scripts/test.sh --full` (`CITYINDEX_FULL_TESTS=1`), which CI runs.
/// - **debug:** a plain `swift test`. It runs a tenth of the quick scale, at least `atLeast`
///   (one unless a test needs more to try each kind of case), since the same work takes about
///   ten times as long in a debug build.
///
/// Every test runs at every scale; only the number of random cases changes.
public enum TestScale {
    /// Whether this is a full run (`CITYINDEX_FULL_TESTS=1`).
    public static let isFull = ProcessInfo.processInfo.environment["CITYINDEX_FULL_TESTS"] == "1"

    /// `full` in a full run; otherwise `quick`, or a tenth of it (at least `atLeast`) in a debug build.
    public static func count(full: Int, quick: Int, atLeast: Int = 1) -> Int {
        if isFull { return full }
        #if DEBUG
        return min(quick, max(atLeast, quick / 10))
        #else
        return quick
        #endif
    }

    /// All of `cases` in a full run; otherwise the first `quick` of them (in a debug build, a
    /// tenth of that but at least the first `atLeast`).
    public static func cases<T>(_ cases: [T], quick: Int, atLeast: Int = 1) -> [T] {
        Array(cases.prefix(count(full: cases.count, quick: quick, atLeast: atLeast)))
    }
}
