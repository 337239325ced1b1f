import CQuickActionsHostSupport
import Locking
import DBus
import Foundation
import QuickActionsAPI
import QuickActionsHost
import QuickActionsBundles
import QuickActionsModel
import QuickActionsProviding
import Synchronization

/// quickactionsd's heart: keeps every app's items, answers the D-Bus API v1
/// (dbus/org.quickactions.Broker1.xml) and runs plugins on demand.
///
/// Threads: D-Bus handlers run on the connection's loop thread and only read
/// snapshots (listing never waits for a plugin). Each app's plugin runs where
/// its executor says (``PluginExecutor``): by default in a host process of its
/// own, whose peer connection the same loop thread serves, so a Perform goes
/// out to the host and its answer comes back without a thread switch and no
/// plugin code runs on the loop; a trusted plugin in process runs on its own
/// queue. Dynamic items are stored off the loop.
public final class Broker: Sendable {
    public static let busName = BrokerAPI.busName
    public static let rootPath = BrokerAPI.rootPath
    static let appsPath = BrokerAPI.appsPath
    public static let interfaceName = BrokerAPI.interface
    public static let applicationInterfaceName = BrokerAPI.applicationInterface
    /// The broker's version, also the `Version` property.
    public static let version = productVersion

    let configuration: BrokerConfiguration
    let log: Log
    let store: DynamicItemStore
    let usage: UsageRanking
    let lastSeen: LastSeenRecords
    /// The plugin directories the last scan could not list (path → reason),
    /// so a rescan logs only what changed.
    let unlistedDirectories = Locked<[String: String]>([:])
    /// What the last scan said about the bundles it read, so a rescan logs only what is new
    /// (``reportScan(_:)``).
    let reportedDiagnostics = Locked<Set<String>>([])
    /// The last-seen records could not be written (logged once, until they can).
    let lastSeenUnwritable = Locked(false)
    let connection: Connection
    /// Starts plugin hosts and serves their connections; made once the broker serves.
    private let hostLauncher = Locked<Result<HostLauncher, any Error>?>(nil)
    let catalog = Locked(Catalog())
    let slots = Locked<[String: PluginSlot]>([:])
    /// Where the objects and signals of the providers' changes are announced from.
    let announcer = Announcer()
    /// Application1, made on first export and shared by every app's object.
    let sharedApplicationInterface = Locked<Interface?>(nil)
    let pending = PendingPerforms()
    let listingCache = ListingCache()
    let journal: CrashJournal
    let quarantine: Locked<Quarantine>
    /// Start time and load errors, for the status properties (Broker+Status.swift).
    let status = BrokerStatus()
    /// Serialises rescans of the plugin directories, and the item providers' changes.
    let scanQueue = DispatchQueue(label: "org.quickactions.broker.scan")
    /// Each item provider's latest set of apps, by provider name (Broker+Providers.swift).
    let providedSets = Locked<[String: [ProvidedApp]]>([:])
    /// Whether a set came since the last reconcile began (Broker+Providers.swift).
    let reconcileDue = Locked(false)
    /// Where provided items are handed to their providers: never the bus loop.
    let providerQueue = DispatchQueue(label: "org.quickactions.broker.providers", attributes: .concurrent)
    /// Where the providers are started, in order (a start may read files for a while).
    let providerStarts = DispatchQueue(label: "org.quickactions.broker.providers.start")
    /// True once the objects are exported: from then on the providers' changes are announced.
    /// Set on the scan queue, where those changes are made.
    let announcing = Locked(false)
    private let ownerWatch = Locked<SignalSubscription?>(nil)
    private let nameLostWatch = Locked<SignalSubscription?>(nil)
    private let watcher = Locked<PluginWatcher?>(nil)
    /// Whether the watch, started before the initial scan, saw a change before `run()` could
    /// apply one; nil once `run()` applies changes as they come.
    private let changedBeforeServing = Locked<Bool?>(false)
    /// The initial scan, until `run()` has the name and hands it to `applyRetention` on the
    /// scan queue: its last-seen records (one file per app) are no part of starting.
    private let initialScanForRetention = Locked<PluginDirectories.Scan?>(nil)
    /// Rescans once a day, so a broker that runs for weeks applies the
    /// retention rule too.
    private let dailyCheck = DailyTimer()
    private let ended = Locked<CheckedContinuation<Int32, Never>?>(nil)
    private let exitStatus = Locked<Int32?>(nil)
    private let signalSources = SignalSources()
    private let stopping = Atomic<Bool>(false)

    /// Reads the plugin directories and the stored dynamic items (loading no
    /// plugin), then connects to the bus. The name is taken by `run()`.
    ///
    /// No state file can stop it: a state directory that cannot hold files,
    /// a crash journal or crash-count file of the wrong kind or corrupt, is
    /// logged (file and reason) and moved aside or bypassed. Only the bus can
    /// fail it.
    public init(configuration: BrokerConfiguration) throws {
        self.configuration = configuration
        log = Log(verbose: configuration.verbose)
        store = DynamicItemStore(directory: configuration.stateDirectory)
        lastSeen = LastSeenRecords(stateDirectory: configuration.stateDirectory)
        usage = UsageRanking(directory: configuration.stateDirectory, log: log)
        if let problem = StateFile.prepareDirectory(configuration.stateDirectory.path) {
            log(.warning, "state directory \(configuration.stateDirectory.path): \(problem); dynamic items will not persist "
                + "(they are served until the broker stops), nor will crash counts")
        }
        let opened = CrashJournal.open(in: configuration.stateDirectory)
        for problem in opened.problems { log(.warning, "crash journal \(problem)") }
        journal = opened.journal
        let loaded = Quarantine.load(from: configuration.stateDirectory)
        for problem in loaded.problems { log(.warning, "crash counts \(problem)") }
        quarantine = Locked(loaded.quarantine)
        connection = try Connection(configuration.bus)
        // Before the initial scan, so no bundle written between the scan and `run()` waits
        // for the daily check: what changes from here on is rescanned once `run()` starts.
        if configuration.watchDirectories {
            startWatching()
        }
        let scan = scanPluginDirectories()
        reportScan(scan.diagnostics)
        reportUnlisted(scan.unlisted)
        var initial = Catalog()
        for bundle in scan.bundles {
            initial.set(snapshot(of: bundle, storedItems: loadStoredItems(bundle.appID)))
        }
        catalog.withLock { $0 = initial }
        do {
            try store.removeStaleTemporaryFiles()
        } catch {
            log(.warning, "cannot clean up \(store.directory.path): \(error)")
        }
        // Not here: moving the apps' last-seen records forward is a file read and often a file
        // written per app (a record an hour old is rewritten, so on nearly every login). Nothing
        // a caller sees waits on them; `run()` queues them once the name is taken.
        initialScanForRetention.withLock { $0 = scan }
        blame(opened.interrupted, in: initial)
        log(.info, "found \(scan.bundles.count) app(s) in \(configuration.pluginDirectories.map(\.path).joined(separator: ":"))")
    }

    /// Exports the API, takes the bus name and serves until SIGTERM/SIGINT,
    /// the loss of the name or of the bus. Returns the process exit status.
    /// - Parameter serving: called once the broker owns its name (quickactionsd starts its
    ///   bridges there, so a broker that cannot start never runs them).
    public func run(serving: @escaping @Sendable () -> Void = {}) async throws -> Int32 {
        connection.onDisconnect { [weak self] error in
            guard let self else { return }
            // Our own close after a clean stop also ends here: that is no loss.
            guard !stopping.load(ordering: .acquiring), !hasFinished else { return }
            log(.error, "lost the bus (\(error.message)); exiting so the supervisor restarts the broker")
            // The hosts end with their peer connections; the socket folder must not outlive us.
            if case .success(let launcher) = hostLauncher.withLock({ $0 }) { launcher.close() }
            finish(status: 1)
        }
        await startProviders()
        if !configuration.providers.isEmpty {
            // The listing every bridge and launcher asks for first, encoded while the objects
            // are exported and the name is taken; the catalog's generation tells if it went stale.
            Self.listingQueue.async { [self] in _ = try? allItemsReply(options: CallOptions([:])) }
        }
        let exported: Result<Void, DBusError> = scanQueue.sync {
            defer { announcing.withLock { $0 = true } }
            return Result { () throws(DBusError) in try exportObjects() }
        }
        try exported.get()
        let owners = try await connection.watchNameOwners { [weak self] name, _, newOwner in
            guard let self, newOwner.isEmpty, name.hasPrefix(":") else { return }
            let dropped = pending.dropAll(from: name)
            if dropped > 0 { log(.info, "caller \(name) left the bus; dropped its \(dropped) pending Perform(s)") }
        }
        ownerWatch.withLock { $0 = owners }
        let nameLost = try await connection.subscribe(
            MatchRule(sender: "org.freedesktop.DBus", interface: .bus, member: "NameLost", arg0: Self.busName.rawValue)
        ) { [weak self] _ in
            // Our own ReleaseName at shutdown also ends in NameLost.
            guard let self, !stopping.load(ordering: .acquiring) else { return }
            log(.info, "another broker took \(Self.busName.rawValue); shutting down")
            shutDown(status: 0)
        }
        nameLostWatch.withLock { $0 = nameLost }

        // Before the name is taken: whoever sees the broker on the bus may add a bundle at once
        // (an installer that waited for it, a test), and sees it listed.
        let missed = changedBeforeServing.withLock { changed -> Bool in
            defer { changed = nil }
            return changed == true
        }
        if missed { rescan(reason: "a plugin directory changed while the broker started") }
        var flags: Connection.NameFlags = [.allowReplacement, .doNotQueue]
        if configuration.replace { flags.insert(.replaceExisting) }
        let answer = try await connection.requestName(Self.busName, flags: flags)
        guard answer == .primaryOwner || answer == .alreadyOwner else {
            watcher.withLock { $0?.stop() }
            let owner = (try? await connection.owner(of: Self.busName)) ?? nil
            throw BrokerStartError.nameTaken(owner: owner)
        }
        log(.info, "serving \(Self.busName.rawValue) as \(connection.uniqueName)")
        if let scan = initialScanForRetention.withLock({ saved in defer { saved = nil }; return saved }) {
            // On the scan queue, as after every rescan: ForgetApplication and rescans run there too.
            scanQueue.async { [self] in applyRetention(after: scan) }
        }
        serving()
        prepareHostLauncher()
        startDailyCheck()
        installSignalHandlers()
        return await withCheckedContinuation { continuation in
            let already = exitStatus.withLock { status -> Int32? in
                if status == nil { ended.withLock { $0 = continuation } }
                return status
            }
            if let already { continuation.resume(returning: already) }
        }
    }

    /// Closes the bus connection and joins its loop thread; for the very end,
    /// after `run()` returned.
    public func close() {
        connection.close()
    }

    /// True once `run()` has its exit status.
    var hasFinished: Bool { exitStatus.withLock { $0 != nil } }

    /// Ends `run()` with `status`; the first call wins.
    func finish(status: Int32) {
        let continuation = exitStatus.withLock { current -> CheckedContinuation<Int32, Never>? in
            guard current == nil else { return nil }
            current = status
            return ended.withLock { saved in
                defer { saved = nil }
                return saved
            }
        }
        continuation?.resume(returning: status)
    }

    /// An orderly stop: will-resign on every loaded plugin, waiting (at most
    /// five seconds) for the dynamic items they write; then the name goes
    /// back to the bus and `run()` returns `status`.
    func shutDown(status: Int32) {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DispatchQueue.global().async { [self] in
            let executors = slots.withLock { $0.values.map(\.executor) }
            let group = DispatchGroup()
            for executor in executors {
                group.enter()
                executor.stop(bound: .seconds(5)) { group.leave() }
            }
            if group.wait(timeout: .now() + .seconds(6)) == .timedOut {
                log(.warning, "a plugin did not return from will-resign within 5 s; stopping without it")
            }
            if case .success(let launcher) = hostLauncher.withLock({ $0 }) { launcher.close() }
            stopProviders()
            announcer.stop()
            watcher.withLock { $0?.stop() }
            dailyCheck.cancel()
            let release = DispatchSemaphore(value: 0)
            Task { [connection] in
                try? await connection.releaseName(Self.busName)
                release.signal()
            }
            _ = release.wait(timeout: .now() + .seconds(2))
            usage.flush()
            log(.info, "stopped")
            finish(status: status)
        }
    }

    private func installSignalHandlers() {
        // quickactionsd blocks these from its first line, so they wait for the signal sources
        // (a signalfd in Dispatch, which also reads one sent before it existed: a session
        // ending while the broker started). Caught by a handler that does nothing rather than
        // SIG_IGN, which would discard a pending signal (POSIX); sigpending only tells which
        // arrived early, for the log.
        var pending = sigset_t()
        sigpending(&pending)
        for number in [SIGTERM, SIGINT] {
            let name = number == SIGTERM ? "SIGTERM" : "SIGINT"
            let early = Locked(sigismember(&pending, number) == 1)
            if qa_catch_signal_without_action(number) != 0 {
                log(.warning, "cannot catch \(name): \(String(cString: strerror(errno)))")
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                let starting = early.withLock { arrived in
                    defer { arrived = false }
                    return arrived
                }
                self?.log(.info, starting ? "received \(name) while starting; stopping" : "received \(name); stopping")
                self?.shutDown(status: 0)
            }
            source.resume()
            signalSources.keep(source)
        }
    }

    private func startDailyCheck() {
        dailyCheck.start(on: scanQueue) { [weak self] in self?.rescanNow(reason: "the daily check") }
    }

    private func startWatching() {
        do {
            let made = try PluginWatcher(directories: configuration.pluginDirectories) { [weak self] in
                self?.directoriesChanged()
            }
            watcher.withLock { $0 = made }
        } catch {
            log(.warning, "cannot watch plugin directories (\(PlainErrorDescription.of(error))); use Reload() to pick up changes")
        }
    }

    /// Reads the plugin directories, watching each bundle folder (and its `.lproj` folders)
    /// just before it is read, when there is a watch.
    func scanPluginDirectories() -> PluginDirectories.Scan {
        let watching = watcher.withLock { $0 }
        return PluginDirectories.scan(configuration.pluginDirectories) { watching?.watchFolder($0) }
    }

    /// A watched directory changed: rescanned now, or kept for `run()` while the broker starts.
    private func directoriesChanged() {
        let serving = changedBeforeServing.withLock { changed -> Bool in
            guard changed != nil else { return true }
            changed = true
            return false
        }
        if serving { rescan(reason: "a plugin directory changed") }
    }

    /// Counts a crash against each plugin that was running when the
    /// previous broker died, and says so.
    private func blame(_ interrupted: [String], in catalog: Catalog) {
        guard !interrupted.isEmpty else { return }
        let saved: Result<Void, any Error> = quarantine.withLock { quarantine in
            for id in interrupted {
                let library = Quarantine.fingerprint(catalog[id]?.bundle?.identity.executable)
                let count = quarantine.recordCrash(of: id, library: library)
                let verdict = count >= Quarantine.limit
                    ? "it is quarantined until its library changes"
                    : "it is quarantined after \(Quarantine.limit)"
                log(.error, "\(id) was running plugin code when the previous broker died: crash \(count); \(verdict)")
            }
            return Result { try quarantine.save(to: configuration.stateDirectory) }
        }
        if case .failure(let error) = saved {
            log(.warning, "cannot save crash counts in \(configuration.stateDirectory.path): \(PlainErrorDescription.of(error))")
        }
    }

    // MARK: Plugin executors

    /// Makes the host launcher (its spawner thread, socket folder and peer server) off the
    /// loop as soon as the broker serves, unless every plugin runs in process: otherwise the
    /// first launch after start-up pays for it, and measured slowest. A launcher that cannot
    /// be made is said here once, and each app's first Perform says it again.
    private func prepareHostLauncher() {
        guard configuration.pluginHost == .process else { return }
        DispatchQueue.global().async { [self] in
            do {
                _ = try launcher()
            } catch {
                log(.error, "cannot run plugin hosts (\(error)); only apps run in process can be performed")
            }
        }
    }

    /// The host launcher, made at start-up (``prepareHostLauncher()``) or on first use,
    /// whichever comes first.
    func launcher() throws -> HostLauncher {
        let result = hostLauncher.withLock { made -> Result<HostLauncher, any Error> in
            if let made { return made }
            let result = Result { try HostLauncher(sharing: connection, environment: ProcessInfo.processInfo.environment) }
            if case .success(let launcher) = result {
                for folder in launcher.removedFolders {
                    log(.info, "removed \(folder), the host socket folder of a broker that is gone")
                }
            }
            made = result
            return result
        }
        return try result.get()
    }

    /// PluginFailed for an app whose library is quarantined, else nil.
    func quarantineRefusal(appID: String, bundle: PluginBundle) -> DBusError? {
        let library = Quarantine.fingerprint(bundle.identity.executable)
        guard let crashes = quarantine.withLock({ $0.quarantined(appID, library: library) }) else { return nil }
        return DBusError(.pluginFailed,
            "\(appID) is quarantined: its plugin crashed \(crashes) times within \(Quarantine.windowDescription); "
                + "replace \(bundle.executableURL.path) to try it again")
    }

    /// A host died: logged with how, and counted towards quarantine when it was not asked to stop.
    func hostDied(appID: String, bundle: PluginBundle, pid: pid_t, exit: HostExit, counted: Bool) {
        guard counted else {
            log(.warning, "the plugin host of \(appID) (pid \(pid)) \(exit) while stopping")
            return
        }
        let library = Quarantine.fingerprint(bundle.identity.executable)
        let (count, saved) = quarantine.withLock { quarantine -> (Int, Result<Void, any Error>) in
            let count = quarantine.recordCrash(of: appID, library: library, at: configuration.now())
            return (count, Result { try quarantine.save(to: configuration.stateDirectory) })
        }
        let verdict = count >= Quarantine.limit
            ? "it is quarantined until \(bundle.executableURL.path) changes"
            : "it is quarantined after \(Quarantine.limit) within \(Quarantine.windowDescription)"
        log(.error, "the plugin host of \(appID) (pid \(pid), \(bundle.executableURL.path)) \(exit): crash \(count); \(verdict)")
        // The contract announces Quarantined and QuarantineReason (cached listings rely on it).
        try? connection.emitPropertiesChanged(
            path: BrokerAPI.appPath(appID), interface: Self.applicationInterfaceName,
            names: [MemberName(stringLiteral: BrokerAPI.Property.quarantined),
                    MemberName(stringLiteral: BrokerAPI.Property.quarantineReason)])
        if case .failure(let error) = saved {
            log(.warning, "cannot save crash counts: \(error)")
        }
    }

    /// The app's `Loaded` property changed, and with it HostPID (a host started or ended).
    func loadedChanged(_ appID: String) {
        try? connection.emitPropertiesChanged(
            path: BrokerAPI.appPath(appID), interface: Self.applicationInterfaceName,
            names: [MemberName(stringLiteral: BrokerAPI.Property.loaded), MemberName(stringLiteral: BrokerAPI.Property.hostPID)])
    }

    // MARK: Store

    func loadStoredItems(_ appID: AppID) -> [ShortcutItem] {
        let loaded = store.load(appID)
        report(loaded.diagnostics)
        return loaded.items
    }

    /// A new app snapshot from its stored items; a stored item whose given id now clashes
    /// (its bundle gained a static item of that id) is not listed, and that is logged. The
    /// store keeps it.
    func snapshot(of bundle: PluginBundle, storedItems: [ShortcutItem]) -> AppSnapshot {
        let app = AppSnapshot(bundle: bundle, dynamicItems: storedItems)
        for refused in app.refusedItems {
            log(.warning, "\(bundle.appID.rawValue): a stored dynamic item is not listed: \(refused)")
        }
        return app
    }

    func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            log(diagnostic.severity.logLevel, diagnostic.message)
        }
    }

    /// Logs what a scan of the plugin directories found wrong with bundles, each once: a
    /// rescan (a directory changed, Reload, the daily check) says only what the scan before it
    /// did not, so a bad bundle is one line, not one per rescan. A bundle mended and broken
    /// again is said again.
    func reportScan(_ diagnostics: [Diagnostic]) {
        let messages = Set(diagnostics.map(\.message))
        let before = reportedDiagnostics.withLock { reported in
            defer { reported = messages }
            return reported
        }
        report(diagnostics.filter { !before.contains($0.message) })
    }
}

/// Why the broker could not start serving.
public enum BrokerStartError: Error, CustomStringConvertible {
    case nameTaken(owner: String?)

    public var description: String {
        switch self {
        case .nameTaken(let owner):
            "\(Broker.busName.rawValue) is already owned by \(owner ?? "another connection"); "
                + "stop that broker or start this one with --replace"
        }
    }
}

/// What the broker keeps per app beyond its snapshot: where its plugin runs (the app's
/// executor, made once per library file) and the queue its dynamic-item updates go through.
final class PluginSlot: Sendable {
    /// The executable this slot loaded, so a replaced library is loaded anew.
    let executable: FileIdentity?
    /// Serialises this app's dynamic-item updates (store, then catalog).
    let updates = Locked(())
    /// Where a host's dynamic-item updates are stored: never on the bus loop.
    let updateQueue: DispatchQueue
    private let made = Locked<(any PluginExecutor)?>(nil)

    init(appID: String, executable: FileIdentity?) {
        updateQueue = DispatchQueue(label: "org.quickactions.broker.app.\(appID)")
        self.executable = executable
    }

    /// The executor; set once, right after the slot is made.
    var executor: any PluginExecutor {
        // Always set by Broker.slot(for:) before the slot is published.
        made.withLock { $0 } ?? UnloadedExecutor.shared
    }

    func setExecutor(_ executor: any PluginExecutor) { made.withLock { $0 = executor } }
}

/// The executor of a slot not finished yet: loads nothing (never reached in practice).
final class UnloadedExecutor: PluginExecutor {
    static let shared = UnloadedExecutor()
    var isLoaded: Bool { false }
    var hostProcessID: Int32 { 0 }
    func perform(
        _ request: PerformRequest, timeoutMilliseconds: UInt32, completion: @escaping @Sendable (ExecutionResult) -> Void
    ) -> PerformTicket? {
        completion(.failed(DBusError(.pluginFailed, "the app's plugin is not ready")))
        return nil
    }
    func stop(bound: Duration, done: @escaping @Sendable () -> Void) { done() }
}

/// A timer that fires once a day.
final class DailyTimer: @unchecked Sendable {
    // @unchecked Sendable: `timer` is only read or written under `lock`;
    // Dispatch sources may be cancelled from any thread.
    private let lock = NSLock()
    private var timer: (any DispatchSourceTimer)?

    func start(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) {
        let made = DispatchSource.makeTimerSource(queue: queue)
        made.schedule(deadline: .now() + .seconds(86_400), repeating: .seconds(86_400), leeway: .seconds(600))
        made.setEventHandler(handler: handler)
        made.resume()
        lock.withLock { timer = made }
    }

    func cancel() {
        lock.withLock { timer?.cancel() }
    }
}

/// Keeps the signal sources alive for the broker's lifetime.
final class SignalSources: @unchecked Sendable {
    // @unchecked Sendable: `sources` is only appended to under `lock`.
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []

    func keep(_ source: any DispatchSourceSignal) {
        lock.lock()
        defer { lock.unlock() }
        sources.append(source)
    }
}
