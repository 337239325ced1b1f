import Dispatch
import Glibc
import Locking
@testable import QuickActionsBroker
import Testing

/// The announcer runs the providers' bulk exports and signals in order, on one thread that
/// the scheduler puts below the broker's others, and ends when stopped.
@Suite struct AnnouncerTests {
    /// The calling thread's niceness (on Linux, PRIO_PROCESS with 0 is the calling thread).
    static func niceness() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    @Test func runsWorkInOrderOnAThreadNicerThanItsCaller() {
        let announcer = Announcer()
        defer { announcer.stop() }
        let seen = Locked<[Int]>([])
        let observed = Locked<(niceness: Int32, onCaller: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        for index in 0..<200 {
            announcer.async { seen.withLock { $0.append(index) } }
        }
        announcer.async {
            observed.withLock { $0 = (Self.niceness(), pthread_equal(pthread_self(), caller) != 0) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(seen.withLock { $0 } == Array(0..<200))
        let expected = min(Self.niceness() + Announcer.niceness, 19)
        #expect(observed.withLock { $0?.niceness } == expected)
        #expect(observed.withLock { $0?.onCaller } == false)
        // The caller's own thread keeps its priority.
        #expect(Self.niceness() < expected)
    }

    @Test func workQueuedBeforeStopRunsAndWorkAfterItDoesNot() {
        let announcer = Announcer()
        let ran = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        announcer.async {
            usleep(50_000)
            ran.withLock { $0.append("before") }
            done.signal()
        }
        announcer.stop()
        announcer.async { ran.withLock { $0.append("after") } }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        usleep(100_000)
        #expect(ran.withLock { $0 } == ["before"])
    }
}
