import DBus
import Dispatch
import Foundation
import Glibc
import Locking
import QuickActionsAPI
import QuickActionsHost
import QuickActionsHostProtocol
import QuickActionsBundles
import QuickActionsModel

/// One app's plugin in a `quickactions-host` process of its own (dbus/org.quickactions.Host1.xml).
///
/// The first Perform starts the host; Performs wait until it says Loaded, and the first is
/// its launch. Every Perform goes out on the host's peer connection from the bus loop thread
/// and its answer comes back on the same thread. A host that dies fails exactly this app's
/// pending Performs with PluginCrashed naming the signal or status and the library, counts
/// towards quarantine unless it was asked to stop, and the next Perform starts a new one. A
/// host without calls for the idle time gets WillResign, then Stop.
final class HostProcessExecutor: PluginExecutor {
    private unowned let broker: Broker
    private let launcher: HostLauncher
    private let bundle: PluginBundle
    private let slot: PluginSlot
    private let idleSeconds: Int
    /// Each request's Perform call, encoded once.
    private let calls = HostPerformCalls()

    private struct Waiting {
        let request: PerformRequest
        let timeoutMilliseconds: UInt32
        let completion: @Sendable (ExecutionResult) -> Void
    }

    private enum Phase {
        case idle
        /// Started, not yet Loaded; its connection once it connected.
        case starting(pid: pid_t, connection: Connection?)
        case running(pid: pid_t, connection: Connection)
        /// Ending: asked to stop (idle, broker stopping, load failed), or its connection closed.
        /// It takes no more calls.
        case stopping(pid: pid_t, connection: Connection?)
    }

    private struct State {
        var phase: Phase = .idle
        /// Performs that wait for this host to be Loaded (the first is its launch).
        var waiting: [Waiting] = []
        /// Performs that arrived while a host was ending: the next host's.
        var deferred: [Waiting] = []
        /// The host ending now was asked to (its end is no crash).
        var stopRequested = false
        /// How the last host ended, for calls whose failure arrives after that.
        var lastEnd: (generation: Int, pid: pid_t, exit: HostExit)?
        /// Whether the next Perform sent is the host's first (its launch).
        var launchNext = true
        /// Performs sent to the host and not answered.
        var inFlight = 0
        /// Completions whose host went away before answering; failed when its end is known.
        var orphaned: [@Sendable (ExecutionResult) -> Void] = []
        /// Bumped with every host started, so a late event of an old host changes nothing.
        var generation = 0
        /// Bumped to cancel a scheduled idle stop.
        var idleToken = 0
        /// When the host last became idle, and the token it had then.
        var idleSince: (token: Int, at: DispatchTime)?
        /// Whether an idle check is scheduled (one at a time, however many calls end).
        var idleTimerArmed = false
        /// Called once the host has ended, for stop(bound:done:).
        var onEnd: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    init(broker: Broker, launcher: HostLauncher, bundle: PluginBundle, slot: PluginSlot, idleSeconds: Int) {
        self.broker = broker
        self.launcher = launcher
        self.bundle = bundle
        self.slot = slot
        self.idleSeconds = idleSeconds
    }

    private var appID: String { bundle.appID.rawValue }

    var isLoaded: Bool {
        state.withLock { state in
            if case .running = state.phase { return true }
            return false
        }
    }

    var hostProcessID: Int32 {
        state.withLock { state in
            switch state.phase {
            case .idle: 0
            case .starting(let pid, _), .running(let pid, _), .stopping(let pid, _): pid
            }
        }
    }

    // MARK: Performing

    func perform(
        _ request: PerformRequest, timeoutMilliseconds: UInt32,
        completion: @escaping @Sendable (ExecutionResult) -> Void
    ) -> PerformTicket? {
        enum Next { case send(Connection, launch: Bool, generation: Int), start, wait }
        let next = state.withLock { state -> Next in
            state.idleToken += 1
            switch state.phase {
            case .running(_, let connection):
                state.inFlight += 1
                let launch = state.launchNext
                state.launchNext = false
                return .send(connection, launch: launch, generation: state.generation)
            case .idle:
                state.waiting.append(Waiting(request: request, timeoutMilliseconds: timeoutMilliseconds, completion: completion))
                return .start
            case .starting:
                state.waiting.append(Waiting(request: request, timeoutMilliseconds: timeoutMilliseconds, completion: completion))
                return .wait
            case .stopping:
                state.deferred.append(Waiting(request: request, timeoutMilliseconds: timeoutMilliseconds, completion: completion))
                return .wait
            }
        }
        switch next {
        case .send(let connection, let launch, let generation):
            send(request, on: connection, launch: launch, generation: generation, timeout: timeoutMilliseconds,
                 completion: completion)
        case .start:
            start()
        case .wait:
            break
        }
        return nil
    }

    /// Sends one Perform to the host; its answer arrives on the loop thread. The item is left
    /// out when this host said it keeps the request (protocol 1.1), unless `inFull`; a host
    /// that no longer keeps it is sent the call again in full.
    private func send(
        _ request: PerformRequest, on connection: Connection, launch: Bool, generation: Int, timeout: UInt32,
        inFull: Bool = false, completion: @escaping @Sendable (ExecutionResult) -> Void
    ) {
        let call: HostPerformCalls.Call
        do {
            call = try calls.call(for: request, launch: launch, host: generation, inFull: inFull)
        } catch {
            finishCall(generation: generation)
            completion(.failed(error))
            return
        }
        // The broker's own deadline answers the caller; the host's answer is awaited a
        // little longer, and dropped when it comes too late.
        connection.call(call.message, timeout: .milliseconds(Int64(timeout)) + .seconds(5)) { [self] result in
            switch result {
            case .success(let reply):
                let (answer, kept) = Self.result(of: reply, launched: launch, appID: appID)
                if let kept, kept == call.key { calls.kept(kept, by: generation) }
                finishCall(generation: generation)
                completion(answer)
            case .failure(let error) where call.itemLeftOut && error.name == HostAPI.unknownRequestKeyError:
                if let key = call.key { calls.forget(key) }
                send(request, on: connection, launch: launch, generation: generation, timeout: timeout, inFull: true,
                     completion: completion)
            case .failure(let error):
                failedCall(error, generation: generation, completion: completion)
            }
        }
    }

    /// The host's answer, read straight from the message: only its `message` entry (and the
    /// request key it now keeps, protocol 1.1) is decoded (no `[Value]` of the whole body, no
    /// dictionary of the result).
    /// The entries of the host's result the broker reads, in this order.
    private static let resultKeys = [BrokerAPI.ResultKey.message, HostAPI.ResultKey.keptRequestKey]

    static func result(of reply: Message, launched: Bool, appID: String) -> (ExecutionResult, kept: UInt64?) {
        var reader = MessageReader(reply)
        do {
            let success = try reader.read(Bool.self)
            let entries = try reader.entries(named: Self.resultKeys)
            if reader.isAtEnd {
                return (.completed(PerformOutcome(success: success, message: entries[0]?.string), launched: launched),
                        entries[1]?.uint64)
            }
        } catch {}
        return (.failed(DBusError(.pluginFailed,
            "\(appID)'s plugin host answered Perform with (\(reply.signature.prefix(40))), not (ba{sv})")), nil)
    }

    private func finishCall(generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.inFlight = max(0, state.inFlight - 1)
            if state.inFlight == 0, state.waiting.isEmpty, case .running = state.phase { scheduleIdleStop(&state) }
        }
    }

    /// A Perform the host did not answer: its connection went away (the host is ending; the
    /// answer waits until how it ended is known) or the call itself failed.
    private func failedCall(_ error: DBusError, generation: Int, completion: @escaping @Sendable (ExecutionResult) -> Void) {
        let lost = error.name == .disconnected || error.name == .noReply
        let (failNow, end) = state.withLock { state -> (Bool, (generation: Int, pid: pid_t, exit: HostExit)?) in
            let end = state.lastEnd.flatMap { $0.generation == generation ? $0 : nil }
            guard lost, state.generation == generation else { return (true, end) }
            state.inFlight = max(0, state.inFlight - 1)
            switch state.phase {
            case .idle: return (true, end)
            default:
                state.orphaned.append(completion)
                return (false, nil)
            }
        }
        guard failNow else { return }
        if !lost { finishCall(generation: generation) }
        if lost, let end {
            completion(.failed(crashedError(pid: end.pid, exit: end.exit)))
            return
        }
        completion(.failed(lost
            ? DBusError(BrokerAPI.ErrorNames.pluginCrashed, "\(appID)'s plugin host (\(bundle.executableURL.path)) ended before answering")
            : DBusError(.pluginFailed, "\(appID)'s plugin host could not take the call: \(error.message)")))
    }

    private func crashedError(pid: pid_t, exit: HostExit) -> DBusError {
        DBusError(BrokerAPI.ErrorNames.pluginCrashed,
            "\(appID)'s plugin host (pid \(pid), running \(bundle.executableURL.path)) \(exit) before answering")
    }

    // MARK: Starting

    private func start() {
        if let refusal = broker.quarantineRefusal(appID: appID, bundle: bundle) {
            failWaiting(with: refusal)
            return
        }
        do {
            // The phase moves to starting inside the launcher's registration, before the host
            // can connect: set after start returned, a host quick to connect was refused as
            // unknown, and its end counted as a crash.
            let pid = try launcher.start(
                self, appID: appID, bundle: bundle.url, library: bundle.executableURL,
                dataDirectory: broker.dataDirectory(of: appID),
                registered: { [state] pid in
                    state.withLock { state in
                        state.generation += 1
                        state.launchNext = true
                        state.stopRequested = false
                        state.phase = .starting(pid: pid, connection: nil)
                    }
                },
                log: { [weak broker] line in broker?.log(.info, line) })
            broker.log(.debug, "started the plugin host of \(appID) (pid \(pid))")
        } catch {
            broker.log(.error, "cannot start the plugin host of \(appID): \(error)")
            failWaiting(with: DBusError(.pluginFailed, "\(appID) could not be loaded: \(error)"))
        }
    }

    private func failWaiting(with error: DBusError) {
        let waiting = state.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for entry in waiting { entry.completion(.failed(error)) }
    }

    /// Whether a connection from `pid` is the one this host's start awaits.
    func awaitsConnection(from pid: pid_t) -> Bool {
        state.withLock { state in
            if case .starting(pid, nil) = state.phase { return true }
            return false
        }
    }

    /// The host connected (admitted by its process id): serve it the broker's side.
    func attach(_ connection: Connection, processID pid: pid_t) {
        let generation = state.withLock { state -> Int? in
            guard case .starting(pid, nil) = state.phase else { return nil }
            state.phase = .starting(pid: pid, connection: connection)
            return state.generation
        }
        guard let generation else {
            connection.close()
            return
        }
        connection.onDisconnect { [weak self] _ in self?.disconnected(generation: generation) }
        do {
            try connection.export([brokerInterface(generation: generation, pid: pid)], at: HostAPI.brokerPath)
        } catch {
            broker.log(.error, "\(appID): cannot serve its plugin host: \(error)")
            connection.close()
        }
    }

    private func brokerInterface(generation: Int, pid: pid_t) -> Interface {
        Interface(HostAPI.brokerInterface, methods: [
            Method(HostAPI.BrokerMember.loaded,
                   inputs: [Argument("name", .string), Argument("abi_major", .uint32), Argument("abi_minor", .uint32)]) { [weak self] call in
                self?.loaded(generation: generation, pid: pid, name: call.arguments[0].string ?? "",
                             abi: "\(Self.number(call.arguments[1])).\(Self.number(call.arguments[2]))")
                return []
            },
            Method(HostAPI.BrokerMember.loadFailed, inputs: [Argument("reason", .string)]) { [weak self] call in
                self?.loadFailed(generation: generation, reason: call.arguments[0].string ?? "")
                return []
            },
            Method(HostAPI.BrokerMember.setDynamicItems, inputs: [Argument("items", .array(HostItemCodec.itemType))],
                   handler: .deferred { [weak self] call, reply in
                guard let self else { return }
                let items = try HostItemCodec.decodeList(call.arguments[0])
                // Storing writes and syncs a file: never on the bus loop.
                slot.updateQueue.async { [self] in
                    do {
                        try broker.setDynamicItems(items, for: appID, slot: slot)
                        reply.send([])
                    } catch {
                        reply.fail(DBusError(.invalidArgs, "\(error)"))
                    }
                }
            }),
            Method(HostAPI.BrokerMember.getDynamicItems, outputs: [Argument("items", .array(HostItemCodec.itemType))]) { [weak self] _ in
                guard let self else { return [HostItemCodec.encode([])] }
                return [HostItemCodec.encode(broker.publishedItems(of: appID))]
            },
            Method(HostAPI.BrokerMember.log,
                   inputs: [Argument("level", .uint32), Argument("loader", .boolean), Argument("message", .string)]) { [weak self] call in
                guard let self else { return [] }
                let level: Log.Level = switch Self.number(call.arguments[0]) {
                case 0: .debug
                case 2: .warning
                case 3: .error
                default: .info
                }
                let origin = call.arguments[1].bool == true ? " (loader)" : ""
                broker.log(level, "\(appID)\(origin): \(call.arguments[2].string ?? "")")
                return []
            },
        ])
    }

    private static func number(_ value: Value) -> UInt32 {
        if case .uint32(let number) = value { return number }
        return 0
    }

    private func loaded(generation: Int, pid: pid_t, name: String, abi: String) {
        let ready = state.withLock { state -> (Connection, [Waiting], Int)? in
            guard state.generation == generation, case .starting(pid, let connection?) = state.phase else { return nil }
            state.phase = .running(pid: pid, connection: connection)
            let waiting = state.waiting
            state.waiting.removeAll()
            state.inFlight += waiting.count
            if !waiting.isEmpty { state.launchNext = false }
            return (connection, waiting, generation)
        }
        guard let (connection, waiting, generation) = ready else { return }
        broker.log(.info, "loaded \(appID) from \(bundle.executableURL.path) (\(name.isEmpty ? "unnamed" : name), "
            + "ABI \(abi)) in its plugin host, pid \(pid)")
        broker.recordLoad(of: appID, error: nil)
        broker.loadedChanged(appID)
        for (index, entry) in waiting.enumerated() {
            send(entry.request, on: connection, launch: index == 0, generation: generation,
                 timeout: entry.timeoutMilliseconds, completion: entry.completion)
        }
        if waiting.isEmpty {
            state.withLock { scheduleIdleStop(&$0) }
        }
    }

    private func loadFailed(generation: Int, reason: String) {
        let matched = state.withLock { state -> Bool in
            guard state.generation == generation, case .starting(let pid, let connection) = state.phase else { return false }
            state.phase = .stopping(pid: pid, connection: connection)
            state.stopRequested = true
            return true
        }
        guard matched else { return }
        broker.log(.error, "cannot load \(appID): \(reason)")
        broker.recordLoad(of: appID, error: reason)
        failWaiting(with: DBusError(.pluginFailed, "\(appID) could not be loaded: \(reason)"))
    }

    // MARK: Ending

    private func disconnected(generation: Int) {
        // The host closed its connection: it is ending (exited() follows with how), or it is
        // broken; either way it gets no more calls, and it gets a few seconds to end.
        let pid = state.withLock { state -> pid_t? in
            guard state.generation == generation else { return nil }
            switch state.phase {
            case .starting(let pid, let connection), .stopping(let pid, let connection):
                state.phase = .stopping(pid: pid, connection: connection)
                return pid
            case .running(let pid, let connection):
                state.phase = .stopping(pid: pid, connection: connection)
                return pid
            case .idle:
                return nil
            }
        }
        if let pid { killLater(pid, generation: generation, after: .seconds(3)) }
    }

    /// The host process ended (from its waitpid thread).
    func exited(pid: pid_t, _ exit: HostExit) {
        let outcome = state.withLock { state -> (expected: Bool, failed: [@Sendable (ExecutionResult) -> Void], connection: Connection?, onEnd: [@Sendable () -> Void], restart: Bool)? in
            let connection: Connection?
            switch state.phase {
            case .starting(pid, let open), .running(pid, let open as Connection?), .stopping(pid, let open):
                connection = open
            default:
                return nil
            }
            let expected = state.stopRequested
            state.lastEnd = (state.generation, pid, exit)
            state.phase = .idle
            state.inFlight = 0
            state.idleToken += 1
            // Calls it did not answer, and those that waited for it to be Loaded (it died
            // launching), fail with it.
            let failed = state.orphaned + state.waiting.map(\.completion)
            state.orphaned.removeAll()
            state.waiting.removeAll()
            let onEnd = state.onEnd
            state.onEnd.removeAll()
            // Performs that arrived while it was ending start the next host, unless the broker stops.
            let restart = !state.deferred.isEmpty && onEnd.isEmpty
            var refused: [@Sendable (ExecutionResult) -> Void] = []
            if restart {
                state.waiting = state.deferred
            } else {
                refused = state.deferred.map(\.completion)
            }
            state.deferred.removeAll()
            return (expected, failed, connection, onEnd + refused.map { completion in
                { completion(.failed(DBusError(.pluginFailed, "the broker is stopping"))) }
            }, restart)
        }
        guard let outcome else { return }
        outcome.connection?.close()
        if !outcome.expected || exit.isCrash {
            broker.hostDied(appID: appID, bundle: bundle, pid: pid, exit: exit, counted: !outcome.expected)
        } else {
            broker.log(.debug, "the plugin host of \(appID) (pid \(pid)) \(exit)")
        }
        let crashed = crashedError(pid: pid, exit: exit)
        for completion in outcome.failed { completion(.failed(crashed)) }
        broker.loadedChanged(appID)
        for done in outcome.onEnd { done() }
        if outcome.restart { start() }
    }

    /// Will-resign, then Stop; the host's end runs `done`. Killed after `bound` otherwise.
    func stop(bound: Duration, done: @escaping @Sendable () -> Void) {
        let target = state.withLock { state -> (pid_t, Connection?, Int)? in
            state.idleToken += 1
            switch state.phase {
            case .idle:
                return nil
            case .starting(let pid, let connection), .stopping(let pid, let connection):
                state.phase = .stopping(pid: pid, connection: connection)
                state.stopRequested = true
                state.onEnd.append(done)
                return (pid, connection, state.generation)
            case .running(let pid, let connection):
                state.phase = .stopping(pid: pid, connection: connection)
                state.stopRequested = true
                state.onEnd.append(done)
                return (pid, connection, state.generation)
            }
        }
        guard let (pid, connection, generation) = target else {
            done()
            return
        }
        killLater(pid, generation: generation, after: bound)
        guard let connection else { return }
        resignAndStop(connection, bound: bound)
    }

    private func resignAndStop(_ connection: Connection, bound: Duration) {
        guard let resign = Self.hostCall(HostAPI.HostMember.willResign) else { return }
        connection.call(resign, timeout: bound) { _ in
            guard let stop = Self.hostCall(HostAPI.HostMember.stop) else { return }
            connection.call(stop, timeout: .seconds(2)) { _ in }
        }
    }

    private static func hostCall(_ member: MemberName) -> Message? {
        try? Message.methodCall(destination: nil, path: HostAPI.hostPath, interface: HostAPI.hostInterface, member: member)
    }

    /// SIGKILL for a host of `generation` still there after `delay`.
    private func killLater(_ pid: pid_t, generation: Int, after delay: Duration) {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            let alive = state.withLock { state -> Bool in
                guard state.generation == generation else { return false }
                switch state.phase {
                case .starting(pid, _), .running(pid, _), .stopping(pid, _): return true
                default: return false
                }
            }
            if alive {
                broker.log(.warning, "the plugin host of \(appID) (pid \(pid)) did not end within \(delay); killing it")
                kill(pid, SIGKILL)
            }
        }
    }

    /// After `idleSeconds` without calls, the host gets will-resign and ends (0: never).
    /// Stops the host once it had no calls for the idle time. A host that goes idle after
    /// every call (sequential callers) must not cost a timer per call: one check is scheduled
    /// at a time, and when it finds the host busy again since, it is scheduled anew for the
    /// idle time after the host last became idle.
    private func scheduleIdleStop(_ state: inout State) {
        guard idleSeconds > 0 else { return }
        state.idleToken += 1
        let now = DispatchTime.now()
        state.idleSince = (state.idleToken, now)
        guard !state.idleTimerArmed else { return }
        state.idleTimerArmed = true
        checkIdle(at: now + .seconds(idleSeconds))
    }

    private func checkIdle(at deadline: DispatchTime) {
        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
            guard let self else { return }
            enum Check { case stop, wait(DispatchTime), busy }
            let check = self.state.withLock { state -> Check in
                guard let since = state.idleSince, state.idleToken == since.token, state.inFlight == 0,
                      state.waiting.isEmpty, case .running = state.phase else {
                    state.idleTimerArmed = false
                    return .busy
                }
                let due = since.at + .seconds(self.idleSeconds)
                if due > DispatchTime.now() { return .wait(due) }
                state.idleTimerArmed = false
                return .stop
            }
            switch check {
            case .busy: return
            case .wait(let due): self.checkIdle(at: due)
            case .stop:
                broker.log(.info, "\(appID) had no calls for \(idleSeconds) s; stopping its plugin host")
                stop(bound: .seconds(5)) {}
            }
        }
    }
}
