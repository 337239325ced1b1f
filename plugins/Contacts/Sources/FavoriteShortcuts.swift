import Foundation
import QuickActionsSDK

/// Publishes one `FavoriteAction` per favorite contact as the app's dynamic items, as the iOS
/// sample assigns `application.shortcutItems` in `applicationWillResignActive`.
///
/// Used from the plugin's callbacks and from the file watcher's queue, which may call `publish`
/// in any order: a snapshot older than the last one published is dropped, so a slow watcher can
/// never put back favorites a perform has already changed.
final class FavoriteShortcuts: @unchecked Sendable {
    // @unchecked: `published` and `generation` are only read or written while holding `lock`;
    // `host` is thread-safe.
    private let host: PluginHost
    private let lock = NSLock()
    private var published: [ShortcutItem]?
    private var generation: UInt64?

    init(host: PluginHost) {
        self.host = host
    }

    /// Sets the dynamic items to the snapshot's favorites. A snapshot older than the last one
    /// published is dropped; unless `always`, a list equal to the last one published is not sent
    /// again (the watcher also sees the plugin's own writes).
    func publish(_ snapshot: ContactBook.Snapshot, always: Bool = false) {
        let items = snapshot.favorites.map(\.favoriteShortcut)
        lock.withLock {
            if let generation, snapshot.generation < generation { return }
            guard always || items != published else {
                generation = snapshot.generation
                return
            }
            do {
                try host.setShortcutItems(items)
                published = items
                generation = snapshot.generation
            } catch {
                host.log("cannot publish \(items.count) favorite contacts: \(error)", level: .error)
            }
        }
    }
}
