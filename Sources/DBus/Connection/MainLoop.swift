import Locking
import CDBus
import Glibc
import Synchronization

/// The libdbus main-loop adapter: one thread that drives any number of libdbus connections
/// and servers (a bus connection, the peer-to-peer connections a ``PeerServer`` accepts, the
/// server itself), so a call that arrives on one and is forwarded on another is answered
/// without a thread switch.
///
/// libdbus does no I/O by itself; it tells its owner which file descriptors and timers it
/// needs (`dbus_connection_set_watch_functions`, `…_timeout_functions`, and the `dbus_server_`
/// equivalents) and when messages are ready to dispatch (`…_dispatch_status_function`). This
/// loop answers them with one epoll set plus an eventfd for wake-ups; the thread only ever
/// sleeps in `epoll_wait`. Watch changes made from other threads reach the sleeping
/// `epoll_wait` through `epoll_ctl` directly.
///
/// A message sent from another thread is written by that thread at once, unless another
/// thread is in the connection's I/O path just then. When the loop thread is, reading,
/// libdbus leaves the message queued without enabling the write watch, and only calls the
/// wake-up function (`dbus_connection_set_wakeup_main_function`): the loop then writes what
/// is queued (``writeQueuedMessages(_:)``), or the message would wait for the next one sent.
///
/// Between dispatches the loop runs work queued with ``enqueue(_:)`` (``LoopWorkQueue``).
/// Nothing that may block belongs on this thread: handlers hand such work elsewhere.
final class MainLoop: @unchecked Sendable {
    // @unchecked Sendable: the descriptors are set once in init; everything mutable is inside
    // `state`, `work` or atomic.

    // @unchecked Sendable (Watch, Timer): the pointers are libdbus's; we only store and
    // compare them, and pass them back to libdbus, which locks.
    private struct Watch: @unchecked Sendable {
        let watch: OpaquePointer
        var flags: UInt32
        var enabled: Bool
    }

    private struct Timer: @unchecked Sendable {
        let timeout: OpaquePointer
        var deadline: UInt64
        var enabled: Bool
    }

    /// A connection this loop dispatches (referenced with `dbus_connection_ref` while here).
    private struct Dispatched: @unchecked Sendable {
        let connection: OpaquePointer
    }

    private struct State {
        var watches: [Int32: [Watch]] = [:]
        var registered: [Int32: UInt32] = [:]
        var timers: [Timer] = []
        var connections: [Dispatched] = []
        var stopping = false
        var thread: pthread_t?
    }

    private let epollFD: Int32
    private let wakeFD: Int32
    private let state = Locked(State())
    let work = LoopWorkQueue()
    /// The loop thread's pthread_self(), 0 before it runs and after it ended: read from any thread.
    private let loopThread = Atomic<UInt>(0)
    /// Set when libdbus asked for a wake-up from another thread: a connection may hold
    /// messages that nobody will write unless the loop does.
    private let writeRequested = Atomic<Bool>(false)

    init() throws(DBusError) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epollFD < 0 {
            throw DBusError.system("epoll_create1", errno: errno)
        }
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        if wakeFD < 0 {
            let code = errno
            close(epollFD)
            throw DBusError.system("eventfd", errno: code)
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        close(epollFD)
        close(wakeFD)
    }

    // MARK: Connections and servers

    /// Drives `connection` from now on: hands libdbus the callbacks of this loop.
    /// Wraps `dbus_connection_set_watch_functions`, `…_timeout_functions`,
    /// `…_dispatch_status_function` and `…_wakeup_main_function`.
    func attach(connection: OpaquePointer) throws(DBusError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let watchesSet = dbus_connection_set_watch_functions(
            connection, Self.addWatchFunction, Self.removeWatchFunction, Self.toggleWatchFunction, context, nil)
        let timeoutsSet = dbus_connection_set_timeout_functions(
            connection, Self.addTimeoutFunction, Self.removeTimeoutFunction, Self.toggleTimeoutFunction, context, nil)
        guard watchesSet != 0, timeoutsSet != 0 else {
            detach(connection: connection)
            throw DBusError.noMemory("attaching a connection to the main loop")
        }
        dbus_connection_set_dispatch_status_function(
            connection,
            { _, status, data in
                guard let data, status == DBUS_DISPATCH_DATA_REMAINS else { return }
                MainLoop.from(data).wake()
            },
            context, nil)
        dbus_connection_set_wakeup_main_function(
            connection,
            { data in
                guard let data else { return }
                MainLoop.from(data).requestWrite()
            },
            context, nil)
        dbus_connection_ref(connection)
        state.withLock { $0.connections.append(Dispatched(connection: connection)) }
        // Messages may have arrived before the callbacks were set.
        wake()
    }

    /// Stops driving `connection`: takes the callbacks back, so libdbus never calls into this
    /// loop for it again. Safe from any thread, and for a connection not attached.
    func detach(connection: OpaquePointer) {
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(connection, nil, nil, nil)
        let removed = state.withLock { state -> Bool in
            guard let index = state.connections.firstIndex(where: { $0.connection == connection }) else { return false }
            state.connections.remove(at: index)
            return true
        }
        if removed { dbus_connection_unref(connection) }
    }

    /// Drives a listening server's sockets. Wraps `dbus_server_set_watch_functions` and
    /// `dbus_server_set_timeout_functions`.
    func attach(server: OpaquePointer) throws(DBusError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let watchesSet = dbus_server_set_watch_functions(
            server, Self.addWatchFunction, Self.removeWatchFunction, Self.toggleWatchFunction, context, nil)
        let timeoutsSet = dbus_server_set_timeout_functions(
            server, Self.addTimeoutFunction, Self.removeTimeoutFunction, Self.toggleTimeoutFunction, context, nil)
        guard watchesSet != 0, timeoutsSet != 0 else {
            detach(server: server)
            throw DBusError.noMemory("attaching a server to the main loop")
        }
    }

    func detach(server: OpaquePointer) {
        dbus_server_set_watch_functions(server, nil, nil, nil, nil, nil)
        dbus_server_set_timeout_functions(server, nil, nil, nil, nil, nil)
    }

    private static func from(_ data: UnsafeMutableRawPointer) -> MainLoop {
        Unmanaged<MainLoop>.fromOpaque(data).takeUnretainedValue()
    }

    private static let addWatchFunction: DBusAddWatchFunction = { watch, data in
        guard let watch, let data else { return 0 }
        MainLoop.from(data).addWatch(watch)
        return 1
    }
    private static let removeWatchFunction: DBusRemoveWatchFunction = { watch, data in
        guard let watch, let data else { return }
        MainLoop.from(data).removeWatch(watch)
    }
    private static let toggleWatchFunction: DBusWatchToggledFunction = { watch, data in
        guard let watch, let data else { return }
        MainLoop.from(data).toggleWatch(watch)
    }
    private static let addTimeoutFunction: DBusAddTimeoutFunction = { timeout, data in
        guard let timeout, let data else { return 0 }
        MainLoop.from(data).addTimeout(timeout)
        return 1
    }
    private static let removeTimeoutFunction: DBusRemoveTimeoutFunction = { timeout, data in
        guard let timeout, let data else { return }
        MainLoop.from(data).removeTimeout(timeout)
    }
    private static let toggleTimeoutFunction: DBusTimeoutToggledFunction = { timeout, data in
        guard let timeout, let data else { return }
        MainLoop.from(data).toggleTimeout(timeout)
    }

    // MARK: Thread

    /// Starts the loop thread. The thread keeps the loop alive until `stop()`.
    func start() throws(DBusError) {
        final class Body {
            let run: () -> Void
            init(_ run: @escaping () -> Void) { self.run = run }
        }
        let box = Unmanaged.passRetained(Body { [self] in
            run()
            releaseUnjoinedThread()
        })
        // Created under the state's lock, so the handle is stored before the thread can look
        // for it (releaseUnjoinedThread, the loop's own reads of the state wait meanwhile).
        let status = state.withLock { state -> Int32 in
            var handle = pthread_t()
            let status = pthread_create(&handle, nil, { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
            if status == 0 { state.thread = handle }
            return status
        }
        if status != 0 {
            box.release()
            throw DBusError.system("pthread_create", errno: status)
        }
    }

    /// Stops the loop and waits for its thread to end. Safe to call twice and from the loop
    /// thread itself (then it does not wait; a later stop() from another thread joins, or the
    /// thread detaches itself as it ends).
    /// Work queued before the stop still runs, on the loop thread, as the loop ends; work
    /// offered after it is refused (``enqueue(_:)`` returns false).
    func stop() {
        let onLoopThread = isLoopThread
        let thread = state.withLock { state -> pthread_t? in
            state.stopping = true
            guard !onLoopThread else { return nil }
            defer { state.thread = nil }
            return state.thread
        }
        work.halt()
        wake()
        if let thread {
            pthread_join(thread, nil)
        }
    }

    /// The loop thread's last act. A loop stopped from its own thread (a handler that closes
    /// its connection, a lost bus) is joined by a later stop() from another thread; when none
    /// has claimed it by now, the thread detaches itself, so no ended thread is left unjoined
    /// (its stack kept until the process exits; ThreadSanitizer reports it as a leak). A
    /// stop() that finds it gone has nothing to wait for: the loop has run its last.
    private func releaseUnjoinedThread() {
        let unclaimed = state.withLock { state -> Bool in
            guard state.thread != nil else { return false }
            state.thread = nil
            return true
        }
        if unclaimed { pthread_detach(pthread_self()) }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    /// True when called on the thread running the loop.
    var isLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == UInt(pthread_self())
    }

    /// Makes `epoll_wait` return, from any other thread. On the loop thread itself there is
    /// nothing to wake: it dispatches and re-reads its timers before it sleeps again.
    func wake() {
        if isLoopThread { return }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Queues `body` to run on the loop thread between dispatches (or as the loop ends, if it
    /// stops first); false, queueing nothing, once stopping.
    @discardableResult
    func enqueue(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard work.enqueue(body) else { return false }
        wake()
        return true
    }

    private func run() {
        let me = UInt(pthread_self())
        loopThread.store(me, ordering: .releasing)
        // A finished thread's id may be given to a new thread: never leave it standing.
        defer { _ = loopThread.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing) }
        let capacity = 32
        var events = [epoll_event](repeating: epoll_event(), count: capacity)
        // Reused on every turn: a fresh array per dispatch round was an allocation per turn.
        var connections: [OpaquePointer] = []
        connections.reserveCapacity(4)
        while true {
            if writeRequested.exchange(false, ordering: .acquiringAndReleasing) { writeQueuedMessages(&connections) }
            dispatchAll(&connections)
            let (stopping, wait) = state.withLock { state in
                (state.stopping, Self.millisecondsUntilNextTimer(state.timers))
            }
            if stopping { break }
            let count = epoll_wait(epollFD, &events, Int32(capacity), work.isEmpty ? wait : 0)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in 0..<Int(count) {
                let event = events[index]
                if event.data.fd == wakeFD {
                    var counter: UInt64 = 0
                    _ = read(wakeFD, &counter, MemoryLayout<UInt64>.size)
                } else {
                    handle(fd: event.data.fd, events: event.events)
                }
            }
            fireExpiredTimers()
        }
        // Whatever ended the loop (a stop, from any thread, or epoll failing), its last act is
        // the work queued before: its callers may be waiting for it. Nothing is queued after.
        work.halt()
        work.runAll()
    }

    /// libdbus's wake-up function, called with the connection's lock held (nothing here may
    /// call into libdbus). libdbus calls it when it queued an incoming message, and when a
    /// message sent could not be written because another thread was in the connection's I/O
    /// path. On the loop thread there is nothing to do: it is the thread that was reading, or
    /// the thread in the I/O path (a sender, or a blocking call) enables the write watch as
    /// it leaves.
    private func requestWrite() {
        if isLoopThread { return }
        writeRequested.store(true, ordering: .releasing)
        wake()
    }

    /// Writes what the connections hold queued, as far as the sockets take it without
    /// blocking; libdbus enables the write watch for the rest. `dbus_connection_read_write`
    /// with no timeout also reads what has arrived, which the next dispatch hands out.
    /// A connection whose I/O path another thread holds is left to that thread.
    private func writeQueuedMessages(_ connections: inout [OpaquePointer]) {
        referenceConnections(into: &connections)
        for connection in connections {
            if dbus_connection_has_messages_to_send(connection) != 0 {
                _ = dbus_connection_read_write(connection, 0)
            }
            dbus_connection_unref(connection)
        }
    }

    /// Replaces `connections` with those attached now, each referenced (`dbus_connection_ref`)
    /// so that a detach meanwhile cannot free it; the caller unreferences each when done with it.
    private func referenceConnections(into connections: inout [OpaquePointer]) {
        // Not `removeAll(keepingCapacity:)`: it goes through the generic `replaceSubrange`.
        while !connections.isEmpty { connections.removeLast() }
        state.withLock { state in
            for dispatched in state.connections {
                dbus_connection_ref(dispatched.connection)
                connections.append(dispatched.connection)
            }
        }
    }

    /// Dispatches every connection until none has a message left, one message per connection
    /// in turn, with queued work run after each round.
    private func dispatchAll(_ connections: inout [OpaquePointer]) {
        while !isStopping {
            referenceConnections(into: &connections)
            var remaining = false
            for connection in connections {
                if dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS { remaining = true }
                dbus_connection_unref(connection)
            }
            work.runAll()
            if !remaining && work.isEmpty { return }
        }
    }

    // MARK: Watches

    private func addWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        let entry = Watch(watch: watch, flags: dbus_watch_get_flags(watch), enabled: dbus_watch_get_enabled(watch) != 0)
        state.withLock { state in
            state.watches[fd, default: []].append(entry)
            updateRegistration(fd: fd, in: &state)
        }
    }

    private func removeWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        state.withLock { state in
            state.watches[fd]?.removeAll { $0.watch == watch }
            if state.watches[fd]?.isEmpty == true {
                state.watches[fd] = nil
            }
            updateRegistration(fd: fd, in: &state)
        }
    }

    private func toggleWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        let enabled = dbus_watch_get_enabled(watch) != 0
        state.withLock { state in
            guard var list = state.watches[fd], let index = list.firstIndex(where: { $0.watch == watch }) else { return }
            list[index].enabled = enabled
            state.watches[fd] = list
            updateRegistration(fd: fd, in: &state)
        }
    }

    /// Keeps the epoll registration of `fd` equal to the union of its enabled watches.
    private func updateRegistration(fd: Int32, in state: inout State) {
        var wanted: UInt32 = 0
        for entry in state.watches[fd] ?? [] where entry.enabled {
            if entry.flags & DBUS_WATCH_READABLE.rawValue != 0 { wanted |= EPOLLIN.rawValue }
            if entry.flags & DBUS_WATCH_WRITABLE.rawValue != 0 { wanted |= EPOLLOUT.rawValue }
        }
        let current = state.registered[fd]
        if current == wanted { return }
        var event = epoll_event()
        event.events = wanted
        event.data.fd = fd
        if wanted == 0 {
            epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &event)
            state.registered[fd] = nil
        } else if current == nil {
            epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
            state.registered[fd] = wanted
        } else {
            epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
            state.registered[fd] = wanted
        }
    }

    private func handle(fd: Int32, events: UInt32) {
        var condition: UInt32 = 0
        if events & EPOLLIN.rawValue != 0 { condition |= DBUS_WATCH_READABLE.rawValue }
        if events & EPOLLOUT.rawValue != 0 { condition |= DBUS_WATCH_WRITABLE.rawValue }
        if events & EPOLLERR.rawValue != 0 { condition |= DBUS_WATCH_ERROR.rawValue }
        if events & EPOLLHUP.rawValue != 0 { condition |= DBUS_WATCH_HANGUP.rawValue }
        // The list as it is now (a reference to it, not a filtered copy: no allocation per event).
        guard let watches = state.withLock({ state in state.watches[fd] }) else { return }
        // Called without our lock: dbus_watch_handle takes the connection's (or server's)
        // lock and may call back into add/remove/toggle.
        let failure = DBUS_WATCH_ERROR.rawValue | DBUS_WATCH_HANGUP.rawValue
        for entry in watches where entry.enabled {
            // A watch removed by an earlier handler in this round is not handled.
            let current = state.withLock { state in state.watches[fd]?.contains { $0.watch == entry.watch } ?? false }
            guard current else { continue }
            let relevant = condition & (entry.flags | failure)
            if relevant != 0 {
                dbus_watch_handle(entry.watch, relevant)
            }
        }
    }

    // MARK: Timeouts

    private func addTimeout(_ timeout: OpaquePointer) {
        let timer = Timer(timeout: timeout, deadline: Self.deadline(for: timeout),
                          enabled: dbus_timeout_get_enabled(timeout) != 0)
        state.withLock { $0.timers.append(timer) }
        wake()
    }

    private func removeTimeout(_ timeout: OpaquePointer) {
        state.withLock { $0.timers.removeAll { $0.timeout == timeout } }
    }

    private func toggleTimeout(_ timeout: OpaquePointer) {
        let enabled = dbus_timeout_get_enabled(timeout) != 0
        let deadline = Self.deadline(for: timeout)
        state.withLock { state in
            guard let index = state.timers.firstIndex(where: { $0.timeout == timeout }) else { return }
            state.timers[index].enabled = enabled
            state.timers[index].deadline = deadline
        }
        wake()
    }

    private func fireExpiredTimers() {
        let now = Self.now()
        let expired = state.withLock { state in
            var due: [OpaquePointer] = []
            for index in state.timers.indices where state.timers[index].enabled && state.timers[index].deadline <= now {
                due.append(state.timers[index].timeout)
                state.timers[index].deadline = Self.deadline(for: state.timers[index].timeout)
            }
            return due
        }
        for timeout in expired {
            // The handler may remove the timeout (a pending call completing), so check it is
            // still ours before each call.
            let stillThere = state.withLock { $0.timers.contains { $0.timeout == timeout && $0.enabled } }
            if stillThere {
                dbus_timeout_handle(timeout)
            }
        }
    }

    private static func millisecondsUntilNextTimer(_ timers: [Timer]) -> Int32 {
        var next = UInt64.max
        for timer in timers where timer.enabled && timer.deadline < next {
            next = timer.deadline
        }
        if next == .max { return -1 }
        let now = now()
        if next <= now { return 0 }
        return Int32(clamping: (next - now + 999_999) / 1_000_000)
    }

    private static func deadline(for timeout: OpaquePointer) -> UInt64 {
        now() + UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1_000_000
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
