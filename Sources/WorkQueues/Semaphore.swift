import CDispatch
import CWorkQueues

/// A counting semaphore (`dispatch_semaphore_create`, `_signal`, `_wait`): what the modules a
/// plugin host links need of `DispatchSemaphore`, without Swift's Dispatch overlay (see
/// ``SerialQueue``).
public final class Semaphore: @unchecked Sendable {
    // @unchecked: `semaphore` is set once in init; libdispatch's semaphore functions are thread-safe.
    private let semaphore: dispatch_semaphore_t

    /// A semaphore whose count starts at `value` (0: the first ``wait()`` waits for a ``signal()``).
    public init(value: Int = 0) {
        semaphore = dispatch_semaphore_create(value)
    }

    deinit {
        qa_dispatch_release(UnsafeMutableRawPointer(semaphore))
    }

    /// Adds one to the count, waking one waiter if any (`dispatch_semaphore_signal`).
    public func signal() {
        _ = dispatch_semaphore_signal(semaphore)
    }

    /// Waits until the count is above zero, then takes one (`dispatch_semaphore_wait`, no timeout).
    public func wait() {
        _ = dispatch_semaphore_wait(semaphore, DISPATCH_TIME_FOREVER)
    }
}
