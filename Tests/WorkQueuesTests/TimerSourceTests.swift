import Glibc
import Locking
import Testing
import WorkQueues

/// WorkQueues' timer, as the D-Bus binding uses it for reply timeouts: one deadline at a
/// time on ``Uptime``'s clock, moved by scheduling again, its handler on the given queue.
@Suite(.timeLimit(.minutes(1))) struct TimerSourceTests {
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// libdispatch's deadlines are CLOCK_MONOTONIC nanoseconds on Linux, as the binding's
    /// deadline arithmetic assumes.
    @Test func uptimeIsTheMonotonicClock() {
        let before = Self.monotonicNanoseconds()
        let uptime = Uptime.nanoseconds
        let after = Self.monotonicNanoseconds()
        #expect(before <= uptime && uptime <= after, "\(before) ≤ \(uptime) ≤ \(after)")
    }

    @Test func aDeadlineThatHasPassedFiresOnceOnTheQueue() {
        let queue = SerialQueue(label: "org.quickactions.tests.timer")
        let fired = Semaphore(value: 0)
        let count = Locked(0)
        let timer = TimerSource(queue: queue) {
            count.withLock { $0 += 1 }
            fired.signal()
        }
        timer.schedule(deadline: Uptime.nanoseconds, leeway: .milliseconds(1))
        fired.wait()
        // Work queued after the handler ran comes after it: the handler ran on this queue.
        #expect(queue.sync { count.withLock { $0 } } == 1)
        timer.cancel()
    }

    /// Scheduling again replaces the deadline: one an hour away, moved to now, fires now.
    @Test func schedulingAgainMovesTheDeadline() {
        let queue = SerialQueue(label: "org.quickactions.tests.timer-moved")
        let fired = Semaphore(value: 0)
        let timer = TimerSource(queue: queue) { fired.signal() }
        timer.schedule(deadline: Uptime.nanoseconds + 3_600 * 1_000_000_000, leeway: .milliseconds(1))
        timer.schedule(deadline: Uptime.nanoseconds, leeway: .milliseconds(1))
        fired.wait()
        timer.cancel()
    }
}
