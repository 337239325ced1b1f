import DBus
import Foundation
import Glibc
import Locking
import QuickActionsAPI

/// The desktop-entry bridge (issue 15): keeps, for every app the broker lists, a desktop entry
/// in `$XDG_DATA_HOME/applications` whose actions are exactly the app's current items, so
/// every freedesktop desktop shows them on the app's icon.
///
/// A client of the broker's public contract only: it lists apps and items through
/// ``BrokerProxy``, follows ItemsChanged, ApplicationsChanged and the broker's name, and its
/// actions perform by item id through the `quickactions` CLI. It also follows the originals'
/// folders with inotify, so a package update or removal re-derives the copy.
///
/// Changes are gathered and written together ``BridgeConfiguration/settleDelay`` after the
/// first of a burst, by one worker task; a file is written only when its content changes.
public final class DesktopEntryBridge: Sendable {
    public let configuration: BridgeConfiguration
    private let connection: Connection
    private let proxy: BrokerProxy
    private let sync: EntrySync

    /// What is waiting to be synced.
    private struct Pending: Sendable {
        var all = false
        var apps: Set<String> = []
        var isEmpty: Bool { !all && apps.isEmpty }
    }

    private let pending = Locked(Pending())
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    private let entries = Locked<[String: AppEntry]>([:])
    private let changeHandlers = Locked<[@Sendable () -> Void]>([])
    private let logged = Locked<Set<String>>([])
    private let subscriptions = Locked<[SignalSubscription]>([])
    private let watcher = Locked<OriginalsWatcher?>(nil)
    private let worker = Locked<Task<Void, Never>?>(nil)
    private let recheck = Locked<Task<Void, Never>?>(nil)
    /// How often originals are re-read when their folders cannot be watched.
    static let recheckInterval: Duration = .seconds(30)

    /// Opens the bridge's own connection to the broker's bus. Nothing happens until ``start()``.
    public init(configuration: BridgeConfiguration) throws(DBusError) {
        self.configuration = configuration
        connection = try Connection(configuration.bus)
        proxy = BrokerProxy(connection: connection)
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let log = configuration.log
        let logged = self.logged
        sync = EntrySync(
            proxy: proxy, directories: configuration.directories, composer: EntryComposer(command: configuration.command),
            logOnce: { key, message in
                if logged.withLock({ $0.insert(key).inserted }) { log(message) }
            },
            log: log)
    }

    /// Follows the broker and the originals, and syncs every app as soon as the broker has its name.
    public func start() async throws(DBusError) {
        let subscribed = [
            try await proxy.onItemsChanged { [weak self] app in self?.schedule(app: app) },
            try await proxy.onApplicationsChanged { [weak self] in self?.scheduleAll() },
            try await proxy.onBrokerOwnerChanged { [weak self] hasOwner in
                if hasOwner { self?.scheduleAll() }
            },
        ]
        subscriptions.withLock { $0 += subscribed }
        removeLeftoverTemporaryFiles()
        do {
            let watching = try OriginalsWatcher(directories: configuration.directories) { [weak self] in self?.scheduleAll() }
            watcher.withLock { $0 = watching }
        } catch {
            // Without inotify (no instances left), look again on a timer instead.
            configuration.log("cannot watch \(configuration.directories.systemApplications.joined(separator: ", ")) (\(error)); re-reading the originals every \(Self.recheckInterval) instead")
            let timer = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.recheckInterval)
                    self?.scheduleAll()
                }
            }
            recheck.withLock { $0 = timer }
        }
        let task = Task { [weak self] in
            guard let wakes = self?.wakes else { return }
            for await _ in wakes {
                guard let self else { return }
                try? await Task.sleep(for: configuration.settleDelay)
                await round()
            }
        }
        worker.withLock { $0 = task }
        if (try? await connection.owner(of: BrokerAPI.busName)) != nil {
            scheduleAll()
        }
    }

    /// Stops following changes and closes the connection; the files stay.
    public func stop() {
        subscriptions.withLock { subscriptions in
            subscriptions.forEach { $0.cancel() }
            subscriptions.removeAll()
        }
        watcher.withLock { $0?.stop() }
        wake.finish()
        worker.withLock { $0?.cancel() }
        recheck.withLock { $0?.cancel() }
        connection.close()
    }

    /// The desktop file id the bridge serves for `appID` and whether that entry carries the
    /// app's items; nil for an app it has no entry for.
    public func desktopEntry(forApp appID: String) -> (desktopID: String, showsItems: Bool)? {
        entries.withLock { $0[appID] }.map { ($0.desktopID, $0.showsItems) }
    }

    /// Calls `handler` (on the bridge's worker) after any answer of ``desktopEntry(forApp:)`` changed.
    public func onChange(_ handler: @escaping @Sendable () -> Void) {
        changeHandlers.withLock { $0.append(handler) }
    }

    /// Removes every entry the bridge wrote and nobody edited: for turning the bridge off.
    /// - Returns: the paths removed.
    @discardableResult
    public static func removeWrittenEntries(
        in directories: DataDirectories, log: @Sendable (String) -> Void = BridgeConfiguration.standardErrorLog
    ) -> [String] {
        var removed: [String] = []
        for (path, _, bytes) in EntrySync.ourFiles(in: directories) {
            if EntrySync.remove(path, ifStill: bytes, directories: directories, log: log) { removed.append(path) }
        }
        // The folder temporary files are made in, empty once nothing is being written.
        rmdir(EntrySync.scratchFolder(directories))
        return removed
    }

    /// Temporary files a crash left in the scratch folder (only the bridge writes there).
    /// Our own (a marked, unedited entry, or an empty placeholder) go. Anything else is a
    /// user's file a crash caught between the two steps of a conditional write or removal
    /// (``AtomicFile/write(_:to:temporaryFolder:ifStill:)``): it goes back under its name, or
    /// stays here if a new file took the name meanwhile.
    private func removeLeftoverTemporaryFiles() {
        let directories = configuration.directories
        let scratch = EntrySync.scratchFolder(directories)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? [] where name.contains(".qa-") {
            let path = scratch + "/" + name
            let bytes = AtomicFile.read(path)
            if bytes?.isEmpty == true {
                unlink(path)
                continue
            }
            if case .ours = GeneratedMark.status(of: bytes) {
                unlink(path)
                continue
            }
            guard let original = AtomicFile.originalName(ofTemporary: name) else { continue }
            let target = directories.userApplications + "/" + original
            if (try? AtomicFile.restore(path, to: target)) == true {
                configuration.log("put back \(target), caught by a crash while the bridge wrote or removed it")
            } else {
                configuration.log("\(path) holds what was \(target) before a crash, and a new file has that name: left for you")
            }
        }
    }

    // MARK: Scheduling

    private func schedule(app: String) {
        pending.withLock { _ = $0.apps.insert(app) }
        wake.yield()
    }

    private func scheduleAll() {
        pending.withLock { $0.all = true }
        wake.yield()
    }

    /// One round: everything pending, synced.
    private func round() async {
        let work = pending.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
        guard !work.isEmpty else { return }
        let apps: [ListedApplication]
        do {
            apps = try await proxy.applications()
        } catch {
            // The broker is away (restarting, or not started yet): its name's return resyncs all.
            if logged.withLock({ $0.insert("unreachable").inserted }) {
                configuration.log("cannot list the apps: \(error); waiting for the broker")
            }
            return
        }
        logged.withLock { _ = $0.remove("unreachable") }
        let before = entries.withLock { $0 }
        var after = before
        let known = Set(apps.map(\.id))
        for app in apps where work.all || work.apps.contains(app.id) {
            after[app.id] = await sync.sync(app, previous: before[app.id])
        }
        // Apps that went away take their entries with them.
        for (app, entry) in before where !known.contains(app) {
            if let path = entry.path { sync.removeOurs(path, app: app) }
            after.removeValue(forKey: app)
        }
        if work.all {
            // Files of ours no app accounts for: left from an app removed while we were not
            // running, or from an id the app no longer names.
            let current = Set(after.values.compactMap(\.path))
            for (path, app, bytes) in EntrySync.ourFiles(in: configuration.directories) where !current.contains(path) {
                if !known.contains(app) || after[app]?.path != path {
                    sync.removeOurs(path, app: app, judged: (.ours(app: app), bytes))
                }
            }
        }
        entries.withLock { $0 = after }
        if after != before {
            for handler in changeHandlers.withLock({ $0 }) { handler() }
        }
    }
}
