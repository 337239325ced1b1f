// Favorites: the QuickActions version of "Quick guide on home screen quick actions for SwiftUI"
// (SwiftLee). See plugins/README.md.
//
// - One dynamic item, `favoritesAction` ("Favorites", symbol "heart"), present only while the
//   user has favorites; an empty dynamic list when there are none. Published at load, after
//   every change, and when the plugin resigns (the article's scenePhase == .background).
// - The broker performs only current items, so while there are no favorites the static
//   `browseAction` is the way in. Favorites change through any perform's caller arguments:
//   `add` (s), `remove` (s), `clear` (b); see FavoritesRequest.
// - As the article's scene delegate handles a launch item in willConnectTo, the launch item is
//   handled in the launch callback (perform is not called for it); later ones in perform.
//
// Messages: "Browsing", "Showing <n> favorites: <names>" or "No favorites", followed by what changed
// ("; added Tea", "; removed Tea", "; cleared 2 favorites", "; Tea is already a favorite").
import Foundation
import QuickActionsSDK

final class FavoritesPlugin: QuickActionsPlugin {
    private let host: PluginHost
    /// Touched only from the callbacks, on the plugin's queue.
    private var store: FavoritesStore

    init(host: PluginHost) throws {
        self.host = host
        guard let folder = host.dataDirectory else { throw FavoritesError.noDataDirectory }
        store = try FavoritesStore(folder: folder)
        publish()
    }

    func didFinishLaunching(
        with action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void
    ) -> LaunchDecision {
        completion(handle(action))
        return .handled
    }

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        completion(handle(action))
    }

    func willResignActive() {
        publish()
    }

    /// Applies the caller's changes, then describes the action on the favorites as they are now.
    private func handle(_ action: ShortcutAction) -> ActionResult {
        do throws(FavoritesError) {
            guard let type = FavoritesActionType(rawValue: action.item.type) else {
                throw .unknownType(action.item.type)
            }
            let request = try FavoritesRequest(arguments: action.arguments)
            let changes = try apply(request)
            if !changes.isEmpty { publish() }
            let names = store.favorites
            let summary: String
            switch type {
            case .browse:
                summary = "Browsing"
            case .favorites where names.isEmpty:
                summary = "No favorites"
            case .favorites:
                summary = "Showing \(names.count) favorite\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))"
            }
            return .success(([summary] + changes).joined(separator: "; "))
        } catch {
            return .failure(error.description)
        }
    }

    /// Applies `request` and lists what it changed.
    private func apply(_ request: FavoritesRequest) throws(FavoritesError) -> [String] {
        var changes: [String] = []
        if request.clear {
            let count = try store.removeAll()
            changes.append("cleared \(count) favorite\(count == 1 ? "" : "s")")
        }
        if let name = request.remove {
            try store.remove(name)
            changes.append("removed \(name)")
        }
        if let name = request.add {
            changes.append(try store.add(name) ? "added \(name)" : "\(name) is already a favorite")
        }
        return changes
    }

    /// The article's updateShortcutItems(): the Favorites item while there are favorites, else none.
    private func publish() {
        host.shortcutItems = store.favorites.isEmpty ? [] : [FavoritesActionType.favoritesItem]
    }
}

/// The entry symbol the broker looks up: this plugin's descriptor.
@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(FavoritesPlugin.self, name: "Favorites") }
