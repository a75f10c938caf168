// SignalGuardTests.swift: the SIGBUS guard of mapped indexes owns only its own faults; every
// other SIGBUS ends (or spares) the process as it would without the library (issue 43).
import CityIndexTestSupport
import Foundation
import Testing

@Suite("SIGBUS guard in a process of its own")
struct SignalGuardTests {
    /// How a `GuardProbe` run ended: by a signal (its number) or an exit status, and what it printed.
    struct Ending: CustomStringConvertible {
        let signal: Int32?
        let status: Int32?
        let output: String
        var description: String { "signal \(signal.map(String.init) ?? "-"), status \(status.map(String.init) ?? "-"): \(output)" }
    }

    /// Runs `GuardProbe MODE` on a copy of the small index; a run past `timeLimit` seconds is
    /// killed and recorded as a hang.
    static func probe(_ mode: String, backtracer: Bool = false, timeLimit: Double = 60) throws -> Ending {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-guard-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("small.cidx")
        try Data(Fixtures.smallIndexBytes).write(to: index)
        // posix_spawn and waitpid, not Process: the run is polled against a deadline, and
        // nothing else may reap it.
        let executable = Tool.productsDirectory.appendingPathComponent("GuardProbe").path
        let outputPath = directory.appendingPathComponent("output.txt").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = backtracer ? "enable=yes" : "enable=no"
        let arguments = [executable, mode, index.path, directory.path]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, envp) == 0 else { throw TestSetupError("cannot spawn \(executable)") }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeLimit)
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return Ending(signal: nil, status: nil, output: "hung for \(timeLimit) s")
            }
            usleep(20_000)
        }
        let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFSIGNALED and WTERMSIG, spelled out (C macros).
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? Ending(signal: signal, status: nil, output: printed)
            : Ending(signal: nil, status: (status >> 8) & 0xFF, output: printed)
    }

    @Test("a fault on another mapped file ends the process by SIGBUS, also when SIGBUS was ignored, also with the backtracer",
          arguments: [("foreign-fault", false), ("foreign-fault-ignored", false), ("foreign-fault", true), ("foreign-fault-ignored", true)])
    func foreignFault(mode: String, backtracer: Bool) throws {
        // Before: with SIGBUS ignored the guard returned to the faulting read, which faulted
        // again, forever (100% CPU).
        let ending = try Self.probe(mode, backtracer: backtracer)
        #expect(ending.signal == SIGBUS, "\(mode) backtracer \(backtracer): \(ending)")
    }

    @Test("a SIGBUS sent by kill ends the process under the default action, as without the library")
    func sentSignalDefault() throws {
        // Before: swallowed, with the handler reset to the default: the process went on, and
        // the truncated index then killed it.
        let ending = try Self.probe("kill")
        #expect(ending.signal == SIGBUS && !ending.output.contains("survived"), "\(ending)")
    }

    @Test("a sent SIGBUS that the process ignores, or handles itself, leaves the guard in place",
          arguments: [("kill-ignored", 0), ("kill-handled", 1)])
    func sentSignalIgnoredOrHandled(mode: String, handled: Int) throws {
        let ending = try Self.probe(mode)
        #expect(ending.status == 0 && ending.output.contains("guarded changed=true handled=\(handled)"), "\(mode): \(ending)")
    }

    @Test("with Swift's backtracer (every Swift program's default), a SIGBUS sent by kill leaves the guard in place")
    func sentSignalBacktracer() throws {
        // Before: the backtracer printed its report, restored the default action and returned;
        // the process went on unguarded, and the truncated index then killed it.
        let ending = try Self.probe("kill-backtraced", backtracer: true)
        if ending.output.contains("survived-kill") {
            #expect(ending.status == 0 && ending.output.contains("guarded changed=true"), "\(ending)")
        } else {
            // A backtracer that ends the process at the kill does as it would without the library.
            #expect(ending.signal == SIGBUS, "\(ending)")
        }
    }

    @Test("1,100 indexes open under a limit of 64 open files: each answers, and the process still opens files")
    func manyOpenIndexes() throws {
        // Before: each open index held a descriptor, so the 61st open failed ("Too many open
        // files") and the process could open nothing more; the read-into-memory fallback past
        // the guard's 1,024 mappings was never reached.
        let ending = try Self.probe("many-opens")
        #expect(ending.status == 0 && ending.output.contains("opened 1100 answered 1100 can-open-files=true"), "\(ending)")
    }
}
