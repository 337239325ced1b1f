import DBus
import CHeap
import Locking
import QuickActionsAPI

/// Dock quicklists through Unity's LauncherEntry API, which Ubuntu Dock, Dash to Dock and
/// Plank read: for each app whose desktop entry does not show its items already
/// (``DesktopEntryLookup``), a ``DbusMenu`` at `/org/quickactions/Search1/Dock/<escaped app
/// id>` and the signal `com.canonical.Unity.LauncherEntry.Update("application://<desktop
/// id>", {"quicklist": <menu path>})`.
///
/// Menus follow the broker live: ItemsChanged re-reads that app's items (LayoutUpdated),
/// ApplicationsChanged and a restarted broker re-read every app (an app that went away, or
/// whose desktop entry now shows its items, gets `quicklist` "/" and loses its menu). Docks
/// own `com.canonical.Unity` while they run: when it gets an owner, every Update is sent
/// again, so a dock started after the broker shows the quicklists at once. A "clicked" menu
/// item performs that item by its id; a failure is notified as KRunner's are.
///
/// Items are listed in display order, not by frecency: a menu that reorders itself under
/// the pointer is harder to use than one that stays put.
public final class DockQuicklists: Sendable {
    public static let launcherEntryInterface: InterfaceName = "com.canonical.Unity.LauncherEntry"
    public static let unityName = "com.canonical.Unity"

    let connection: Connection
    let catalog: SearchCatalog
    let lookup: any DesktopEntryLookup
    let notifier: DesktopNotifier
    let log: SearchLog

    private struct Quicklist {
        let desktopID: String
        let menu: DbusMenu
    }
    private let quicklists = Locked<[String: Quicklist]>([:])
    private let applications = Locked<[String: ListedApplication]>([:])
    /// What changed since the last round: a burst of ItemsChanged (a thousand installed
    /// applications arriving at once) is one round, and a round of many apps reads them all in
    /// one call.
    private struct Pending {
        var everything = false
        var apps: Set<String> = []
        var isEmpty: Bool { !everything && apps.isEmpty }
    }
    private let pending = Locked(Pending())
    private let changes: AsyncStream<Void>
    private let feed: AsyncStream<Void>.Continuation
    /// More apps than this in one round are read with one GetAllItems.
    static let perAppRoundLimit = 8
    private let unityWatch = Locked<SignalSubscription?>(nil)

    public init(connection: Connection, catalog: SearchCatalog, lookup: any DesktopEntryLookup, notifier: DesktopNotifier,
                log: SearchLog) {
        self.connection = connection
        self.catalog = catalog
        self.lookup = lookup
        self.notifier = notifier
        self.log = log
        (changes, feed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Builds every quicklist and follows changes; one change at a time, in order.
    public func start() async throws(DBusError) {
        catalog.onChange { [weak self] change in self?.note(change) }
        let watch = try await connection.watchNameOwners(arg0: Self.unityName) { [weak self] _, _, newOwner in
            guard let self, !newOwner.isEmpty else { return }
            announceAll()
        }
        unityWatch.withLock { $0 = watch }
        note(.everything)
        Task { [weak self, changes] in
            for await _ in changes {
                guard let self else { return }
                await round()
            }
        }
    }

    private func note(_ change: SearchCatalog.Change) {
        pending.withLock { pending in
            switch change {
            case .everything: pending.everything = true
            case .items(let appID): pending.apps.insert(appID)
            }
        }
        feed.yield(())
    }

    /// Everything noted since the last round, applied in one.
    private func round() async {
        let work = pending.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
        guard !work.isEmpty else { return }
        if work.everything || work.apps.count > Self.perAppRoundLimit {
            await apply(.everything)
        } else {
            for app in work.apps.sorted() { await apply(.items(appID: app)) }
        }
    }

    public func stop() {
        feed.finish()
        unityWatch.withLock { $0?.cancel() }
    }

    /// The apps that have a quicklist now, by id, with their desktop ids.
    public var served: [String: String] { quicklists.withLock { $0.mapValues(\.desktopID) } }

    func apply(_ change: SearchCatalog.Change) async {
        do {
            switch change {
            case .everything: try await syncAll()
            case .items(let appID): try await sync(appID)
            }
        } catch {
            log(.warning, "dock quicklists: cannot read the broker's items (\(error.message)); they are updated at its next change")
        }
    }

    /// Syncs every app again (the desktop-entry lookup's answers changed).
    public func refresh() async {
        do {
            try await syncAll()
        } catch {
            log(.warning, "cannot refresh the dock quicklists: \(error)")
        }
    }

    private func syncAll() async throws(DBusError) {
        let apps = try await catalog.proxy.applications()
        applications.withLock { $0 = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        let present = Set(apps.map(\.id))
        for id in quicklists.withLock({ Array($0.keys) }) where !present.contains(id) { remove(id) }
        // Every app's items in one call: a thousand installed applications are a thousand
        // GetItems otherwise, most of them for apps that get no quicklist.
        do {
            let items = Dictionary(try await catalog.proxy.allItems().map { ($0.appID, $0.items) },
                                   uniquingKeysWith: { first, _ in first })
            for app in apps { try await sync(app.id, items: items[app.id]) }
        }
        // Hundreds of apps' items were decoded (and are freed now) to find the few with
        // quicklists: give the buffers back rather than keep them in this thread's arena.
        if apps.count >= 64 { _ = qa_heap_trim() }
    }

    /// - Parameter known: the app's items when the caller has just read them.
    private func sync(_ appID: String, items known: [ListedItem]? = nil) async throws(DBusError) {
        guard let app = applications.withLock({ $0[appID] }) else {
            remove(appID)
            return
        }
        guard let entry = lookup.desktopEntry(forApp: appID), !entry.showsItems else {
            remove(appID)
            return
        }
        let items: [ListedItem]
        if let known {
            items = known
        } else {
            do {
                items = try await catalog.proxy.items(of: appID)
            } catch where error.name == BrokerAPI.ErrorNames.unknownApplication {
                remove(appID)
                return
            }
        }
        // A dock shows an entry's own actions itself: the desktop-actions provider's stay out.
        let entries = items.filter { $0.provider != ItemKey.Provider.desktopActions }.map { item in
            SearchEntry(appID: appID, appName: app.name.isEmpty ? appID : app.name, appIcon: app.icon, itemID: item.id,
                        type: item.type, title: item.title, subtitle: item.subtitle, icon: item.icon)
        }
        // An installed application that brings only its own actions gets no quicklist.
        if entries.isEmpty, !items.isEmpty {
            remove(appID)
            return
        }
        if let existing = quicklists.withLock({ $0[appID] }), existing.desktopID == entry.desktopID {
            existing.menu.set(entries)
            return
        }
        remove(appID)
        let path = SearchNames.dockMenusPath.appendingEscaped(appID)
        let menu = DbusMenu(path: path, connection: connection) { [weak self] clicked, timestamp in
            guard let self else { return }
            Task { await self.perform(clicked, timestamp: timestamp) }
        }
        menu.set(entries, announce: false)
        try connection.export([menu.interface()], at: path)
        quicklists.withLock { $0[appID] = Quicklist(desktopID: entry.desktopID, menu: menu) }
        announce(desktopID: entry.desktopID, quicklist: path)
    }

    private func remove(_ appID: String) {
        guard let gone = quicklists.withLock({ $0.removeValue(forKey: appID) }) else { return }
        announce(desktopID: gone.desktopID, quicklist: .root)
        try? connection.unexport(gone.menu.path)
    }

    /// Update(s app_uri, a{sv} properties) with the quicklist's path ("/" for none).
    private func announce(desktopID: String, quicklist: ObjectPath) {
        do {
            try connection.emit(
                path: SearchNames.launcherEntryPath, interface: Self.launcherEntryInterface, member: "Update",
                [.string("application://\(desktopID)"),
                 .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("quicklist"), .variant(.objectPath(quicklist)))])])
        } catch {
            log(.warning, "cannot announce the quicklist of \(desktopID): \(error.message)")
        }
    }

    private func announceAll() {
        for quicklist in quicklists.withLock({ Array($0.values) }) {
            announce(desktopID: quicklist.desktopID, quicklist: quicklist.menu.path)
        }
    }

    private func perform(_ entry: SearchEntry, timestamp: UInt32) async {
        do {
            let outcome = try await catalog.perform(entry, timestamp: timestamp)
            if !outcome.success {
                await notifier.notify(summary: "\(entry.title) failed",
                                      body: "\(entry.appName): " + (outcome.message ?? "the action reported failure"))
            }
        } catch {
            let reason = error.name == BrokerAPI.ErrorNames.timeout ? "it did not complete in time" : error.message
            await notifier.notify(summary: "\(entry.title) failed", body: "\(entry.appName): \(reason)")
        }
    }
}
