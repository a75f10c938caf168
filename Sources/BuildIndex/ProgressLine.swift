// ProgressLine.swift: a self-updating progress line on a terminal.
import Foundation

/// Shows "reading: 41% (8.0 of 19.4 MB)", then each later phase ("building: tries…",
/// "writing…") on standard error, redrawn in place at most ten times a second; silent when
/// standard error is not a terminal.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(read: Int, total: Int?) {
        guard enabled else { return }
        lock.withLock {
            let now = ContinuousClock.now
            guard now - lastDraw >= .milliseconds(100) else { return }
            lastDraw = now
            let megabytes = String(format: "%.1f", Double(read) / 1e6)
            let text: String
            if let total, total > 0 {
                text = String(format: "reading: %3.0f%% (%@ of %.1f MB)", 100 * Double(read) / Double(total), megabytes, Double(total) / 1e6)
            } else {
                text = "reading: \(megabytes) MB"
            }
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
            drawn = true
        }
    }

    /// Shows "building: NAME…" for a phase after reading (drawn at once).
    func phase(_ name: String) {
        guard enabled else { return }
        lock.withLock {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + "building: \(name)…").utf8))
            lastDraw = ContinuousClock.now
            drawn = true
        }
    }

    func finish() {
        guard enabled else { return }
        lock.withLock {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            drawn = false
        }
    }
}
