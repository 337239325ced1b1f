import Locking
import CQuickActionsPlugin
import Foundation
import QuickActionsABI

/// The plugin's handle on the broker, as `UIApplication.shared` is an iOS
/// app's: set dynamic items, find the data directory, log. Thread-safe: use
/// it from any thread, for the life of the process.
public final class PluginHost: Sendable {
    private let table: HostTableReference
    private let lastItems = Locked<[ShortcutItem]>([])

    init(table: HostTableReference) {
        self.table = table
    }

    /// The app id (CFBundleIdentifier) the plugin serves.
    public var appID: String {
        guard let function = table.pointer.pointee.app_id,
            let text = CStrings.message(function(table.pointer.pointee.context))
        else { return "" }
        return text
    }

    /// The folder for the plugin's own files (created, mode 0700, on first
    /// use); nil if it could not be created, with the reason in the broker's log.
    public var dataDirectory: URL? {
        guard let function = table.pointer.pointee.data_directory,
            let path = CStrings.message(function(table.pointer.pointee.context))
        else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The app's dynamic quick actions, as `UIApplication.shortcutItems`.
    /// Setting replaces the whole list (an empty list removes them all); a
    /// list the broker refuses is logged and the previous one stays. Use
    /// ``setShortcutItems(_:)`` to handle the refusal yourself.
    ///
    /// Reading returns the last list set through this host since the plugin
    /// was loaded (the broker keeps the list across restarts, but does not
    /// hand it back: an empty list after a restart does not mean the broker
    /// has none).
    public var shortcutItems: [ShortcutItem] {
        get { lastItems.withLock { $0 } }
        set {
            do {
                try setShortcutItems(newValue)
            } catch {
                log("\(error)", level: .error)
            }
        }
    }

    /// Replaces the app's whole list of dynamic items, or throws why the
    /// broker refused it (the previous list then stays).
    public func setShortcutItems(_ items: [ShortcutItem]) throws(ShortcutItemsError) {
        guard let function = table.pointer.pointee.set_dynamic_items else {
            throw .invalid("the host offers no set_dynamic_items")
        }
        let size = Int(QA_ERROR_BUFFER_SIZE)
        var status: qa_status = QA_STATUS_OK
        var message = ""
        let arena = CArena()
        withExtendedLifetime(arena) {
            let list = ABIEncoder(arena: arena).itemList(items)
            let buffer = arena.allocate(CChar.self, count: size)
            status = function(table.pointer.pointee.context, list, items.count, buffer, size)
            message = CStrings.message(inBuffer: buffer, size: size)
        }
        switch status {
        case QA_STATUS_OK:
            lastItems.withLock { $0 = items }
        case QA_STATUS_REJECTED:
            throw .rejected(message)
        default:
            throw .invalid(message.isEmpty ? "status \(status)" : message)
        }
    }

    /// Writes a line to the broker's log, attributed to this plugin.
    public func log(_ message: String, level: LogLevel = .info) {
        guard let function = table.pointer.pointee.log else { return }
        message.withCString { function(table.pointer.pointee.context, level.rawValue, $0) }
    }

    /// A completion for the perform numbered `id`, callable from any thread;
    /// the host ignores any call after the first.
    func completion(for id: qa_completion) -> @Sendable (ActionResult) -> Void {
        let table = self.table
        return { result in
            guard let function = table.pointer.pointee.complete else { return }
            if let message = result.message {
                message.withCString { function(table.pointer.pointee.context, id, result.success, $0) }
            } else {
                function(table.pointer.pointee.context, id, result.success, nil)
            }
        }
    }
}

/// Log levels of ``PluginHost/log(_:level:)``.
public enum LogLevel: Int32, Sendable, Hashable {
    case debug = 0
    case info = 1
    case warning = 2
    case error = 3
}

/// The host's `qa_host` table.
struct HostTableReference: @unchecked Sendable {
    // @unchecked: the header promises the table and its context stay valid
    // until the process exits and that every function in it is thread-safe.
    let pointer: UnsafePointer<qa_host>
}
