import Locking
import CDBus
import Dispatch
import Synchronization

extension Connection {
    /// The default time a call waits for its reply: 25 s, as libdbus's.
    public static let defaultTimeout: Duration = .seconds(25)

    /// Sends a method call; `completion` runs exactly once with the reply or
    /// the error (an error reply, a timeout, or the bus going away): on the
    /// loop thread, or on the calling thread before this returns when the
    /// reply was already in before the notify could be set. Wraps `dbus_connection_send_with_reply` and
    /// `dbus_pending_call_set_notify`.
    public func call(
        _ message: Message, timeout: Duration = Connection.defaultTimeout,
        completion: @escaping @Sendable (Result<Message, DBusError>) -> Void
    ) {
        // Kept until it completes, so losing the connection can fail it (see `failOutstandingCalls`).
        let outstanding = self.outstanding
        let key = PendingCallBox.Key()
        let box = PendingCallBox { result in
            outstanding.withLock { _ = $0.removeValue(forKey: key) }
            completion(result)
        }
        outstanding.withLock { $0[key] = box }
        var pending: OpaquePointer?
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000
            + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, max(1, milliseconds)) != 0 else {
            box.finish(.failure(DBusError.noMemory("sending a method call")))
            return
        }
        guard let pending else {
            box.finish(.failure(DBusError(.disconnected, "the connection to the bus is closed")))
            return
        }
        let context = Unmanaged.passRetained(box).toOpaque()
        let notified = dbus_pending_call_set_notify(pending, { pending, data in
            guard let pending, let data else { return }
            Unmanaged<PendingCallBox>.fromOpaque(data).takeUnretainedValue().complete(pending)
        }, context, { data in
            guard let data else { return }
            Unmanaged<PendingCallBox>.fromOpaque(data).release()
        })
        if notified == 0 {
            Unmanaged<PendingCallBox>.fromOpaque(context).release()
            dbus_pending_call_cancel(pending)
            box.finish(.failure(DBusError.noMemory("waiting for a reply")))
        } else if dbus_pending_call_get_completed(pending) != 0 {
            // The reply came in on the loop thread before the notify was set.
            box.complete(pending)
        }
        dbus_pending_call_unref(pending)
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
        let done = DispatchSemaphore(value: 0)
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
    /// for the loop. An error reply is thrown as a `DBusError`.
    public func sendAndWait(_ message: Message, timeout: Duration = Connection.defaultTimeout) throws(DBusError) -> Message {
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000
            + timeout.components.attoseconds / 1_000_000_000_000_000)
        let raw = try withCError { error in
            dbus_connection_send_with_reply_and_block(self.raw, message.raw, max(1, milliseconds), error)
        }
        return Message(owning: raw)
    }
}

/// Carries one call's completion through libdbus, and runs it exactly once
/// whether the notify or the already-completed check gets there first.
final class PendingCallBox: Sendable {
    /// Identifies one call among a connection's outstanding ones.
    final class Key: Hashable, Sendable {
        static func == (lhs: Key, rhs: Key) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    private let completion: @Sendable (Result<Message, DBusError>) -> Void
    private let done = Atomic<Bool>(false)

    init(_ completion: @escaping @Sendable (Result<Message, DBusError>) -> Void) {
        self.completion = completion
    }

    /// Takes the reply from a completed pending call (`dbus_pending_call_steal_reply`).
    func complete(_ pending: OpaquePointer) {
        guard claim() else { return }
        guard let raw = dbus_pending_call_steal_reply(pending) else {
            completion(.failure(DBusError(.noReply, "the call completed without a reply")))
            return
        }
        let reply = Message(owning: raw)
        if reply.kind == .error, let error = reply.error {
            completion(.failure(error))
        } else {
            completion(.success(reply))
        }
    }

    func finish(_ result: Result<Message, DBusError>) {
        guard claim() else { return }
        completion(result)
    }

    private func claim() -> Bool {
        done.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}

extension Connection {
    /// Fails every call still waiting for its reply, with `error`: for a connection that went
    /// away, so no caller waits for a timeout that may be long (libdbus completes them too,
    /// when it gets to them; each call's completion runs once either way).
    func failOutstandingCalls(_ error: DBusError) {
        let boxes = outstanding.withLock { outstanding -> [PendingCallBox] in
            defer { outstanding.removeAll() }
            return Array(outstanding.values)
        }
        for box in boxes { box.finish(.failure(error)) }
    }
}
