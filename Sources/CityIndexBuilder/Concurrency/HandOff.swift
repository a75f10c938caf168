// HandOff.swift: a bounded queue from one producing thread to one consuming thread.
import Foundation

/// Values passed from a producer thread to a consumer thread in order, at most `capacity`
/// waiting at a time: a producer ahead of its consumer blocks instead of filling memory.
///
/// Either side can end it. The producer calls `finish(throwing:)` after its last value (with
/// the error that stopped it, if any), and the consumer receives every value sent before it,
/// then the error. The consumer calls `close()` when it stops early (its own error): every
/// later `send` returns `false`, so the producer stops too and can be joined.
///
/// Values sent are owned by the consumer once received (`HandedOver`'s contract): send
/// batches (hundreds of records), not single records, so that the lock is taken rarely.
/// `Failure` is the producer's error type (`Never` when it cannot fail).
package final class HandOff<Element, Failure: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Waiting values, oldest at `head`.
    private var waiting: [Element?]
    private var head = 0
    private var count = 0
    private var isFinished = false
    private var isClosed = false
    private var failure: Failure?

    package init(capacity: Int) {
        waiting = Array(repeating: nil, count: max(1, capacity))
    }

    /// Queues `element`, blocking while `capacity` values wait. Returns `false` (and drops
    /// `element`) once the consumer has closed: the producer should stop.
    package func send(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count == waiting.count, !isClosed { condition.wait() }
        guard !isClosed else { return false }
        waiting[(head + count) % waiting.count] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// The producer's last word: no more values; `error`, if any, is thrown to the consumer
    /// after the values already sent.
    package func finish(throwing error: Failure? = nil) {
        condition.lock()
        defer { condition.unlock() }
        isFinished = true
        failure = error
        condition.broadcast()
    }

    /// The next value, blocking until one is sent; `nil` once the producer has finished and
    /// every value was received, or once the hand-off is closed.
    /// - Throws: the producer's error, after its values.
    package func receive() throws(Failure) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0, !isFinished, !isClosed { condition.wait() }
        if count == 0 {
            guard !isClosed else { return nil }
            if let failure {
                self.failure = nil
                throw failure
            }
            return nil
        }
        let element = waiting[head]
        waiting[head] = nil
        head = (head + 1) % waiting.count
        count -= 1
        condition.broadcast()
        return element
    }

    /// Either side stops early: waiting values are dropped, every `send` returns `false` and
    /// `receive` returns `nil` (without the producer's error).
    package func close() {
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        for index in waiting.indices { waiting[index] = nil }
        count = 0
        condition.broadcast()
    }
}
