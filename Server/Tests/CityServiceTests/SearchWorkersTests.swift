// SearchWorkersTests.swift: searches run on threads of their own, a bounded number waiting.
import CityService
import Dispatch
import Foundation
import Synchronization
import Testing

/// What the searches did, in order, read from the test.
final class Record: Sendable {
    let values = Mutex<[Int]>([])
    func append(_ value: Int) { values.withLock { $0.append(value) } }
    var all: [Int] { values.withLock { $0 } }
}

@Suite("city-server's search threads")
struct SearchWorkersTests {
    @Test("past the waiting limit a search is refused at once, not queued; the others run")
    func admission() async throws {
        let workers = SearchWorkers(threads: 1, queueLimit: 2, maximumWait: .seconds(60))
        let release = DispatchSemaphore(value: 0)
        let started = Record()
        let order = Record()
        // One search holds the only thread; two wait; the fourth is refused.
        async let first: Int = workers.run { started.append(0); release.wait(); order.append(1); return 1 }
        // (Waiting without blocking a thread of Swift's pool, which the tasks need.)
        for _ in 0 ..< 1_000 where started.all.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        async let second: Int = workers.run { order.append(2); return 2 }
        async let third: Int = workers.run { order.append(3); return 3 }
        for _ in 0 ..< 1_000 where workers.waiting < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(workers.waiting == 2)
        await #expect(throws: SearchWorkers.Overloaded.self) { try await workers.run { 4 } }
        release.signal()
        let answers = try await [first, second, third]
        #expect(answers == [1, 2, 3])
        #expect(order.all.first == 1 && order.all.sorted() == [1, 2, 3])   // the two waiting ones in the order they came
    }

    @Test("a search that waited longer than the wait limit is not run")
    func expiry() async throws {
        let workers = SearchWorkers(threads: 1, queueLimit: 4, maximumWait: .milliseconds(50))
        let release = DispatchSemaphore(value: 0)
        let started = Record()
        let ran = Record()
        async let holder: Int = workers.run { started.append(0); release.wait(); return 0 }
        for _ in 0 ..< 1_000 where started.all.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        async let late: Int = workers.run { ran.append(1); return 1 }
        // Queued behind the holder, then older than the limit (a sleep is at least that long).
        for _ in 0 ..< 1_000 where workers.waiting < 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(workers.waiting == 1)
        try await Task.sleep(for: .milliseconds(200))
        release.signal()
        _ = try await holder
        do {
            _ = try await late
            Issue.record("a search that waited past the limit ran")
        } catch is SearchWorkers.Overloaded {
        }
        #expect(ran.all.isEmpty)
    }
}

@Suite("city-server's log of failed requests")
struct FailureLogLimitTests {
    @Test("at most one line a second, each saying how many failures went unlogged before it")
    func oneLineASecond() {
        let limit = FailureLogLimit(interval: .seconds(1))
        let start = ContinuousClock.now
        #expect(limit.admit(at: start) == 0)
        #expect(limit.admit(at: start + .milliseconds(100)) == nil)
        #expect(limit.admit(at: start + .milliseconds(900)) == nil)
        #expect(limit.admit(at: start + .milliseconds(1_100)) == 2)
        #expect(limit.admit(at: start + .milliseconds(1_200)) == nil)
        #expect(limit.admit(at: start + .seconds(5)) == 1)
    }
}
