import QuickActionsModel

/// What the broker supplies to a loaded plugin: where its dynamic items and
/// log lines go. Both closures may be called on any thread, concurrently.
public struct PluginCallbacks: Sendable {
    /// Receives the plugin's whole new list of dynamic items, already read
    /// and checked against the ABI (strings are valid UTF-8, icon types are
    /// known, trees are within the ABI's hard bounds). Throw to refuse it,
    /// for instance for exceeding the broker's limits: the plugin then gets
    /// `QA_STATUS_REJECTED` and the rejection's message, and its previous
    /// list must stay.
    public var setDynamicItems: @Sendable ([ShortcutItem]) throws(DynamicItemsRejection) -> Void
    /// Receives the plugin's log lines and the loader's lines about it.
    public var log: @Sendable (PluginLogRecord) -> Void
    /// Called with true right before the host calls into plugin code (init,
    /// launch, perform, will-resign) and with false right after it returns,
    /// on the plugin's queue. The broker records it where a crash leaves it
    /// behind, to know which plugin took the process down.
    public var runningPluginCode: @Sendable (Bool) -> Void
    /// The app's dynamic items as the broker keeps them (the list last set,
    /// stored across restarts), for the host table's `get_dynamic_items`.
    public var dynamicItems: @Sendable () -> [ShortcutItem]

    public init(
        setDynamicItems: @escaping @Sendable ([ShortcutItem]) throws(DynamicItemsRejection) -> Void,
        log: @escaping @Sendable (PluginLogRecord) -> Void,
        runningPluginCode: @escaping @Sendable (Bool) -> Void = { _ in },
        dynamicItems: @escaping @Sendable () -> [ShortcutItem] = { [] }
    ) {
        self.setDynamicItems = setDynamicItems
        self.log = log
        self.runningPluginCode = runningPluginCode
        self.dynamicItems = dynamicItems
    }
}

/// The broker's refusal of a dynamic-item list, with the reason the plugin
/// receives (for instance "item 3 (\"x\"): title is 2048 bytes, at most 1024").
public struct DynamicItemsRejection: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One log line about a plugin.
public struct PluginLogRecord: Sendable, Hashable, CustomStringConvertible {
    /// Who wrote it.
    public enum Origin: Sendable, Hashable {
        /// The plugin, through the host table's `log`.
        case plugin
        /// The loader, about the plugin's behaviour (a completion called twice, bad items).
        case loader
    }

    public var level: LogLevel
    public var origin: Origin
    /// The app id of the plugin.
    public var appID: String
    public var message: String

    public init(level: LogLevel, origin: Origin, appID: String, message: String) {
        self.level = level
        self.origin = origin
        self.appID = appID
        self.message = message
    }

    public var description: String {
        "\(appID)\(origin == .loader ? " (loader)" : ""): \(level): \(message)"
    }

    /// The record without its level, for a log that prints its own:
    /// `<app id>: <message>`, or `<app id> (loader): <message>`.
    public var text: String {
        "\(appID)\(origin == .loader ? " (loader)" : ""): \(message)"
    }
}
