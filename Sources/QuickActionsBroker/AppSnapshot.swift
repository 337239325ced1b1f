import Locking
import DBus
import Foundation
import QuickActionsAPI
import QuickActionsHostProtocol
import QuickActionsBundles
import QuickActionsModel
import QuickActionsProviding

/// One app as the broker knows it at one moment: its bundle and its dynamic items, and the
/// items item providers give it (an installed application's desktop actions, recent
/// documents, media controls). Immutable: any change makes a new snapshot, so readers never
/// see a half-updated app and the per-locale item cache can never go stale.
///
/// An app has a bundle, provided items, or both: a bundle whose `QuickActionsDesktopEntry`
/// names an installed application is that application, its plugin's items first.
final class AppSnapshot: Sendable {
    let id: String
    let bundle: PluginBundle?
    /// The dynamic items as the plugin set them (and the store keeps them): ids only where
    /// the plugin gave one.
    let publishedItems: [ShortcutItem]
    /// The dynamic items as listed and performed: every one with its id (``ItemIdentity``).
    let dynamicItems: [ShortcutItem]
    /// Published items left out because their given id clashes (see ``ItemIdentity``).
    let refusedItems: [ItemIdentityError]
    /// What the item providers give this app, nil when none gives it anything.
    let provided: ProvidedPart?
    /// Where each id's item is: a static item's index, a dynamic one's, or a provided one's.
    private let itemsByID: [String: ItemIndex]
    let objectPath: ObjectPath
    /// The app's items as D-Bus values, by locale, built on first use.
    private let encoded = Locked<[String: [Value]]>([:])
    /// Icons as resolved once: a file icon costs a realpath and a stat, and
    /// every listing locale and every Perform of the item asks again.
    private let icons = Locked<[ShortcutIcon: String?]>([:])

    private enum ItemIndex {
        case `static`(Int)
        case dynamic(Int)
        case provided(Int)
    }

    /// - Parameter dynamicItems: the dynamic items as published (and stored).
    convenience init(bundle: PluginBundle, dynamicItems published: [ShortcutItem], provided: ProvidedPart? = nil) {
        self.init(id: bundle.appID.rawValue, bundle: bundle, dynamicItems: published, provided: provided)
    }

    /// An app only item providers know.
    convenience init(provided: ProvidedPart) {
        self.init(id: provided.appID, bundle: nil, dynamicItems: [], provided: provided)
    }

    private init(id: String, bundle: PluginBundle?, dynamicItems published: [ShortcutItem], provided: ProvidedPart?) {
        self.id = id
        self.bundle = bundle
        self.provided = provided
        publishedItems = published
        let statics = bundle?.staticItems ?? []
        let assigned = ItemIdentity.assigning(published, staticIDs: Set(statics.compactMap(\.id)))
        dynamicItems = assigned.items
        refusedItems = assigned.refused
        var byID: [String: ItemIndex] = [:]
        for (index, item) in statics.enumerated() {
            if let id = item.id { byID[id] = .static(index) }
        }
        for (index, item) in assigned.items.enumerated() {
            if let id = item.id { byID[id] = .dynamic(index) }
        }
        // A provided item whose id a plugin item has is left out: the plugin's items come first.
        for (index, entry) in (provided?.items ?? []).enumerated() where byID[entry.item.id] == nil {
            byID[entry.item.id] = .provided(index)
        }
        itemsByID = byID
        objectPath = BrokerAPI.appPath(id)
    }

    func replacing(dynamicItems: [ShortcutItem]) -> AppSnapshot {
        AppSnapshot(id: id, bundle: bundle, dynamicItems: dynamicItems, provided: provided)
    }

    /// The same app with another bundle (re-read from disk) and the same published items.
    func replacing(bundle: PluginBundle) -> AppSnapshot {
        AppSnapshot(id: id, bundle: bundle, dynamicItems: publishedItems, provided: provided)
    }

    /// The same app with what the providers give it now.
    func replacing(provided: ProvidedPart?) -> AppSnapshot {
        AppSnapshot(id: id, bundle: bundle, dynamicItems: publishedItems, provided: provided)
    }

    /// The display name in `locale`: the bundle's, else the installed application's.
    func name(locale: String) -> String {
        if let bundle { return bundle.displayName(locale: locale) }
        return provided?.name.resolved(for: locale) ?? id
    }

    /// The app's own icon, resolved, or "" when it has none (or a bad one).
    var icon: String {
        if let bundle, let icon = bundle.manifest.icon, let resolved = try? bundle.resolvedIcon(icon) { return resolved }
        return provided?.icon ?? ""
    }

    var version: String { bundle?.manifest.version ?? "" }

    /// The desktop file id of the app's entry: the bundle's `QuickActionsDesktopEntry`, else
    /// the installed application's; "" for neither.
    var desktopEntry: String { bundle?.manifest.desktopEntry ?? provided?.desktopID ?? "" }

    /// Display order: static items in manifest order, then dynamic items in the order the
    /// plugin set them, then the providers' items; at most `limit` of them.
    func items(locale: String, limit: UInt32? = nil) -> [Value] {
        // Encoded outside the lock: a thread that encodes must never hold up another that only
        // reads (the announcer, below the others in the scheduler, encodes every new app's
        // items for its InterfacesAdded while the first listing reads them). Two threads may
        // then encode one locale at once; the first to store it wins, both results are equal.
        let all: [Value]
        if let cached = encoded.withLock({ $0[locale] }) {
            all = cached
        } else {
            let made = encode(locale: locale)
            all = encoded.withLock { cache in
                if let stored = cache[locale] { return stored }
                if cache.count >= 16 { cache.removeAll() }
                cache[locale] = made
                return made
            }
        }
        guard let limit, Int(limit) < all.count else { return all }
        return Array(all.prefix(Int(limit)))
    }

    /// A current item, as Perform hands it on: a plugin's, or a provider's.
    enum Selected {
        case plugin(ShortcutItem)
        case provided(provider: String, ProvidedItem)
    }

    /// The current item with id `id`, localised.
    func item(withID id: String, locale: String) -> Selected? {
        switch itemsByID[id] {
        case .static(let index): bundle.map { .plugin($0.localized($0.staticItems[index], locale: locale)) }
        case .dynamic(let index): .plugin(dynamicItems[index])
        case .provided(let index): provided.map { .provided(provider: $0.items[index].provider, $0.items[index].item) }
        case nil: nil
        }
    }

    /// The current item of `type`, localised: the first static one, else the first dynamic
    /// one, else the first provided one.
    func item(ofType type: String, locale: String) -> Selected? {
        if let bundle, let item = bundle.staticItems.first(where: { $0.type == type }) {
            return .plugin(bundle.localized(item, locale: locale))
        }
        if let item = dynamicItems.first(where: { $0.type == type }) { return .plugin(item) }
        for entry in provided?.items ?? [] where entry.item.type == type && isListed(entry.item) {
            return .provided(provider: entry.provider, entry.item)
        }
        return nil
    }

    /// Whether a provided item is listed: not when a plugin item has its id.
    private func isListed(_ item: ProvidedItem) -> Bool {
        if case .provided = itemsByID[item.id] { return true }
        return false
    }

    func resolvedIcon(of item: ShortcutItem) -> String? {
        guard let icon = item.icon, let bundle else { return nil }
        if let known = icons.withLock({ $0[icon] }) { return known }
        let resolved = try? bundle.resolvedIcon(icon)
        icons.withLock { $0[icon] = resolved }
        return resolved
    }

    private func encode(locale: String) -> [Value] {
        var values = (bundle?.localizedStaticItems(locale: locale) ?? []).map { encode($0, origin: ItemKey.Origin.static) }
            + dynamicItems.map { encode($0, origin: ItemKey.Origin.dynamic) }
        for entry in provided?.items ?? [] where isListed(entry.item) {
            let item = entry.item
            values.append(ListedItem.encode(
                id: item.id, type: item.type, title: item.title.resolved(for: locale),
                subtitle: item.subtitle?.resolved(for: locale), icon: item.icon,
                userInfo: UserInfoConversion.value(item.userInfo),
                origin: item.isStatic ? ItemKey.Origin.static : ItemKey.Origin.dynamic, provider: entry.provider))
        }
        return values
    }

    private func encode(_ item: ShortcutItem, origin: String) -> Value {
        ListedItem.encode(
            id: item.id ?? item.type, type: item.type, title: item.title, subtitle: item.subtitle,
            icon: resolvedIcon(of: item), userInfo: UserInfoConversion.value(item.userInfo), origin: origin)
    }
}

/// What the item providers give one app, merged in the providers' order (desktop actions,
/// recent documents, media players): the first provider to name the app gives its name and icon.
struct ProvidedPart: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var provider: String
        var item: ProvidedItem
    }

    /// The installed application's id (its desktop file id without `.desktop`).
    var appID: String
    var desktopID: String
    var name: LocalizedText
    var icon: String?
    var items: [Entry]
}

/// Every app, by id and in id order.
struct Catalog: Sendable {
    private(set) var byID: [String: AppSnapshot] = [:]
    private(set) var sortedIDs: [String] = []
    /// Changes with every set or removal, so caches of whole listings know
    /// when they went stale.
    private(set) var generation: UInt64 = 0

    subscript(id: String) -> AppSnapshot? { byID[id] }

    var sorted: [AppSnapshot] { sortedIDs.compactMap { byID[$0] } }

    mutating func set(_ app: AppSnapshot) {
        generation &+= 1
        if byID.updateValue(app, forKey: app.id) == nil {
            sortedIDs.insert(app.id, at: sortedIDs.partitioningIndex { $0 >= app.id })
        }
    }

    mutating func remove(_ id: String) {
        generation &+= 1
        if byID.removeValue(forKey: id) != nil {
            sortedIDs.removeAll { $0 == id }
        }
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for an array
    /// partitioned by it (binary search).
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
