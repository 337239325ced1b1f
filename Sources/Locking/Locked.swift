import Glibc

/// A value behind a pthread mutex: the one lock every module uses.
///
/// Used instead of Synchronization's `Mutex` because ThreadSanitizer
/// understands pthread mutexes (it intercepts them) but not the Linux
/// `Mutex`'s futex, and reports false races through it; the test suite is
/// meant to run clean under ThreadSanitizer (`make sanitizers`).
public final class Locked<Value> {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock (`pthread_mutex_lock`).
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

// @unchecked: `value` is only reached through withLock, under the mutex.
extension Locked: @unchecked Sendable where Value: Sendable {}
