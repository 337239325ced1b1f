import Locking
import Dispatch

/// Runs async work from synchronous code and waits for it: the benchmark's
/// driver is a plain thread, and a few binding calls (subscriptions) are async only.
func waitFor<T: Sendable>(
    _ label: String, timeout: Duration = .seconds(30), _ body: @escaping @Sendable () async throws -> T
) throws(BenchError) -> T {
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<T, any Error>?>(nil)
    Task {
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        done.signal()
    }
    guard done.wait(timeout: .now() + .seconds(Int(timeout.components.seconds))) == .success else {
        throw .calls(subject: label, reason: "no answer within \(timeout)")
    }
    switch outcome.withLock({ $0 }) {
    case .success(let value)?: return value
    case .failure(let error)?: throw .calls(subject: label, reason: "\(error)")
    case nil: throw .calls(subject: label, reason: "finished without a result")
    }
}

/// Counts events from the loop thread and lets the driver wait for the next one.
final class EventLatch: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let stamps = Locked<[UInt64]>([])

    /// Records the event's time (called on the loop thread).
    func record() {
        let now = monotonicNanoseconds()
        stamps.withLock { $0.append(now) }
        semaphore.signal()
    }

    /// Waits for the next event and returns its time, or nil after `timeout`.
    func next(timeout: Duration) -> UInt64? {
        guard semaphore.wait(timeout: .now() + .seconds(Int(timeout.components.seconds))) == .success else {
            return nil
        }
        return stamps.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Forgets events nobody waited for.
    func drain() {
        while semaphore.wait(timeout: .now()) == .success {}
        stamps.withLock { $0.removeAll() }
    }
}
