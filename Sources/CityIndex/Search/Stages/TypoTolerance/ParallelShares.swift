// ParallelShares.swift: the shares of one search, on the caller's thread and on helpers that may come late.
import Dispatch
import Synchronization

/// Runs the shares of one search's work (`CityIndex.typoMatches`): share 0 at once on the
/// calling thread, the others on the system's pool. The shares divide the work between
/// themselves as they go (`RootChildClaims`), so a helper that has not started by the time the
/// caller has finished its own share has nothing left to do: it is cancelled, not waited for,
/// and its share never runs. A helper that did start is waited for: by polling first (it is
/// finishing the one subtree it claimed last, tens of microseconds), then, past
/// `pollingLimit`, blocked on a semaphore.
///
/// Why not `DispatchQueue.concurrentPerform`: it wakes its helpers before the caller's own
/// share starts, and the caller, done first, sleeps in the kernel until the last helper wakes
/// it. For shares of tens of microseconds, the wake-ups alone can cost more than the second
/// thread saves; here the caller's share starts at once, and a helper that starts late finds
/// nothing left.
///
/// Invariant: each helper's state goes `pending` → `running` → `finished`, or `pending` →
/// `cancelled`, each step once; only a `running` helper runs its share and signals `finished`.
/// - Complexity: O(*n*) for *n* shares, besides the shares' own work.
enum ParallelShares {
    /// How long the caller polls a running helper before it blocks.
    static let pollingLimit = Duration.microseconds(200)

    /// One helper's progress, shared between the caller and the helper's thread.
    private final class Helper: Sendable {
        static let pending = 0, running = 1, finished = 2, cancelled = 3
        let state = Atomic<Int>(Helper.pending)
        let done = DispatchSemaphore(value: 0)
    }

    /// Runs `share(0)` on this thread and `share(1)` … `share(count − 1)` on the pool, and
    /// returns when every share that started has returned.
    /// - Returns: which shares ran (`ran[i]`); a share that did not run was cancelled before it
    ///   started, after every other share had returned or claimed its last piece of work.
    static func run(count: Int, _ share: @escaping @Sendable (Int) -> Void) -> [Bool] {
        let helpers = (1 ..< max(count, 1)).map { _ in Helper() }
        for (index, helper) in helpers.enumerated() {
            DispatchQueue.global().async(flags: .inheritQoS) {
                guard helper.state.compareExchange(expected: Helper.pending, desired: Helper.running,
                                                   ordering: .acquiringAndReleasing).exchanged else { return }
                share(index + 1)
                helper.state.store(Helper.finished, ordering: .releasing)
                helper.done.signal()
            }
        }
        share(0)
        var ran = [true]
        let clock = ContinuousClock()
        for helper in helpers {
            if helper.state.compareExchange(expected: Helper.pending, desired: Helper.cancelled,
                                            ordering: .acquiringAndReleasing).exchanged {
                ran.append(false)
                continue
            }
            let deadline = clock.now.advanced(by: pollingLimit)
            var polls = 0
            while helper.state.load(ordering: .acquiring) != Helper.finished {
                polls += 1
                // Read the clock only now and then: polling must stay cheap.
                if polls & 255 == 0 && clock.now > deadline {
                    // Each helper that runs signals once, so waits never outnumber signals.
                    while helper.state.load(ordering: .acquiring) != Helper.finished { helper.done.wait() }
                }
            }
            ran.append(true)
        }
        return ran
    }
}
