import Locking
import CDBus
import Glibc
import Dispatch
import Synchronization

/// Drives one libdbus connection on a thread of its own.
///
/// libdbus does no I/O by itself; it tells its owner which file descriptors
/// and timers it needs (`dbus_connection_set_watch_functions`,
/// `dbus_connection_set_timeout_functions`) and when messages are ready to
/// dispatch or when another thread queued output
/// (`dbus_connection_set_dispatch_status_function`,
/// `dbus_connection_set_wakeup_main_function`). This loop answers all four
/// with one epoll set plus an eventfd for wake-ups, so a reply sent from any
/// thread leaves at once and the loop thread only ever sleeps in `epoll_wait`.
///
/// The watch and timeout callbacks may run on any thread that holds the
/// connection's lock, so the bookkeeping they touch sits behind `state`.
///
/// Handlers may also queue work to run on the loop thread right after the
/// message being dispatched (``runAfterCurrentMessage(_:)``), outside
/// libdbus's dispatch. Such work may block: a watchdog thread notices work
/// that has run for ``handOverAfter`` and hands the loop to a new thread,
/// so the connection keeps serving while the old thread finishes that work
/// and then ends. The loop thread is therefore not always the same thread;
/// `isLoopThread` is true only on the one running the loop now.
final class EventLoop: @unchecked Sendable {
    // @unchecked Sendable: `connection` and the descriptors are set once in
    // init and never change; everything else mutable is inside `state`,
    // `crew` or atomic.

    // @unchecked Sendable (Watch, Timer): the pointers are libdbus's; we only
    // store and compare them, and pass them back to libdbus, which locks.
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

    private struct State {
        var watches: [Int32: [Watch]] = [:]
        var registered: [Int32: UInt32] = [:]
        var timers: [Timer] = []
        var stopping = false
    }

    /// Which thread runs the loop, and the work queued between messages.
    private struct Crew {
        /// Bumped at every hand-over: a thread runs the loop while this
        /// equals the generation it was started with.
        var generation: UInt64 = 0
        /// The thread running the loop now, for joining; nil once stop() took it.
        var thread: pthread_t?
        /// Set by stop(): no more work is started and no thread is handed the loop.
        var halted = false
        /// Work queued by handlers, run in order between messages.
        var work: [@Sendable () -> Void] = []
        /// When the work running now started (CLOCK_MONOTONIC ns); 0 when none runs.
        var workStarted: UInt64 = 0
        /// When work last started: the watchdog sleeps once this is long past.
        var lastWorkStarted: UInt64 = 0
        /// The watchdog thread, started with the first work.
        var watchdog: pthread_t?
        /// True while the watchdog sleeps without a deadline.
        var watchdogParked = false
    }

    /// How long work queued by ``runAfterCurrentMessage(_:)`` may run before
    /// a new thread takes over the loop.
    static let handOverAfter: UInt64 = 20_000_000
    /// How often the watchdog looks while work is being run.
    private static let watchdogPeriod: UInt64 = 10_000_000
    /// How long after the last work the watchdog stops looking until the next.
    private static let watchdogIdleAfter: UInt64 = 1_000_000_000

    private let connection: OpaquePointer
    private let epollFD: Int32
    private let wakeFD: Int32
    private let state = Locked(State())
    private let crew = Locked(Crew())
    private let watchdogWake = DispatchSemaphore(value: 0)
    /// The loop thread's pthread_self(), 0 before it runs and during a
    /// hand-over: read from any thread.
    private let loopThread = Atomic<UInt>(0)

    init(connection: OpaquePointer) throws(DBusError) {
        self.connection = connection
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

    // MARK: Installing on the connection

    /// Hands libdbus the callbacks that drive this loop.
    /// Wraps `dbus_connection_set_watch_functions`, `…_timeout_functions`,
    /// `…_wakeup_main_function` and `…_dispatch_status_function`.
    func install() throws(DBusError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let watchesSet = dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let data else { return 0 }
                EventLoop.from(data).addWatch(watch)
                return 1
            },
            { watch, data in
                guard let watch, let data else { return }
                EventLoop.from(data).removeWatch(watch)
            },
            { watch, data in
                guard let watch, let data else { return }
                EventLoop.from(data).toggleWatch(watch)
            },
            context, nil)
        let timeoutsSet = dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                EventLoop.from(data).addTimeout(timeout)
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                EventLoop.from(data).removeTimeout(timeout)
            },
            { timeout, data in
                guard let timeout, let data else { return }
                EventLoop.from(data).toggleTimeout(timeout)
            },
            context, nil)
        guard watchesSet != 0, timeoutsSet != 0 else {
            throw DBusError.noMemory("installing the event loop")
        }
        dbus_connection_set_wakeup_main_function(
            connection,
            { data in
                guard let data else { return }
                EventLoop.from(data).wake()
            },
            context, nil)
        dbus_connection_set_dispatch_status_function(
            connection,
            { _, status, data in
                guard let data, status == DBUS_DISPATCH_DATA_REMAINS else { return }
                EventLoop.from(data).wake()
            },
            context, nil)
    }

    /// Takes the callbacks back, so libdbus never calls into a freed loop.
    func uninstall() {
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(connection, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
    }

    private static func from(_ data: UnsafeMutableRawPointer) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue()
    }

    // MARK: Thread

    /// Starts the loop thread.
    func start() throws(DBusError) {
        try crew.withLock { crew throws(DBusError) in
            crew.thread = try spawnLoopThread(generation: crew.generation)
        }
    }

    /// A new thread running the loop for `generation`; called under `crew`.
    private func spawnLoopThread(generation: UInt64) throws(DBusError) -> pthread_t {
        try Self.spawnThread { [self] in run(generation: generation) }
    }

    /// Starts a joinable thread running `body`, which keeps what it captures
    /// alive until it returns.
    private static func spawnThread(_ body: @escaping @Sendable () -> Void) throws(DBusError) -> pthread_t {
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let box = Unmanaged.passRetained(Body(body))
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        if status != 0 {
            box.release()
            throw DBusError.system("pthread_create", errno: status)
        }
        return handle
    }

    /// Stops the loop and waits for its thread to end. Safe to call twice and
    /// from the loop thread itself (then it does not wait). Work queued and
    /// not yet started is dropped; a loop thread that is running work is
    /// not waited for (work may block): it ends when the work returns.
    func stop() {
        state.withLock { $0.stopping = true }
        wake()
        let onLoopThread = isLoopThread
        let (thread, running, watchdog) = crew.withLock { crew -> (pthread_t?, Bool, pthread_t?) in
            crew.halted = true
            crew.work.removeAll()
            let watchdog = crew.watchdog
            crew.watchdog = nil
            // The loop thread cannot join itself: its thread stays for a
            // later stop() from another thread (Connection.close).
            guard !onLoopThread else { return (nil, false, watchdog) }
            let thread = crew.thread
            crew.thread = nil
            return (thread, crew.workStarted != 0, watchdog)
        }
        watchdogWake.signal()
        if let watchdog {
            pthread_join(watchdog, nil)
        }
        guard let thread else { return }
        if running {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    /// True when called on the thread running the loop now.
    var isLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == UInt(pthread_self())
    }

    /// Makes `epoll_wait` return, from any other thread. On the loop thread
    /// itself there is nothing to wake: it dispatches and re-reads its timers
    /// before it sleeps again (and libdbus calls this from there on every
    /// reply, which would cost two system calls each).
    func wake() {
        if isLoopThread { return }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    private func run(generation: UInt64) {
        let me = UInt(pthread_self())
        loopThread.store(me, ordering: .releasing)
        // A finished thread's id may be given to a new thread: never leave
        // it standing for the loop thread.
        defer { _ = loopThread.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing) }
        let capacity = 32
        var events = [epoll_event](repeating: epoll_event(), count: capacity)
        while true {
            while !isStopping {
                let status = dbus_connection_dispatch(connection)
                // false: the loop was handed to another thread while this
                // one ran work; this thread's part is over.
                guard runQueuedWork(generation: generation) else { return }
                if status != DBUS_DISPATCH_DATA_REMAINS { break }
            }
            let (stopping, wait) = state.withLock { state in
                (state.stopping, Self.millisecondsUntilNextTimer(state.timers))
            }
            if stopping { break }
            let count = epoll_wait(epollFD, &events, Int32(capacity), wait)
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
    }

    // MARK: Work between messages

    /// Queues `work` to run on the loop thread once the message being
    /// dispatched has been handled. Returns false, queueing nothing, when
    /// not called on the loop thread or once the loop is stopping.
    func runAfterCurrentMessage(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard isLoopThread else { return false }
        return crew.withLock { crew in
            guard !crew.halted else { return false }
            crew.work.append(work)
            return true
        }
    }

    /// Runs the queued work, one piece at a time. Returns false when the
    /// loop was handed over while this thread ran a piece.
    private func runQueuedWork(generation: UInt64) -> Bool {
        while true {
            let next = crew.withLock { crew -> (work: @Sendable () -> Void, wakeWatchdog: Bool)? in
                guard !crew.halted, !crew.work.isEmpty else { return nil }
                let now = Self.now()
                crew.workStarted = now
                crew.lastWorkStarted = now
                let work = crew.work.removeFirst()
                if crew.watchdog == nil, let thread = try? Self.spawnThread({ [self] in watch() }) {
                    crew.watchdog = thread
                    return (work, false)
                }
                let parked = crew.watchdogParked
                crew.watchdogParked = false
                return (work, parked)
            }
            guard let next else { return true }
            if next.wakeWatchdog {
                watchdogWake.signal()
            }
            next.work()
            let stillOurs = crew.withLock { crew in
                guard crew.generation == generation else { return false }
                crew.workStarted = 0
                return true
            }
            guard stillOurs else { return false }
        }
    }

    /// The watchdog: while work runs, looks every `watchdogPeriod` whether
    /// the piece running now has run for `handOverAfter`, and if so gives the
    /// loop to a new thread. Sleeps without a deadline once no work started
    /// for `watchdogIdleAfter`, until the next work wakes it.
    private func watch() {
        var parked = false
        while true {
            if parked {
                watchdogWake.wait()
            } else {
                _ = watchdogWake.wait(timeout: .now() + .nanoseconds(Int(Self.watchdogPeriod)))
            }
            let outcome = crew.withLock { crew -> (halted: Bool, parked: Bool, previous: pthread_t?) in
                if crew.halted { return (true, false, nil) }
                let now = Self.now()
                var previous: pthread_t?
                if crew.workStarted != 0, now >= crew.workStarted + Self.handOverAfter {
                    previous = handOver(&crew)
                }
                let idle = crew.workStarted == 0 && now >= crew.lastWorkStarted + Self.watchdogIdleAfter
                crew.watchdogParked = idle
                return (false, idle, previous)
            }
            if outcome.halted { return }
            parked = outcome.parked
            if let previous = outcome.previous {
                pthread_detach(previous)
            }
        }
    }

    /// Starts a new loop thread while the current one is stuck in work.
    /// Returns the old thread, to detach; nil if no thread could be started
    /// (the watchdog tries again next time). Called under `crew`.
    private func handOver(_ crew: inout Crew) -> pthread_t? {
        // Until the new thread stores itself, no thread is the loop thread,
        // so a reply sent from the old one wakes the loop as it should.
        let stuck = loopThread.exchange(0, ordering: .acquiringAndReleasing)
        guard let thread = try? spawnLoopThread(generation: crew.generation + 1) else {
            loopThread.store(stuck, ordering: .releasing)
            return nil
        }
        crew.generation += 1
        crew.workStarted = 0
        let previous = crew.thread
        crew.thread = thread
        return previous
    }

    // MARK: Watches

    private func addWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        let entry = Watch(watch: watch, flags: dbus_watch_get_flags(watch),
                          enabled: dbus_watch_get_enabled(watch) != 0)
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
            guard var list = state.watches[fd],
                  let index = list.firstIndex(where: { $0.watch == watch }) else { return }
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
        let ready = state.withLock { state in
            (state.watches[fd] ?? []).filter { $0.enabled }
        }
        // Called without our lock: dbus_watch_handle takes the connection's
        // lock and may call back into add/remove/toggle.
        let failure = DBUS_WATCH_ERROR.rawValue | DBUS_WATCH_HANGUP.rawValue
        for entry in ready {
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
            // The handler may remove the timeout (a pending call completing),
            // so check it is still ours before each call.
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
