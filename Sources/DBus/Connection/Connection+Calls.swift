import Locking
import CDBus
import WorkQueues

extension Connection {
    /// The default time a call waits for its reply: 25 s, as libdbus's.
    public static let defaultTimeout: Duration = .seconds(25)

    /// Sends a method call; `completion` runs exactly once with the reply or
    /// the error (an error reply, a timeout, or the connection going away): on the
    /// loop thread, or on the calling thread before this returns when the call
    /// cannot go out.
    ///
    /// The reply is matched to the call by its serial in this connection's filter
    /// (``ReplyWaiters``), not through a libdbus pending call: `dbus_connection_send_with_reply`
    /// builds each call's timeout error message in advance, which cost a Perform forwarded
    /// to a plugin host more instructions (about 20 k) than the broker's own work on it.
    public func call(
        _ message: Message, timeout: Duration = Connection.defaultTimeout,
        completion: @escaping @Sendable (Result<Message, DBusError>) -> Void
    ) {
        let nanoseconds = max(1_000_000, timeout.components.seconds * 1_000_000_000
            + timeout.components.attoseconds / 1_000_000_000)
        let deadline = Uptime.nanoseconds &+ UInt64(clamping: nanoseconds)
        let sent = replies.register(completion, deadline: deadline) { () -> UInt32? in
            var serial: UInt32 = 0
            guard dbus_connection_send(raw, message.raw, &serial) != 0 else { return nil }
            return serial
        }
        guard let serial = sent.serial else {
            completion(.failure(DBusError.noMemory("sending a method call")))
            return
        }
        if sent.rearm { armReplyTimer(at: deadline) }
        // A connection that is gone takes no more messages (libdbus drops them), and one
        // lost just before the call was registered has already failed the others.
        if !isConnected, let waiter = replies.take(serial) {
            waiter(.failure(DBusError(.disconnected, "the connection is closed")))
        }
    }

    /// The reply to a call of ours, if `raw` (a method return or error) is one: its waiter,
    /// taken out, and what to give it (the filter runs it once it holds no reference to this
    /// connection).
    func takeReply(_ raw: OpaquePointer) -> (ReplyWaiters.Waiter, Result<Message, DBusError>)? {
        let serial = dbus_message_get_reply_serial(raw)
        guard serial != 0, let waiter = replies.take(serial) else { return nil }
        let reply = Message(retaining: raw)
        if reply.kind == .error, let error = reply.error {
            return (waiter, .failure(error))
        }
        return (waiter, .success(reply))
    }

    private func armReplyTimer(at deadline: UInt64) {
        replyTimer.withLock { timer in
            if timer == nil {
                timer = TimerSource(queue: Self.replyTimerQueue) { [weak self] in
                    guard let self else { return }
                    if !loop.enqueue({ [weak self] in self?.expireReplies() }) { expireReplies() }
                }
            }
            timer?.schedule(deadline: deadline, leeway: .milliseconds(1))
        }
    }

    /// Fails the calls whose deadline has passed with NoReply, on the loop thread, and sets
    /// the timer for the next deadline.
    func expireReplies() {
        let (expired, next) = replies.expire(now: Uptime.nanoseconds)
        if let next { armReplyTimer(at: next) }
        for waiter in expired {
            waiter(.failure(DBusError(.noReply, "no reply within the call's timeout")))
        }
    }

    /// Sends a method call and waits for its reply without blocking a thread.
    /// An error reply is thrown as a `DBusError` with the peer's name and message.
    ///
    /// The reply crosses from the loop thread to the awaiting task through a
    /// ``ReplyHandOff`` (a pthread mutex), not as the continuation's value:
    /// when the reply arrives before the task has suspended, the Swift runtime
    /// resumes it through an atomic that ThreadSanitizer cannot see, so
    /// nothing it knows of would order the reply's creation before its use.
    public func call(_ message: Message, timeout: Duration = Connection.defaultTimeout) async throws(DBusError) -> Message {
        try await call(message, timeout: timeout, afterSending: nil)
    }

    /// ``call(_:timeout:)`` with a hook that runs on the calling thread after
    /// the message went out and before the task waits (tests use it to let
    /// the reply overtake the wait).
    func call(
        _ message: Message, timeout: Duration, afterSending: (@Sendable () -> Void)?
    ) async throws(DBusError) -> Message {
        let handOff = ReplyHandOff()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            call(message, timeout: timeout) { result in
                handOff.deliver(result)
                continuation.resume()
            }
            afterSending?()
        }
        return try handOff.take().get()
    }

    /// Calls a method and returns the reply's values.
    public func call(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        _ arguments: [Value] = [], timeout: Duration = Connection.defaultTimeout
    ) async throws(DBusError) -> [Value] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try await call(message, timeout: timeout).arguments()
    }

    /// Calls a method and blocks the calling thread until the reply comes.
    /// For programs without an async context (command-line tools); refused
    /// on the loop thread, where it would wait forever.
    public func callBlocking(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        _ arguments: [Value] = [], timeout: Duration = Connection.defaultTimeout
    ) throws(DBusError) -> [Value] {
        guard !isLoopThread else {
            throw DBusError(.failed, "callBlocking on the connection's own loop thread would deadlock")
        }
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        let done = Semaphore(value: 0)
        let outcome = Locked<Result<Message, DBusError>?>(nil)
        call(message, timeout: timeout) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else {
            throw DBusError(.noReply, "\(member.rawValue) finished without a result")
        }
        return try result.get().arguments()
    }
}

/// Hands one reply from the thread that completed the call to the task that
/// waits for it. Delivering and taking lock the same pthread mutex, which
/// gives the hand-over a happens-before edge of its own (one that
/// ThreadSanitizer intercepts), whichever way the continuation was resumed.
final class ReplyHandOff: Sendable {
    private let result = Locked<Result<Message, DBusError>?>(nil)

    func deliver(_ reply: Result<Message, DBusError>) {
        result.withLock { $0 = reply }
    }

    /// The delivered reply; called after the continuation resumed, so there is one.
    func take() -> Result<Message, DBusError> {
        result.withLock { $0.take() }
            ?? .failure(DBusError(.noReply, "the call was resumed without a reply"))
    }
}

extension Connection {
    /// Sends a method call and waits for its reply on this thread, reading the connection
    /// itself meanwhile (`dbus_connection_send_with_reply_and_block`): unlike
    /// ``callBlocking(destination:path:interface:member:_:timeout:)`` it also works on the
    /// loop thread, inside a handler, where other messages that arrive in the meantime wait
    /// for the loop, and on a thread the loop thread is waiting for. An error reply is thrown
    /// as a `DBusError`.
    ///
    /// While it waits it holds the connection's I/O path, so a message another thread sends
    /// on this connection meanwhile goes out once the reply is in.
    public func sendAndWait(_ message: Message, timeout: Duration = Connection.defaultTimeout) throws(DBusError) -> Message {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000
            + timeout.components.attoseconds / 1_000_000_000_000_000)
        let raw = try withCError { error in
            dbus_connection_send_with_reply_and_block(self.raw, message.raw, max(1, milliseconds), error)
        }
        return Message(owning: raw)
    }
}

/// A connection's calls waiting for their replies, by serial, with their deadlines.
///
/// Whoever takes a call's waiter out (its reply, its deadline, the connection's end) runs it,
/// so each runs once.
final class ReplyWaiters: Sendable {
    typealias Waiter = @Sendable (Result<Message, DBusError>) -> Void

    private struct State {
        var waiters: [UInt32: (waiter: Waiter, deadline: UInt64)] = [:]
        /// Deadlines, earliest first; answered calls are skipped when theirs comes up.
        var deadlines = DeadlineHeap()
        /// When the timer fires next, if it is set.
        var timerDeadline: UInt64?
    }

    // Locked (a pthread mutex), not Synchronization.Mutex: calls register from any thread and
    // replies are taken on the loop thread, and ThreadSanitizer sees only the former order them.
    private let state = Locked(State())

    /// Registers `waiter` under the serial `send` gives the call. The lock is held while it
    /// sends, so a reply read on the loop thread at once still finds its waiter; `send` may
    /// not call back into this table. `rearm` when the timer must be set for `deadline`.
    func register(
        _ waiter: @escaping Waiter, deadline: UInt64, send: () -> UInt32?
    ) -> (serial: UInt32?, rearm: Bool) {
        state.withLock { state in
            guard let serial = send() else { return (nil, false) }
            state.waiters[serial] = (waiter, deadline)
            state.deadlines.push(Deadline(time: deadline, id: UInt64(serial)))
            guard state.timerDeadline.map({ deadline < $0 }) ?? true else { return (serial, false) }
            state.timerDeadline = deadline
            return (serial, true)
        }
    }

    func take(_ serial: UInt32) -> Waiter? {
        state.withLock { state in
            guard let entry = state.waiters.removeValue(forKey: serial) else { return nil }
            if state.waiters.isEmpty { state.deadlines.removeAll() }
            return entry.waiter
        }
    }

    /// The waiters whose deadline is at or before `now`, taken out, and the next deadline.
    func expire(now: UInt64) -> (expired: [Waiter], next: UInt64?) {
        state.withLock { state in
            var expired: [Waiter] = []
            while let first = state.deadlines.first, first.time <= now {
                state.deadlines.popFirst()
                let serial = UInt32(truncatingIfNeeded: first.id)
                // A serial comes round again after 2^32 calls: only the deadline it has now.
                if let entry = state.waiters[serial], entry.deadline == first.time {
                    state.waiters[serial] = nil
                    expired.append(entry.waiter)
                }
            }
            state.timerDeadline = state.deadlines.first?.time
            return (expired, state.timerDeadline)
        }
    }

    /// Calls waiting now (for tests).
    var count: Int { state.withLock { $0.waiters.count } }

    /// Every waiter, taken out.
    func takeAll() -> [Waiter] {
        state.withLock { state in
            defer {
                state.waiters.removeAll()
                state.deadlines.removeAll()
            }
            return state.waiters.values.map(\.waiter)
        }
    }
}

extension Connection {
    /// Fails every call still waiting for its reply, with `error`: for a connection that went
    /// away, so no caller waits for a timeout that may be long (libdbus completes them too,
    /// when it gets to them; each call's completion runs once either way).
    func failOutstandingCalls(_ error: DBusError) {
        for waiter in replies.takeAll() { waiter(.failure(error)) }
    }
}
