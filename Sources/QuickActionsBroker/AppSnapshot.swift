import Locking
import DBus
import Foundation
import QuickActionsAPI
import QuickActionsHostProtocol
import QuickActionsBundles
import QuickActionsModel

/// One app as the broker knows it at one moment: its bundle and its dynamic
/// items. Immutable: any change makes a new snapshot, so readers never see
/// a half-updated app and the per-locale item cache can never go stale.
final class AppSnapshot: Sendable {
    let bundle: PluginBundle
    /// The dynamic items as the plugin set them (and the store keeps them): ids only where
    /// the plugin gave one.
    let publishedItems: [ShortcutItem]
    /// The dynamic items as listed and performed: every one with its id (``ItemIdentity``).
    let dynamicItems: [ShortcutItem]
    /// Published items left out because their given id clashes (see ``ItemIdentity``).
    let refusedItems: [ItemIdentityError]
    /// Where each id's item is: a static item's index, or a dynamic one's.
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
    }

    /// - Parameter dynamicItems: the dynamic items as published (and stored).
    init(bundle: PluginBundle, dynamicItems published: [ShortcutItem]) {
        self.bundle = bundle
        publishedItems = published
        let statics = bundle.staticItems
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
        itemsByID = byID
        objectPath = BrokerAPI.appPath(bundle.appID.rawValue)
    }

    var id: String { bundle.appID.rawValue }

    func replacing(dynamicItems: [ShortcutItem]) -> AppSnapshot {
        AppSnapshot(bundle: bundle, dynamicItems: dynamicItems)
    }

    /// The same app with another bundle (re-read from disk) and the same published items.
    func replacing(bundle: PluginBundle) -> AppSnapshot {
        AppSnapshot(bundle: bundle, dynamicItems: publishedItems)
    }

    /// The display name in `locale`.
    func name(locale: String) -> String { bundle.displayName(locale: locale) }

    /// The app's own icon, resolved, or "" when it has none (or a bad one).
    var icon: String {
        guard let icon = bundle.manifest.icon else { return "" }
        return (try? bundle.resolvedIcon(icon)) ?? ""
    }

    var version: String { bundle.manifest.version ?? "" }

    /// Display order: static items in manifest order, then dynamic items in
    /// the order the plugin set them; at most `limit` of them.
    func items(locale: String, limit: UInt32? = nil) -> [Value] {
        let all = encoded.withLock { cache in
            if let cached = cache[locale] { return cached }
            let made = encode(locale: locale)
            if cache.count >= 16 { cache.removeAll() }
            cache[locale] = made
            return made
        }
        guard let limit, Int(limit) < all.count else { return all }
        return Array(all.prefix(Int(limit)))
    }

    /// The current item with id `id`, localised.
    func item(withID id: String, locale: String) -> ShortcutItem? {
        switch itemsByID[id] {
        case .static(let index): bundle.localized(bundle.staticItems[index], locale: locale)
        case .dynamic(let index): dynamicItems[index]
        case nil: nil
        }
    }

    /// The current item of `type`, localised: the first static one, else the
    /// first dynamic one.
    func item(ofType type: String, locale: String) -> ShortcutItem? {
        if let item = bundle.staticItems.first(where: { $0.type == type }) {
            return bundle.localized(item, locale: locale)
        }
        return dynamicItems.first { $0.type == type }
    }

    func resolvedIcon(of item: ShortcutItem) -> String? {
        guard let icon = item.icon else { return nil }
        if let known = icons.withLock({ $0[icon] }) { return known }
        let resolved = try? bundle.resolvedIcon(icon)
        icons.withLock { $0[icon] = resolved }
        return resolved
    }

    private func encode(locale: String) -> [Value] {
        bundle.localizedStaticItems(locale: locale).map { encode($0, origin: ItemKey.Origin.static) }
            + dynamicItems.map { encode($0, origin: ItemKey.Origin.dynamic) }
    }

    private func encode(_ item: ShortcutItem, origin: String) -> Value {
        ListedItem.encode(
            id: item.id ?? item.type, type: item.type, title: item.title, subtitle: item.subtitle,
            icon: resolvedIcon(of: item), userInfo: UserInfoConversion.value(item.userInfo), origin: origin)
    }
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
