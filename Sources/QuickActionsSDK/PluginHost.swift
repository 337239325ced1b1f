import Locking
import CQuickActionsPlugin
import FoundationEssentials
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

    /// The host's own ABI version (`qa_host.abi_major` / `abi_minor`), which
    /// may be older than the one this SDK was built with: the SDK's
    /// properties check the table's size before using a newer member.
    public var hostABIVersion: ABIVersion {
        ABIVersion(major: table.pointer.pointee.abi_major, minor: table.pointer.pointee.abi_minor)
    }

    /// The limits the broker enforces on ``shortcutItems``, read from the
    /// host table (`qa_host.limits`); nil from a host older than ABI 1.2,
    /// whose table has none.
    public var limits: HostLimits? {
        let table = self.table.pointer
        let offset = MemoryLayout<qa_host>.offset(of: \qa_host.limits) ?? Int.max
        guard table.pointee.struct_size >= offset + MemoryLayout<UnsafePointer<qa_limits>?>.size,
              let limits = table.pointee.limits
        else { return nil }
        return HostLimits(reading: limits)
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
    /// Reading returns the list the broker keeps (`get_dynamic_items`, ABI
    /// 1.1): the last one set, by this load or an earlier run, since the
    /// broker stores it across restarts; so a plugin can extend its list
    /// after a restart. Ids are there where the plugin gave them. From a
    /// host older than ABI 1.1, it is the last list set since this load.
    public var shortcutItems: [ShortcutItem] {
        get { storedItems() ?? lastItems.withLock { $0 } }
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

    /// The host's stored items through `get_dynamic_items`, or nil when the
    /// host's table has no such function (a host older than ABI 1.1) or
    /// handed over items that do not decode.
    private func storedItems() -> [ShortcutItem]? {
        let table = self.table.pointer
        let offset = MemoryLayout<qa_host>.offset(of: \qa_host.get_dynamic_items) ?? Int.max
        guard table.pointee.struct_size >= offset + MemoryLayout<qa_items_visitor?>.size,
              let function = table.pointee.get_dynamic_items
        else { return nil }
        let box = StoredItemsBox()
        let status = withExtendedLifetime(box) {
            function(table.pointee.context, { user, items, count in
                guard let user else { return }
                let box = Unmanaged<StoredItemsBox>.fromOpaque(user).takeUnretainedValue()
                var decoder = ABIDecoder()
                box.items = try? decoder.items(items, count: count)
            }, Unmanaged.passUnretained(box).toOpaque())
        }
        guard status == QA_STATUS_OK else { return nil }
        return box.items
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

/// The host's `qa_host` table.
struct HostTableReference: @unchecked Sendable {
    // @unchecked: the header promises the table and its context stay valid
    // until the process exits and that every function in it is thread-safe.
    let pointer: UnsafePointer<qa_host>
}

/// Carries the decoded items out of `get_dynamic_items`' C callback, which
/// runs synchronously on the calling thread before the call returns.
private final class StoredItemsBox {
    var items: [ShortcutItem]?
}
