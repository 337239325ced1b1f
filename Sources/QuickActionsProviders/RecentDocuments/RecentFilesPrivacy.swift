import DBus
import Locking

/// Whether the desktop wants recent files remembered: GNOME's `org.gnome.desktop.privacy`
/// `remember-recent-files`, read through the settings portal (`org.freedesktop.portal.Settings`
/// `ReadOne`, else the older `Read`) and followed through its `SettingChanged` signal and the
/// portal's name changing owner. Where no portal answers, or it has no such key, recent files
/// are remembered.
final class RecentFilesPrivacy: Sendable {
    static let portal = "org.freedesktop.portal.Desktop"
    static let portalName: BusName = "org.freedesktop.portal.Desktop"
    static let path: ObjectPath = "/org/freedesktop/portal/desktop"
    static let interface: InterfaceName = "org.freedesktop.portal.Settings"
    static let namespace = "org.gnome.desktop.privacy"
    static let key = "remember-recent-files"

    private let connection: Connection
    private let timeout: Duration
    private let log: @Sendable (String) -> Void
    private let state = Locked<State>(State())

    private struct State {
        var subscriptions: [SignalSubscription] = []
        var task: Task<Void, Never>?
        var stopped = false
        /// Bumped by each read, so a slow reply never overrides a later signal.
        var generation = 0
    }

    init(connection: Connection, timeout: Duration, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.timeout = timeout
        self.log = log
    }

    /// Subscribes, then reads: `changed` gets the first answer (true when none comes), then
    /// every change. It runs on the connection's loop thread or a task's.
    func start(_ changed: @escaping @Sendable (Bool) -> Void) {
        let task = Task { [self] in
            var subscriptions: [SignalSubscription] = []
            do {
                let rule = MatchRule(
                    sender: Self.portal, path: Self.path, interface: Self.interface, member: "SettingChanged",
                    arg0: Self.namespace)
                subscriptions.append(try await connection.subscribe(rule) { [weak self] message in
                    guard let self, let values = try? message.arguments(), values.count == 3,
                          values[0].string == Self.namespace, values[1].string == Self.key else { return }
                    let remember = Self.flag(values[2])
                    state.withLock { $0.generation += 1 }
                    log("settings portal: \(Self.namespace) \(Self.key) changed to \(remember)")
                    changed(remember)
                })
                subscriptions.append(try await connection.watchNameOwners(arg0: Self.portal) { [weak self] _, _, owner in
                    guard let self, !owner.isEmpty else { return }
                    Task { changed(await self.read()) }
                })
            } catch {
                log("settings portal: cannot follow \(Self.namespace) \(Self.key) (\(error)); recent files are remembered")
            }
            let kept = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.subscriptions = subscriptions
                return true
            }
            guard kept else {
                for subscription in subscriptions { subscription.cancel() }
                return
            }
            let generation = state.withLock { $0.generation }
            let remember = await read()
            // A signal that came meanwhile is newer than this answer.
            if state.withLock({ $0.generation == generation && !$0.stopped }) { changed(remember) }
        }
        state.withLock { $0.task = task }
    }

    func stop() {
        let (subscriptions, task) = state.withLock { state in
            state.stopped = true
            defer { state.subscriptions = [] }
            return (state.subscriptions, state.task)
        }
        task?.cancel()
        for subscription in subscriptions { subscription.cancel() }
    }

    /// The setting as the portal says it now; true when it cannot say.
    func read() async -> Bool {
        let arguments: [Value] = [.string(Self.namespace), .string(Self.key)]
        var reply: [Value]
        do {
            reply = try await connection.call(
                destination: Self.portalName, path: Self.path, interface: Self.interface, member: "ReadOne", arguments,
                timeout: timeout)
        } catch {
            guard error.name == .unknownMethod else { return unread(error) }
            // Portals before version 2 have only Read, whose value some wrap in a second variant.
            do {
                reply = try await connection.call(
                    destination: Self.portalName, path: Self.path, interface: Self.interface, member: "Read",
                    arguments, timeout: timeout)
            } catch {
                return unread(error)
            }
        }
        return reply.first.map(Self.flag) ?? true
    }

    private func unread(_ error: DBusError) -> Bool {
        log("settings portal: \(Self.namespace) \(Self.key) not read (\(error)); recent files are remembered")
        return true
    }

    /// A boolean through any variants; anything else remembers.
    static func flag(_ value: Value) -> Bool {
        value.bool ?? true
    }
}
