import Locking
import CDBus
import Synchronization
import WorkQueues

/// A private connection to a message bus, or to one peer without a bus in between, driven by
/// a main-loop thread (``MainLoop``).
///
/// Incoming method calls are dispatched to exported objects, signals to
/// subscriptions, and replies to outgoing calls to their completions, all on
/// the loop thread. Sending (replies, signals, calls) works from any thread
/// and goes out at once.
///
/// A bus connection and a client's peer connection each have a loop thread of their own; the
/// peer connections a ``PeerServer`` accepts share the loop of the connection the server was
/// made beside, so one thread serves them all.
///
/// Losing the bus (or the peer) never ends the process (`exit_on_disconnect` is off): the
/// disconnect handler runs once with the reason.
public final class Connection: @unchecked Sendable {
    // @unchecked Sendable: `raw`, `loop` and `ownsLoop` are set in init and never change;
    // libdbus locks the connection itself once threads are initialised; the
    // mutable parts (objects, subscriptions, handlers) sit behind mutexes.

    /// Which bus to connect to.
    public enum Bus: Sendable, Hashable {
        case session
        case system
        /// A bus at an explicit address, e.g. "unix:path=/run/…".
        case address(String)
    }

    let raw: OpaquePointer
    let loop: MainLoop
    /// Whether this connection started `loop` (and stops it when closed).
    private let ownsLoop: Bool
    /// This connection's unique name on the bus, e.g. ":1.42"; "" for a peer connection.
    public let uniqueName: String

    let objects = ObjectRegistry()
    /// The last incoming call's method, for the next call to the same one.
    let dispatchCache = DispatchCache()
    let signals = SignalRouter()
    /// Signals wait here behind replies promised off the loop (``holdSignals()``).
    let signalOrder = SignalOrder()
    /// GetManagedObjects' worker state: owners' snapshots and encoded listings.
    let lister = ManagedObjectsLister()
    private let disconnectHandler = Locked<(@Sendable (DBusError) -> Void)?>(nil)
    private let isOpen = Atomic<Bool>(true)
    private let standard = Locked<StandardInterfaces?>(nil)
    /// Calls sent and not answered yet, by serial.
    let replies = ReplyWaiters()
    /// Fails calls not answered in time (``expireReplies()``, on the loop thread); made when
    /// the first call is sent.
    let replyTimer = Locked<TimerSource?>(nil)
    static let replyTimerQueue = SerialQueue(label: "org.quickactions.dbus.reply-timeouts")

    /// A connection accepted by a server, waiting for its first message to be admitted; it
    /// holds the connection alive meanwhile.
    private struct Admission {
        let check: @Sendable (Connection) -> Bool
        var connection: Connection?
    }
    private let admission: Locked<Admission?>

    /// Connects, registers with the bus (`Hello`) and starts the loop thread.
    /// Wraps `dbus_bus_get_private`, or `dbus_connection_open_private` plus
    /// `dbus_bus_register` for an address.
    public convenience init(_ bus: Bus) throws(DBusError) {
        Self.initializeThreads()
        let raw: OpaquePointer
        switch bus {
        case .session:
            raw = try withCError { dbus_bus_get_private(DBUS_BUS_SESSION, $0) }
        case .system:
            raw = try withCError { dbus_bus_get_private(DBUS_BUS_SYSTEM, $0) }
        case .address(let address):
            raw = try withCError { error in address.withCString { dbus_connection_open_private($0, error) } }
            do {
                _ = try withCError { dbus_bus_register(raw, $0) != 0 ? true : nil }
            } catch {
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                throw error
            }
        }
        try self.init(owning: raw, loop: nil, uniqueName: dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? "")
    }

    /// Connects to one peer at `address` (no bus: no `Hello`, no unique name), for a process
    /// that talks to the program that started it. Wraps `dbus_connection_open_private`.
    public convenience init(peer address: String) throws(DBusError) {
        Self.initializeThreads()
        let raw = try withCError { error in address.withCString { dbus_connection_open_private($0, error) } }
        try self.init(owning: raw, loop: nil, uniqueName: "")
    }

    /// Takes over `raw` (one reference, closed and released on failure): on `loop` when
    /// given (the connection then shares its thread), else on a loop of its own. With
    /// `admission`, the first message received is held until it says yes (no: the connection
    /// is closed, the message not handled); the connection keeps itself alive until then.
    init(
        owning raw: OpaquePointer, loop shared: MainLoop?, uniqueName: String,
        admission: (@Sendable (Connection) -> Bool)? = nil
    ) throws(DBusError) {
        dbus_connection_set_exit_on_disconnect(raw, 0)
        self.raw = raw
        self.uniqueName = uniqueName
        self.admission = Locked(admission.map { check in Admission(check: check) })
        do throws(DBusError) {
            if let shared {
                loop = shared
            } else {
                loop = try MainLoop()
            }
        } catch {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
        ownsLoop = shared == nil
        let context = Unmanaged.passUnretained(self).toOpaque()
        let added = dbus_connection_add_filter(raw, Self.filterFunction, context, nil)
        guard added != 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError.noMemory("adding the message filter")
        }
        self.admission.withLock { $0?.connection = self }
        do {
            try loop.attach(connection: raw)
            if ownsLoop { try loop.start() }
        } catch {
            self.admission.withLock { $0 = nil }
            loop.detach(connection: raw)
            dbus_connection_remove_filter(raw, Self.filterFunction, context)
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
    }

    deinit {
        replyTimer.withLock { $0?.cancel() }
        guard !loop.isLoopThread else {
            // The last reference went away inside a handler, on the loop
            // thread, in the middle of dbus_connection_dispatch: tearing the
            // connection down here would free what libdbus is still using.
            // Stop serving it after this message and leave the connection to
            // the process's end instead. (If it was closed, close() did both.)
            if isOpen.exchange(false, ordering: .acquiringAndReleasing) {
                dbus_connection_remove_filter(raw, Self.filterFunction, Unmanaged.passUnretained(self).toOpaque())
                loop.detach(connection: raw)
                if ownsLoop { loop.stop() }
            }
            return
        }
        close()
        dbus_connection_unref(raw)
    }

    /// Closes the connection and stops serving it (and its loop, when it has one of its
    /// own). Pending outgoing calls fail with `Disconnected`. Safe to call more than once.
    /// From another thread it returns once the loop no longer serves the connection; on the
    /// loop thread (from a handler) that happens right after the message being handled.
    public func close() {
        guard isOpen.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let handle = RawConnection(raw: raw, filter: Unmanaged.passUnretained(self).toOpaque())
        let loop = self.loop
        if ownsLoop {
            loop.stop()
            Self.finish(handle, loop: loop)
            failOutstandingCalls(Self.closedError)
            return
        }
        // A shared loop goes on serving the others: finish on its thread, between dispatches,
        // where it cannot race with the loop's own dispatching of this connection. From the
        // loop thread (a handler: never deinit, which takes its own path there) that is after
        // this message, and the connection stays alive until then.
        if loop.isLoopThread {
            let queued = loop.enqueue { [self] in
                Self.finish(handle, loop: loop)
                failOutstandingCalls(Self.closedError)
            }
            if !queued {
                Self.finish(handle, loop: loop)
                failOutstandingCalls(Self.closedError)
            }
            return
        }
        let done = Semaphore(value: 0)
        if loop.enqueue({
            Self.finish(handle, loop: loop)
            done.signal()
        }) {
            done.wait()
        } else {
            Self.finish(handle, loop: loop)
        }
        failOutstandingCalls(Self.closedError)
    }

    private static let closedError = DBusError(.disconnected, "the connection was closed")

    /// The filter goes first (so no handler runs on a connection being closed, perhaps from
    /// its deinit), then libdbus runs the final notifications (pending calls failing), then
    /// the loop's callbacks go. Runs where nothing else dispatches `raw`.
    private static func finish(_ handle: RawConnection, loop: MainLoop) {
        dbus_connection_remove_filter(handle.raw, filterFunction, handle.filter)
        dbus_connection_close(handle.raw)
        while dbus_connection_dispatch(handle.raw) == DBUS_DISPATCH_DATA_REMAINS {}
        loop.detach(connection: handle.raw)
    }

    /// Whether the connection is still open (not closed, bus not lost).
    public var isConnected: Bool {
        isOpen.load(ordering: .acquiring) && dbus_connection_get_is_connected(raw) != 0
    }

    /// Runs `handler` once, on the loop thread, when the bus goes away.
    public func onDisconnect(_ handler: @escaping @Sendable (DBusError) -> Void) {
        disconnectHandler.withLock { $0 = handler }
    }

    private static let threadsReady: Bool = dbus_threads_init_default() != 0

    /// `dbus_threads_init_default`, before anything else touches libdbus.
    static func initializeThreads() {
        _ = threadsReady
    }

    // MARK: Sending

    /// Queues a message; it leaves at once (`dbus_connection_send`).
    public func send(_ message: Message) throws(DBusError) {
        guard dbus_connection_send(raw, message.raw, nil) != 0 else {
            throw DBusError.noMemory("queueing a message")
        }
    }

    /// Emits a signal from `path`.
    public func emit(
        path: ObjectPath, interface: InterfaceName, member: MemberName, _ arguments: [Value] = []
    ) throws(DBusError) {
        let signal: Message
        if arguments.contains(where: \.isContainer),
           let encoded = WireEncoding.signal(path: path, interface: interface, member: member, arguments) {
            // A signal with containers (InterfacesAdded, PropertiesChanged) in the wire format
            // at once: through DBusMessageIter, each container costs 1,700 instructions.
            signal = encoded
        } else {
            signal = try Message.signal(path: path, interface: interface, member: member)
            try signal.append(arguments)
        }
        try signalOrder.emit(signal) { (message: Message) throws(DBusError) in try send(message) }
    }

    // MARK: Incoming

    private static let filterFunction: DBusHandleMessageFunction = { _, message, data in
        guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        // The connection is held for this statement only.
        let filtered = Unmanaged<Connection>.fromOpaque(data).takeUnretainedValue().filter(message)
        switch filtered {
        case .result(let result):
            return result
        case .reply(let waiter, let outcome):
            // Run with no reference to the connection held here: the caller the waiter resumes
            // may drop the last one at once, and the connection must then end on that thread
            // (close() from there waits for this loop and joins it), not on this one.
            waiter(outcome)
            return DBUS_HANDLER_RESULT_HANDLED
        }
    }

    /// What the filter did with a message, or the reply to a call of ours with its waiter.
    private enum Filtered {
        case result(DBusHandlerResult)
        case reply(ReplyWaiters.Waiter, Result<Message, DBusError>)
    }

    private func filter(_ raw: OpaquePointer) -> Filtered {
        if let waiting = admission.withLock({ $0 }) {
            admission.withLock { $0 = nil }
            let isLocal = dbus_message_is_signal(raw, DBUS_INTERFACE_LOCAL, "Disconnected") != 0
            guard !isLocal, waiting.check(self) else {
                waiting.connection?.close()
                return .result(DBUS_HANDLER_RESULT_HANDLED)
            }
        }
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            dispatch(Message(retaining: raw))
            return .result(DBUS_HANDLER_RESULT_HANDLED)
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if dbus_message_is_signal(raw, DBUS_INTERFACE_LOCAL, "Disconnected") != 0 {
                lost()
                return .result(DBUS_HANDLER_RESULT_HANDLED)
            }
            signals.deliver(Message(retaining: raw))
            return .result(DBUS_HANDLER_RESULT_NOT_YET_HANDLED)
        case DBUS_MESSAGE_TYPE_METHOD_RETURN, DBUS_MESSAGE_TYPE_ERROR:
            guard let (waiter, outcome) = takeReply(raw) else { return .result(DBUS_HANDLER_RESULT_NOT_YET_HANDLED) }
            return .reply(waiter, outcome)
        default:
            return .result(DBUS_HANDLER_RESULT_NOT_YET_HANDLED)
        }
    }

    private func lost() {
        let handler = disconnectHandler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        if ownsLoop { loop.stop() }
        let what = uniqueName.isEmpty ? "the peer closed the connection" : "the bus closed connection \(uniqueName)"
        failOutstandingCalls(DBusError(.disconnected, what))
        handler?(DBusError(.disconnected, what))
    }

    /// The standard interfaces (Introspectable, Peer, Properties, ObjectManager)
    /// bound to this connection, made on first use.
    var standardInterfaces: StandardInterfaces {
        standard.withLock { cached in
            if let cached { return cached }
            let made = StandardInterfaces(connection: self)
            cached = made
            return made
        }
    }

    /// True on the loop thread, where blocking would deadlock.
    var isLoopThread: Bool { loop.isLoopThread }

    // MARK: Work on the loop thread

    /// Runs `work` on the connection's loop thread soon, between messages (at once when
    /// called there). For short work that must not race with the loop, never for work that
    /// may block. Returns false, running nothing, once the loop is stopping.
    @discardableResult
    public func onLoopThread(_ work: @escaping @Sendable () -> Void) -> Bool {
        if loop.isLoopThread {
            work()
            return true
        }
        return loop.enqueue(work)
    }
}

/// A libdbus connection and its filter's context, carried to the loop thread to be closed.
/// @unchecked Sendable: libdbus locks the connection; the context is only compared by
/// `dbus_connection_remove_filter`, never dereferenced there.
private struct RawConnection: @unchecked Sendable {
    let raw: OpaquePointer
    let filter: UnsafeMutableRawPointer
}
