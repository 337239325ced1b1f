// Contacts: the QuickActions version of Apple's "Add Home Screen Quick Actions" sample, a small
// contact manager. See plugins/README.md.
//
// - Static items (Info.plist): SearchAction and ShareAction.
// - Dynamic items: one FavoriteAction per favorite contact (title the name, subtitle the email,
//   contact icon, user info `Name`), published at load, when the plugin resigns, and whenever
//   the contacts change: through a perform's caller arguments (`favorite`, `contact`) or by an
//   edit of contacts.json in the plugin's data directory.
// - Performing completes with "<type> triggered", plus " for <Name>" when the item carries one.
// - Launch and resume are handled alike: the launch item goes on to perform, so it is processed
//   exactly once (the sample's shortcutItemToProcess).
import Dispatch
import Foundation
import QuickActionsSDK

final class ContactsPlugin: QuickActionsPlugin {
    private let host: PluginHost
    private let book: ContactBook
    private let shortcuts: FavoriteShortcuts
    /// Kept for the life of the plugin: the watch ends with it.
    private var watcher: DataFileWatcher?

    init(host: PluginHost) throws {
        self.host = host
        guard let folder = host.dataDirectory else { throw ContactsError.noDataDirectory }
        let book = try ContactBook(folder: folder)
        let shortcuts = FavoriteShortcuts(host: host)
        self.book = book
        self.shortcuts = shortcuts
        shortcuts.publish(book.snapshot, always: true)
        do {
            watcher = try DataFileWatcher(
                folder: folder, fileName: ContactBook.fileName,
                queue: DispatchQueue(label: "com.example.contacts.watcher")
            ) {
                do {
                    try book.reload()
                    shortcuts.publish(book.snapshot)
                } catch {
                    host.log("\(error); keeping the contacts read before", level: .warning)
                }
            }
        } catch {
            host.log("\(error); edits of the contacts file are seen at the next resign", level: .warning)
        }
    }

    func perform(_ action: ShortcutAction, completion: @escaping @Sendable (ActionResult) -> Void) {
        do throws(ContactsError) {
            guard let type = ContactsActionType(rawValue: action.item.type) else {
                throw .unknownType(action.item.type)
            }
            if let change = try FavoriteChange.requested(by: action) {
                try book.apply(change)
                shortcuts.publish(book.snapshot)
            }
            var message = "\(type.rawValue) triggered"
            if case .string(let name)? = action.item.userInfo[ContactsActionType.nameKey] {
                message += " for \(name)"
            }
            completion(.success(message))
        } catch {
            completion(.failure(error.description))
        }
    }

    func willResignActive() {
        do {
            try book.reload()
        } catch {
            host.log("\(error); publishing the contacts read before", level: .warning)
        }
        shortcuts.publish(book.snapshot, always: true)
    }
}

/// The entry symbol the broker looks up: this plugin's descriptor.
@_cdecl("quickactions_plugin_entry")
public func quickActionsPluginEntry() -> PluginEntry { PluginEntry(ContactsPlugin.self, name: "Contacts") }
