import Locking
import CDBus
import Dispatch
import Synchronization

/// A private connection to a message bus, driven by its own event loop thread.
///
/// Incoming method calls are dispatched to exported objects, signals to
/// subscriptions, and replies to outgoing calls to their completions, all on
/// the loop thread. Sending (replies, signals, calls) works from any thread
/// and goes out at once.
///
/// Losing the bus never ends the process (`exit_on_disconnect` is off): the
/// disconnect handler runs once with the reason and the loop stops.
public final class Connection: @unchecked Sendable {
    // @unchecked Sendable: `raw` and `loop` are set in init and never change;
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
    private let loop: EventLoop
    /// This connection's unique name on the bus, e.g. ":1.42".
    public let uniqueName: String

    let objects = ObjectRegistry()
    let signals = SignalRouter()
    private let disconnectHandler = Locked<(@Sendable (DBusError) -> Void)?>(nil)
    private let isOpen = Atomic<Bool>(true)
    private let standard = Locked<StandardInterfaces?>(nil)

    /// Connects, registers with the bus (`Hello`) and starts the loop thread.
    /// Wraps `dbus_bus_get_private`, or `dbus_connection_open_private` plus
    /// `dbus_bus_register` for an address.
    public init(_ bus: Bus) throws(DBusError) {
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
        dbus_connection_set_exit_on_disconnect(raw, 0)
        self.raw = raw
        uniqueName = dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
        do {
            loop = try EventLoop(connection: raw)
        } catch {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let added = dbus_connection_add_filter(raw, Self.filterFunction, context, nil)
        guard added != 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError.noMemory("adding the message filter")
        }
        do {
            try loop.install()
            try loop.start()
        } catch {
            loop.uninstall()
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error
        }
    }

    deinit {
        guard !loop.isLoopThread else {
            // The last reference went away inside a handler, on the loop
            // thread, in the middle of dbus_connection_dispatch: tearing the
            // connection down here would free what libdbus is still using.
            // Stop the loop after this message and leave the connection to
            // the process's end instead. (If it was closed, close() did both.)
            if isOpen.exchange(false, ordering: .acquiringAndReleasing) {
                dbus_connection_remove_filter(raw, Self.filterFunction, Unmanaged.passUnretained(self).toOpaque())
                loop.stop()
            }
            return
        }
        close()
        dbus_connection_unref(raw)
    }

    /// Closes the connection and stops its loop. Pending outgoing calls fail
    /// with `Disconnected`. Safe to call more than once.
    public func close() {
        guard isOpen.exchange(false, ordering: .acquiringAndReleasing) else { return }
        loop.stop()
        // libdbus runs the final notifications (pending calls failing) here,
        // with the loop gone; the filter stays until the connection is freed.
        dbus_connection_close(raw)
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        dbus_connection_remove_filter(raw, Self.filterFunction, Unmanaged.passUnretained(self).toOpaque())
        loop.uninstall()
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
        let signal = try Message.signal(path: path, interface: interface, member: member)
        try signal.append(arguments)
        try send(signal)
    }

    // MARK: Incoming

    private static let filterFunction: DBusHandleMessageFunction = { _, message, data in
        guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        return Unmanaged<Connection>.fromOpaque(data).takeUnretainedValue().filter(message)
    }

    private func filter(_ raw: OpaquePointer) -> DBusHandlerResult {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            dispatch(Message(retaining: raw))
            return DBUS_HANDLER_RESULT_HANDLED
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if dbus_message_is_signal(raw, DBUS_INTERFACE_LOCAL, "Disconnected") != 0 {
                lost()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            signals.deliver(Message(retaining: raw))
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    private func lost() {
        let handler = disconnectHandler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        loop.stop()
        handler?(DBusError(.disconnected, "the bus closed connection \(uniqueName)"))
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

    /// Runs `work` on the loop thread as soon as the message being handled
    /// now has been dispatched, before the next one, outside libdbus's
    /// dispatch (so nothing of the connection is locked while it runs).
    ///
    /// For work that is nearly always quick but might block: running it
    /// here saves a hand-off to another thread, and should it run for
    /// more than 20 ms, a new thread takes over the loop and keeps the
    /// connection serving; the old thread ends when `work` returns. Pieces
    /// of work run one at a time, in the order they were queued, except that
    /// those after a piece that overran run on the new thread beside it.
    ///
    /// Returns false, queueing nothing, when not called from the loop thread
    /// (from a handler, a signal or a call's completion) or once the
    /// connection is closing: then run the work elsewhere.
    public func runAfterCurrentMessage(_ work: @escaping @Sendable () -> Void) -> Bool {
        loop.runAfterCurrentMessage(work)
    }
}
