// WorkerThread.swift: a second thread for one stage of a build (issue 15: both cores).
import Foundation

/// Runs one closure on a thread of its own; `join()` waits for it to return.
///
/// The build is a chain of stages (parse → prepare → sort, merge → lay out), each
/// sequential within itself; a stage handed to a worker runs beside the next one, and the
/// two meet only through a `HandOff` or at `join()`. No stage is shared: whatever `body`
/// captures belongs to the worker from `init` until `join()` returns, and the caller must
/// not touch it in between. That contract is what makes the `@unchecked Sendable` below
/// sound; the compiler cannot check it, so every use keeps the ownership visible at its
/// call site (start, hand-offs, join, in one function).
///
/// A worker that is never joined keeps running; callers join on every path (`defer`).
package final class WorkerThread: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var isJoined = false

    /// Starts `body` on a new thread with an 8 MiB stack (the main thread's, on Linux;
    /// Darwin's secondary threads default to 512 KiB).
    package init(name: String, handingOver body: @escaping () -> Void) {
        let work = HandedOver(WorkerBody(body))
        let thread = Thread { [finished] in
            Self.nameCurrentThread(name)
            work.value.run()
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Names the thread for the system's tools (top, perf, gdb; Linux keeps 15 bytes). Set
    /// from the thread itself: that is when Foundation passes it to the system.
    private static func nameCurrentThread(_ name: String) {
        Thread.current.name = name
    }

    /// Runs every task at once, the first on the calling thread and each other on a worker,
    /// and returns their results in order after all have returned. Throws the first error in
    /// task order, also only after every task has returned (none is left running on a
    /// resource the caller is about to release). The tasks must not share mutable state.
    package static func runAll<Value>(_ tasks: [() throws -> Value]) throws -> [Value] {
        guard let first = tasks.first else { return [] }
        let workers = tasks.dropFirst().map { task in
            let outcome = Outcome<Value>()
            return (outcome, WorkerThread(name: "task") { outcome.result = Result { try task() } })
        }
        let firstResult = Result { try first() }
        for (_, worker) in workers { worker.join() }
        return try [firstResult.get()] + workers.map { outcome, _ in
            guard let result = outcome.result else { preconditionFailure("a joined task has a result") }
            return try result.get()
        }
    }

    /// Waits until `body` has returned. After it, what `body` captured is the caller's again.
    /// Idempotent.
    package func join() {
        guard !isJoined else { return }
        finished.wait()
        isJoined = true
    }
}

/// A value moved to another thread by the contract of `WorkerThread`: used by one thread at
/// a time, handed over at a point where the other thread waits (thread start, a `HandOff`,
/// `join()`).
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The closure of a `WorkerThread`, released as soon as it returns, before `join()` does: what
/// it captured is then the caller's alone (no reference lingers in the thread's block).
private final class WorkerBody {
    private var body: (() -> Void)?

    init(_ body: @escaping () -> Void) { self.body = body }

    func run() {
        body?()
        body = nil
    }
}

/// What a task of `WorkerThread.runAll` returned or threw (written by its worker, read after `join()`).
private final class Outcome<Value> {
    var result: Result<Value, any Error>?
}
