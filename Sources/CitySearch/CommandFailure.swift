// CommandFailure.swift: one line on standard error and an exit status.
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure of a command: its message, printed as one "city-search: …" line on standard
/// error, and its exit status (README: 1 no such city, 64 usage, 65 invalid index, 66 cannot
/// open, 74 favorites file).
struct CommandFailure: Error {
    let message: String
    let status: Int32

    init(_ message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    /// Runs `body`, turning a `CommandFailure` into its line and exit status.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as CommandFailure {
            warn(failure.message)
            throw ExitCode(failure.status)
        }
    }

    /// A note on standard error that does not change the exit status.
    static func warn(_ message: String) {
        var standardError = StandardError()
        print("city-search: " + message, to: &standardError)
    }
}

/// Writes to standard error.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { systemWrite(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
