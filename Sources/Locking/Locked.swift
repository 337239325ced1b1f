import Glibc

/// A value behind a pthread mutex: the one lock every module uses.
///
/// Used instead of Synchronization's `Mutex` because ThreadSanitizer
/// understands pthread mutexes (it intercepts them) but not the Linux
/// `Mutex`'s futex, and reports false races through it; the test suite is
/// meant to run clean under ThreadSanitizer (`make sanitizers`).
///
/// The value lives behind a pointer, not in a stored `var`, and ``withLock(_:)`` is
/// inlinable: a stored property handed out `inout` costs a dynamic exclusivity check
/// (`swift_beginAccess`/`swift_endAccess`) on every call, and an unspecialised generic
/// call reaches the value through its metadata. The mutex already makes the access
/// exclusive, so neither buys anything here (about 2,500 instructions per Perform, callgrind).
public final class Locked<Value> {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        self.value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value while holding the lock (`pthread_mutex_lock`).
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

// @unchecked: `value` is only reached through withLock, under the mutex.
extension Locked: @unchecked Sendable where Value: Sendable {}
