import Locking
import CQuickActionsPlugin
import Glibc
import QuickActionsABI
import QuickActionsIconFiles
import QuickActionsModel

/// What the `context` of one plugin's `qa_host` table points to: the plugin's
/// identity, the broker's callbacks and the plugin's pending completions.
/// The host-table functions (see ``HostTable``) land here, on whatever thread
/// the plugin calls from.
final class PluginHostContext: @unchecked Sendable {
    // @unchecked: everything is immutable after init except `state`, which is
    // behind a lock; the C strings are allocated once and never freed or
    // changed, as the header promises the plugin.
    let appID: String
    let libraryPath: String
    /// The plugin's bundle folder's path: a dynamic item's icon file must resolve inside it.
    let bundle: String
    /// The path of the plugin's data directory, handed to the plugin as it is.
    let dataDirectory: String
    let callbacks: PluginCallbacks
    let completions = CompletionTable()
    /// The app id as a C string, valid until the process exits.
    let appIDCString: UnsafeMutablePointer<CChar>

    private struct State {
        /// The data directory as a C string, once created.
        var dataDirectoryCString: UnsafeMutablePointer<CChar>?
        /// Set when the plugin's load failed: its calls are refused from then on.
        var retiredReason: String?
    }

    private let state = Locked(State())

    init(appID: String, libraryPath: String, bundle: String, dataDirectory: String, callbacks: PluginCallbacks) {
        self.appID = appID
        self.libraryPath = libraryPath
        self.bundle = bundle
        self.dataDirectory = dataDirectory
        self.callbacks = callbacks
        self.appIDCString = strdup(appID) ?? Self.emptyCString()
    }

    private static func emptyCString() -> UnsafeMutablePointer<CChar> {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        buffer.initialize(to: 0)
        return buffer
    }

    /// Refuses the plugin's further calls (its load failed; it should have
    /// left nothing running, but a leftover thread must not reach the broker).
    func retire(because reason: String) {
        state.withLock { $0.retiredReason = reason }
    }

    func log(_ level: LogLevel, _ message: String, origin: PluginLogRecord.Origin = .loader) {
        callbacks.log(PluginLogRecord(level: level, origin: origin, appID: appID, message: message))
    }

    // MARK: The host-table functions

    func setDynamicItems(
        _ list: UnsafePointer<UnsafePointer<qa_item>?>?, count: Int,
        errorBuffer: UnsafeMutablePointer<CChar>?, errorSize: Int
    ) -> qa_status {
        if let reason = state.withLock({ $0.retiredReason }) {
            let message = "set_dynamic_items refused: \(reason)"
            log(.warning, message)
            CStrings.write(message, into: errorBuffer, size: errorSize)
            return QA_STATUS_REJECTED
        }
        let items: [ShortcutItem]
        do {
            var decoder = ABIDecoder()
            items = try decoder.items(list, count: count)
        } catch {
            log(.warning, "set_dynamic_items: invalid items: \(error.message)")
            CStrings.write(error.message, into: errorBuffer, size: errorSize)
            return QA_STATUS_INVALID
        }
        if let problem = Self.iconFileProblem(in: items, bundle: bundle) {
            log(.warning, "set_dynamic_items: invalid items: \(problem)")
            CStrings.write(problem, into: errorBuffer, size: errorSize)
            return QA_STATUS_INVALID
        }
        do {
            try callbacks.setDynamicItems(items)
        } catch {
            log(.warning, "set_dynamic_items: rejected: \(error.message)")
            CStrings.write(error.message, into: errorBuffer, size: errorSize)
            return QA_STATUS_REJECTED
        }
        return QA_STATUS_OK
    }

    /// `get_dynamic_items`: hands the stored items to `visit` once, in C
    /// memory that lives exactly as long as that call.
    func getDynamicItems(_ visit: qa_items_visitor?, user: UnsafeMutableRawPointer?) -> qa_status {
        guard let visit else {
            log(.warning, "get_dynamic_items called without a visit function; ignored")
            return QA_STATUS_INVALID
        }
        let items = state.withLock { $0.retiredReason } == nil ? callbacks.dynamicItems() : []
        let arena = CArena()
        withExtendedLifetime(arena) {
            let list = items.isEmpty ? nil : ABIEncoder(arena: arena).itemList(items)
            visit(user, list, items.count)
        }
        return QA_STATUS_OK
    }

    /// Why the first item whose icon is a file has a bad one (missing, not a regular file,
    /// absolute, or leading out of the bundle), or nil: refused like an unknown icon type.
    static func iconFileProblem(in items: [ShortcutItem], bundle: String) -> String? {
        for (index, item) in items.enumerated() {
            guard let icon = item.icon, case .file = icon else { continue }
            do {
                _ = try IconTable.resolve(icon, bundlePath: bundle)
            } catch {
                return "item \(index) (type \(String(item.type.prefix(80)).debugDescription)): \(error)"
            }
        }
        return nil
    }

    func pluginLog(level: Int32, message: UnsafePointer<CChar>?) {
        let text = CStrings.message(message) ?? "(log called with a NULL message)"
        log(LogLevel(rawValue: level) ?? .info, text, origin: .plugin)
    }

    /// Creates the data directory (mode 0700, and every missing folder above it) on first use.
    func dataDirectoryCString() -> UnsafePointer<CChar>? {
        let result: Result<UnsafePointer<CChar>, DirectoryCreationError> = state.withLock { state in
            if let existing = state.dataDirectoryCString {
                return .success(UnsafePointer(existing))
            }
            do throws(DirectoryCreationError) {
                try FilePaths.createDirectories(dataDirectory, mode: 0o700)
            } catch {
                return .failure(error)
            }
            guard let copy = strdup(dataDirectory) else {
                return .failure(DirectoryCreationError(path: dataDirectory, code: ENOMEM))
            }
            state.dataDirectoryCString = copy
            return .success(UnsafePointer(copy))
        }
        switch result {
        case .success(let path):
            return path
        case .failure(let error):
            log(.error, "cannot create data directory \(dataDirectory): \(error.reason(creating: dataDirectory))")
            return nil
        }
    }

    func complete(_ id: UInt64, success: Bool, message: UnsafePointer<CChar>?) {
        complete(id, outcome: PerformOutcome(success: success, message: CStrings.message(message)))
    }

    func complete(_ id: UInt64, outcome: PerformOutcome) {
        switch completions.resolve(id, with: outcome) {
        case .delivered:
            break
        case .alreadyResolved:
            log(.warning, "completion \(id) called again (or after the broker stopped waiting); ignored")
        case .unknown:
            log(.warning, "complete called with unknown completion \(id); ignored")
        }
    }
}
