import Foundation
import QuickActionsSDK

/// Publishes one `FavoriteAction` per favorite contact as the app's dynamic items, as the iOS
/// sample assigns `application.shortcutItems` in `applicationWillResignActive`.
///
/// Used from the plugin's callbacks and from the file watcher's queue.
final class FavoriteShortcuts: @unchecked Sendable {
    // @unchecked: `published` is only read or written while holding `lock`; `host` is thread-safe.
    private let host: PluginHost
    private let lock = NSLock()
    private var published: [ShortcutItem]?

    init(host: PluginHost) {
        self.host = host
    }

    /// Sets the dynamic items to `favorites`' shortcuts. Unless `always`, a list equal to the
    /// last one published is not sent again (the watcher also sees the plugin's own writes).
    func publish(_ favorites: [Contact], always: Bool = false) {
        let items = favorites.map(\.favoriteShortcut)
        lock.withLock {
            guard always || items != published else { return }
            do {
                try host.setShortcutItems(items)
                published = items
            } catch {
                host.log("cannot publish \(items.count) favorite contacts: \(error)", level: .error)
            }
        }
    }
}
