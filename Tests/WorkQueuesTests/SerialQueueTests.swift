import Glibc
import Locking
import Testing
import WorkQueues

/// WorkQueues' serial queue and semaphore, on libdispatch's C API, keep the promises the
/// loader and the D-Bus binding relied on from `DispatchQueue` and `DispatchSemaphore`.
@Suite(.timeLimit(.minutes(1))) struct SerialQueueTests {
    @Test(arguments: [SerialQueue.Priority.standard, .utility])
    func asyncWorkRunsInTheOrderItWasQueued(_ priority: SerialQueue.Priority) {
        let queue = SerialQueue(label: "org.quickactions.tests.order", priority: priority)
        let order = Locked<[Int]>([])
        let done = Semaphore(value: 0)
        for index in 0..<200 {
            queue.async { order.withLock { $0.append(index) } }
        }
        queue.async { done.signal() }
        done.wait()
        #expect(order.withLock { $0 } == Array(0..<200))
    }

    /// sync waits for what was queued before it, runs on the calling thread, and returns its value.
    @Test func syncRunsAfterEarlierWorkAndReturnsItsResult() {
        let queue = SerialQueue(label: "org.quickactions.tests.sync")
        let gate = Semaphore(value: 0)
        let log = Locked<[String]>([])
        queue.async {
            gate.wait()
            log.withLock { $0.append("async") }
        }
        gate.signal()
        let caller = pthread_self()
        let (value, sameThread) = queue.sync { () -> (Int, Bool) in
            log.withLock { $0.append("sync") }
            return (42, pthread_equal(pthread_self(), caller) != 0)
        }
        #expect(value == 42)
        #expect(sameThread)
        #expect(log.withLock { $0 } == ["async", "sync"])
    }

    /// No two pieces of work of one queue run at once, sync or async.
    @Test func workNeverOverlaps() {
        let queue = SerialQueue(label: "org.quickactions.tests.exclusive")
        let running = Locked(0)
        let overlaps = Locked(0)
        let done = Semaphore(value: 0)
        let work: @Sendable () -> Void = {
            let now = running.withLock { value -> Int in
                value += 1
                return value
            }
            if now > 1 { overlaps.withLock { $0 += 1 } }
            for _ in 0..<1_000 { _ = running.withLock { $0 } }
            running.withLock { $0 -= 1 }
        }
        for _ in 0..<100 {
            queue.async(work)
            queue.sync(execute: work)
        }
        queue.async { done.signal() }
        done.wait()
        #expect(overlaps.withLock { $0 } == 0)
    }
}
