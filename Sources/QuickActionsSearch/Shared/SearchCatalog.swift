import DBus
import Foundation
import Locking
import QuickActionsAPI

/// The broker's items as the search bridges see them: every app's current items in frecency
/// order, with the app's name and icon, read through the broker's public contract.
///
/// `refresh()` asks the broker anew (a new search: KRunner's Match, GNOME's initial result
/// set), so rankings reflect the latest uses; `current()` answers from the last listing
/// (subsearches, metas, activation), asking only when there is none. ItemsChanged,
/// ApplicationsChanged and a broker that comes or goes drop the listing and are passed on
/// to `onChange` handlers (the dock's quicklists follow them).
public final class SearchCatalog: Sendable {
    public let proxy: BrokerProxy
    private let listing = Locked<[SearchEntry]?>(nil)
    private let handlers = Locked<[@Sendable (Change) -> Void]>([])
    private let subscriptions = Locked<[SignalSubscription]>([])

    /// What changed at the broker.
    public enum Change: Sendable, Equatable {
        /// One app's items.
        case items(appID: String)
        /// The set of apps, or everything (a broker started or stopped).
        case everything
    }

    public init(proxy: BrokerProxy) {
        self.proxy = proxy
    }

    /// Follows the broker's signals and name.
    public func start() async throws(DBusError) {
        let items = try await proxy.onItemsChanged { [weak self] app in self?.changed(.items(appID: app)) }
        let apps = try await proxy.onApplicationsChanged { [weak self] in self?.changed(.everything) }
        let owner = try await proxy.onBrokerOwnerChanged { [weak self] _ in self?.changed(.everything) }
        subscriptions.withLock { $0 = [items, apps, owner] }
    }

    public func stop() {
        let current = subscriptions.withLock { list in
            defer { list = [] }
            return list
        }
        for subscription in current { subscription.cancel() }
    }

    /// Runs `handler` (on the bridges' loop thread) for every change.
    public func onChange(_ handler: @escaping @Sendable (Change) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    /// Every app's items, asked from the broker now.
    @discardableResult
    public func refresh() async throws(DBusError) -> [SearchEntry] {
        let apps = try await proxy.applications()
        let groups = try await proxy.allItems(order: .frecency)
        let byID = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var entries: [SearchEntry] = []
        for group in groups {
            let app = byID[group.appID]
            let name = app.map { $0.name.isEmpty ? group.appID : $0.name } ?? group.appID
            for item in group.items {
                entries.append(SearchEntry(
                    appID: group.appID, appName: name, appIcon: app?.icon ?? "", itemID: item.id, type: item.type,
                    title: item.title, subtitle: item.subtitle, icon: item.icon, frecency: item.frecency ?? 0))
            }
        }
        listing.withLock { $0 = entries }
        return entries
    }

    /// The last listing, or a new one when there is none.
    public func current() async throws(DBusError) -> [SearchEntry] {
        if let entries = listing.withLock({ $0 }) { return entries }
        return try await refresh()
    }

    /// The entry a shell's result id names, from the last listing, else from a new one.
    public func entry(_ id: ResultID) async throws(DBusError) -> SearchEntry? {
        if let found = listing.withLock({ $0?.first { $0.appID == id.appID && $0.itemID == id.itemID } }) {
            return found
        }
        return try await refresh().first { $0.appID == id.appID && $0.itemID == id.itemID }
    }

    /// Performs the entry by its item id. The listing is dropped: the use changed the ranking.
    /// - Parameters:
    ///   - activationToken: the caller's XDG activation token (KRunner's SetActivationToken).
    ///   - timestamp: the X11 time of the user's click or key press (GNOME Shell's
    ///     ActivateResult, dbusmenu's Event), passed on as a startup notification id whose
    ///     `_TIME` part lets the window manager give the launched window focus, as GLib's
    ///     launch contexts make them; 0 when the caller gave none.
    public func perform(
        _ entry: SearchEntry, activationToken: String? = nil, timestamp: UInt32 = 0
    ) async throws(DBusError) -> PerformOutcome {
        defer { listing.withLock { $0 = nil } }
        return try await proxy.perform(
            appID: entry.appID, type: entry.type, itemID: entry.itemID, activationToken: activationToken,
            startupID: StartupID.make(app: entry.appID, timestamp: timestamp))
    }

    private func changed(_ change: Change) {
        listing.withLock { $0 = nil }
        for handler in handlers.withLock({ $0 }) { handler(change) }
    }
}
