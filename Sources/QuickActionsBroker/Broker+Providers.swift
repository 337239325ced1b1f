import DBus
import CHeap
import Dispatch
import Locking
import QuickActionsAPI
import QuickActionsModel
import QuickActionsProviding

/// The item providers (issue 33): installed applications' desktop actions, recent documents
/// and media players give apps items through ``ItemProvider``, and the broker serves them as
/// it serves a plugin's, with the same listings, ids, signals, frecency and Perform results.
///
/// Each provider publishes its whole set; the broker keeps the latest set of each and, on the
/// scan queue (where bundle rescans run too), merges them into the catalog: an app a bundle
/// claims (its `QuickActionsDesktopEntry`, or the same id) gets the providers' items after its
/// plugin's; any other app is one only the providers serve, made and removed as they say. Only
/// apps whose part changed are announced.
extension Broker {
    /// How long `run()` waits for the first sets of the providers that read locally before it
    /// exports its objects and takes its name.
    static let firstSetsBound: DispatchTimeInterval = .seconds(1)

    /// Starts every configured provider, in order, on a queue of its own, and returns once each
    /// that reads locally (``ItemProvider/readsLocally``) has its first set in the catalog, or
    /// after ``firstSetsBound``. `run()` calls it before the objects are exported: a set that
    /// comes in time is exported with the rest, and the first listing is whole without a
    /// signal (none could reach anyone before the name is taken); a later set is announced.
    func startProviders() async {
        let firstSets = DispatchGroup()
        for provider in configuration.providers where provider.readsLocally { firstSets.enter() }
        providerStarts.async { [self] in
            for provider in configuration.providers {
                let name = provider.name
                let awaited = Locked(provider.readsLocally)
                provider.start { [weak self] apps in
                    guard let self else { return }
                    // A burst of sets (each provider's first, at start) costs one reconcile of
                    // the latest ones, and an empty set where there was none costs none.
                    let changed = providedSets.withLock { sets in
                        defer { sets[name] = apps }
                        return !apps.isEmpty || !(sets[name] ?? []).isEmpty
                    }
                    if changed { reconcileDue.withLock { $0 = true } }
                    scanQueue.async { [self] in
                        if reconcileDue.withLock({ due in defer { due = false }; return due }) {
                            reconcileProvided()
                        }
                        let first = awaited.withLock { awaited in
                            defer { awaited = false }
                            return awaited
                        }
                        if first { firstSets.leave() }
                    }
                }
                log(.info, "started the \(name) item provider")
            }
        }
        let inTime = await withCheckedContinuation { continuation in
            let once = Locked<CheckedContinuation<Bool, Never>?>(continuation)
            let resume = { @Sendable (inTime: Bool) in
                once.withLock { saved in
                    defer { saved = nil }
                    return saved
                }?.resume(returning: inTime)
            }
            firstSets.notify(queue: .global()) { resume(true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.firstSetsBound) { resume(false) }
        }
        if !inTime {
            log(.warning, "the item providers' first sets took over \(Self.firstSetsBound); serving without them until they come")
        }
    }

    func stopProviders() {
        // A start still under way (a slow folder) finishes first, so no provider starts after
        // its stop; bounded, as the rest of a stop.
        let started = DispatchSemaphore(value: 0)
        providerStarts.async { started.signal() }
        if started.wait(timeout: .now() + .seconds(2)) == .timedOut {
            log(.warning, "an item provider was still starting after 2 s; stopping without waiting for it")
        }
        for provider in configuration.providers { provider.stop() }
    }

    /// What each provider gives, for the `Providers` status property: its name, the apps it
    /// gives items and the items, in the configured order.
    func providerCounts() -> [(name: String, apps: Int, items: Int)] {
        let sets = providedSets.withLock { $0 }
        return configuration.providers.map { provider in
            let apps = (sets[provider.name] ?? []).filter { !$0.items.isEmpty }
            return (provider.name, apps.count, apps.reduce(0) { $0 + $1.items.count })
        }
    }

    /// Apps added or removed at once after which the heap's free memory is given back.
    static let trimmingChanges = 64

    /// Applies the providers' latest sets to the catalog. Runs on the scan queue.
    func reconcileProvided() {
        let sets = providedSets.withLock { $0 }
        // Every provided app by its id, the providers' items in their configured order.
        var parts: [String: ProvidedPart] = [:]
        for provider in configuration.providers {
            for app in sets[provider.name] ?? [] where !app.items.isEmpty {
                let entries = app.items.map { ProvidedPart.Entry(provider: provider.name, item: $0) }
                if parts[app.appID] == nil {
                    parts[app.appID] = ProvidedPart(
                        appID: app.appID, desktopID: app.desktopID, name: app.name, icon: app.icon, items: entries)
                } else {
                    parts[app.appID]?.items += entries
                }
            }
        }
        let before = catalog.withLock { $0 }
        // The apps bundles claim: an installed application a bundle names is that bundle's app.
        var owner: [String: String] = [:]
        for app in before.sorted {
            guard let bundle = app.bundle else { continue }
            owner[app.id] = app.id
            if let entry = bundle.manifest.desktopEntry {
                let claimed = entry.hasSuffix(".desktop") ? String(entry.dropLast(".desktop".count)) : entry
                if owner[claimed] == nil { owner[claimed] = app.id }
            }
        }
        var wanted: [String: ProvidedPart] = [:]
        for (id, part) in parts {
            wanted[owner[id] ?? id] = part
        }
        var added: [AppSnapshot] = []
        var changed: [AppSnapshot] = []
        var removed: [AppSnapshot] = []
        catalog.withLock { catalog in
            for app in catalog.sorted {
                let part = wanted.removeValue(forKey: app.id)
                guard part != app.provided else { continue }
                if app.bundle == nil, part == nil {
                    catalog.remove(app.id)
                    removed.append(app)
                } else {
                    let now = app.replacing(provided: part)
                    catalog.set(now)
                    changed.append(now)
                }
            }
            for (_, part) in wanted.sorted(by: { $0.key < $1.key }) {
                let app = AppSnapshot(provided: part)
                catalog.set(app)
                added.append(app)
            }
        }
        guard !added.isEmpty || !changed.isEmpty || !removed.isEmpty else { return }
        log(.debug, "item providers: \(added.count) app(s) added, \(changed.count) changed, \(removed.count) removed")
        // Before the objects are exported, the export takes what the catalog has: nothing to announce.
        guard announcing.withLock({ $0 }) else {
            if added.count + removed.count >= Self.trimmingChanges { _ = qa_heap_trim() }
            return
        }
        // Callers see the change at once; its objects and signals follow on the announcer,
        // in order, each app as the catalog has it then (a bundle may have claimed or left it).
        let (addedIDs, changedIDs, removedIDs) = (added.map(\.id), changed.map(\.id), removed.map(\.id))
        announcer.async { [weak self] in
            self?.announceProvided(added: addedIDs, changed: changedIDs, removed: removedIDs)
        }
    }

    /// Exports, unexports and signals what a reconcile changed. Runs on the announcer.
    private func announceProvided(added: [String], changed: [String], removed: [String]) {
        let now = catalog.withLock { $0 }
        for id in removed where now[id] == nil {
            try? connection.unexport(BrokerAPI.appPath(id))
            try? connection.emit(
                path: Self.rootPath, interface: Self.interfaceName, member: BrokerAPI.Signal.itemsChanged, [.string(id)])
        }
        let exported = added.compactMap { now[$0] }
        for app in exported {
            try? connection.export([applicationInterface()], at: app.objectPath)
        }
        if !added.isEmpty || !removed.isEmpty {
            try? connection.emit(path: Self.rootPath, interface: Self.interfaceName, member: BrokerAPI.Signal.applicationsChanged)
        }
        for app in exported { emitItemsChanged(app, added: true) }
        for app in changed.compactMap({ now[$0] }) { emitItemsChanged(app) }
        // A set of hundreds of apps (the first, or a desktop's worth of entries installed or
        // removed) leaves megabytes of freed parse and encoding buffers in the arenas of the
        // threads that made them; glibc gives back only the main arena's top by itself.
        if added.count + removed.count >= Self.trimmingChanges { _ = qa_heap_trim() }
    }

    /// Performs a provided item: registered as pending first (so the caller's timeout and
    /// departure apply as to a plugin's), then handed to its provider off the bus loop.
    func performProvided(
        _ item: ProvidedItem, of appID: String, by providerName: String, options: CallOptions, caller: String,
        timeout: UInt32, reply: PerformReplyHandle
    ) {
        guard let provider = configuration.providers.first(where: { $0.name == providerName }) else {
            reply.fail(DBusError(.failed, "the \(providerName) item provider of \(appID) no longer runs"))
            return
        }
        log(.debug, "Perform \(appID) \(item.type) (\(providerName)) from \(caller)")
        let id = pending.add(reply: reply, caller: caller, app: appID, ticket: nil,
                             timeoutMilliseconds: timeout, received: .now())
        let request = ProvidedPerform(
            appID: appID, item: item, arguments: options.arguments,
            launch: LaunchContext(activationToken: options.activationToken, startupID: options.desktopStartupID))
        let usage = usage
        let pending = pending
        providerQueue.async {
            provider.perform(request) { outcome in
                guard let entry = pending.take(id) else { return }
                if outcome.success { usage.record(app: appID, item: item.id) }
                PerformReply.send(entry.reply, success: outcome.success, message: outcome.message, launched: false)
            }
        }
    }
}
