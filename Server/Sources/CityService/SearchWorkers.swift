// SearchWorkers.swift: the threads searches run on, and how many may wait for one.
import Dispatch
import Foundation
import Synchronization

/// Runs searches on threads of their own, `threads` at a time, with at most `queueLimit`
/// waiting: a search is CPU work that must not hold the threads that answer `/health`,
/// `/metrics` and the page (Swift's cooperative pool, a thread per core), and a flood of
/// searches must not queue without end. A search offered when `queueLimit` are waiting, or
/// that waited longer than `maximumWait` (its client has likely given up), is not run: it
/// throws `Overloaded`, which the API answers with 503 and `Retry-After`.
public final class SearchWorkers: Sendable {
    /// The search was not run: too many were waiting, or it waited too long.
    public struct Overloaded: Error {
        /// How many were waiting when it was refused; -1 when it waited too long.
        public let waiting: Int
    }

    private struct Job {
        let enqueued: ContinuousClock.Instant
        let run: @Sendable (_ expired: Bool) -> Void
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var waiting: Int { jobs.count - head }
    }

    public let threads: Int
    public let queueLimit: Int
    public let maximumWait: Duration
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    /// Starts `threads` threads that live as long as the process.
    public init(threads: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), queueLimit: Int = 64,
                maximumWait: Duration = .seconds(2)) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        self.maximumWait = maximumWait
        for number in 0 ..< self.threads {
            let thread = Thread { [self] in work() }
            thread.name = "city-server search \(number + 1)"
            thread.start()
        }
    }

    /// How many searches wait for a thread now.
    public var waiting: Int { state.withLock { $0.waiting } }

    /// `search` run on one of the threads; throws `Overloaded` when it was not run.
    public func run<Value: Sendable>(_ search: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let job = Job(enqueued: .now) { expired in
                if expired {
                    continuation.resume(throwing: Overloaded(waiting: -1))
                } else {
                    continuation.resume(with: Result { try search() })
                }
            }
            let refusedWith: Int? = state.withLock { state in
                guard state.waiting < queueLimit else { return state.waiting }
                if state.head > 1_024 && state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                state.jobs.append(job)
                return nil
            }
            if let refusedWith {
                continuation.resume(throwing: Overloaded(waiting: refusedWith))
            } else {
                available.signal()
            }
        }
    }

    /// A thread's life: take the oldest waiting search and run it, or drop it when it waited
    /// longer than `maximumWait`.
    private func work() {
        while true {
            available.wait()
            let job: Job? = state.withLock { state in
                guard state.head < state.jobs.count else { return nil }
                defer { state.head += 1 }
                return state.jobs[state.head]
            }
            guard let job else { continue }
            job.run(ContinuousClock.now - job.enqueued > maximumWait)
        }
    }
}
