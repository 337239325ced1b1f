import Locking
import Synchronization

/// Keeps signals behind replies already promised.
///
/// A reply answered off the loop (a large listing encoded on a worker) reads
/// the state at some moment after its call arrived; a change signal emitted
/// meanwhile must not overtake it, or a client that applies signals to the
/// listing it got (GDBusObjectManagerClient, the CLI's watch) would apply the
/// newer change first and then overwrite it with the older listing. So from
/// ``Connection/holdSignals()`` until that hold's release, signals emitted on
/// the connection queue in order, and each goes out as soon as every hold
/// taken before it was emitted is released. Emitting never blocks; signals
/// emitted while no hold is open go out at once.
final class SignalOrder: Sendable {
    private struct Held {
        /// The newest hold open when the signal was emitted.
        let after: UInt64
        let signal: Message
    }

    private struct State {
        var lastHold: UInt64 = 0
        var open: Set<UInt64> = []
        var held: [Held] = []
    }

    private let state = Locked(State())

    /// Opens a hold; signals emitted from now wait for its release.
    func hold() -> UInt64 {
        state.withLock { state in
            state.lastHold += 1
            state.open.insert(state.lastHold)
            return state.lastHold
        }
    }

    /// Releases a hold and sends the signals no open hold keeps back any more.
    func release(_ hold: UInt64, sending send: (Message) throws(DBusError) -> Void) {
        state.withLock { state in
            state.open.remove(hold)
            var sent = 0
            for held in state.held {
                // A signal waits for every hold opened before it (ids up to `after`).
                guard !state.open.contains(where: { $0 <= held.after }) else { break }
                // A signal that cannot be queued now (out of memory, connection gone) is dropped,
                // as a direct emit would have reported and dropped it.
                try? send(held.signal)
                sent += 1
            }
            state.held.removeFirst(sent)
        }
    }

    /// Sends `signal` now, or queues it behind the holds open now (and the signals already queued).
    func emit(_ signal: Message, sending send: (Message) throws(DBusError) -> Void) throws(DBusError) {
        try state.withLock { (state: inout State) throws(DBusError) in
            if state.open.isEmpty && state.held.isEmpty {
                // Sent under the lock, so a hold opened at the same time cannot release
                // signals queued after it ahead of this one.
                try send(signal)
            } else {
                state.held.append(Held(after: state.lastHold, signal: signal))
            }
        }
    }
}

/// A reply promised now and sent later (``Connection/holdSignals()``): until
/// it is released, signals emitted on the connection wait behind it.
public final class SignalHold: Sendable {
    private let id: UInt64
    private let order: SignalOrder
    private let connection: Connection
    private let released = Atomic<Bool>(false)

    init(id: UInt64, order: SignalOrder, connection: Connection) {
        self.id = id
        self.order = order
        self.connection = connection
    }

    /// Lets the signals held for this reply go (send the reply first). Idempotent.
    public func release() {
        guard released.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        order.release(id) { (message: Message) throws(DBusError) in try connection.send(message) }
    }

    deinit { release() }
}

extension Connection {
    /// Promises a reply that reflects the state from now on: signals emitted
    /// on this connection until the returned hold is released (after the
    /// reply is sent) go out after it, in the order they were emitted.
    /// For replies encoded off the loop; release it on every path (its
    /// `deinit` does, too).
    public func holdSignals() -> SignalHold {
        SignalHold(id: signalOrder.hold(), order: signalOrder, connection: self)
    }
}
