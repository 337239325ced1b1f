import QuickActionsModel

/// One perform-action request, as the plugin receives it.
public struct PerformRequest: Sendable, Hashable {
    /// The item, its title and subtitle already localised for the caller.
    public var item: ShortcutItem
    /// The icon as clients see it (a freedesktop icon name or an absolute path), if any.
    public var resolvedIcon: String?
    /// Caller data (the D-Bus `arguments` option).
    public var arguments: UserInfo
    /// The caller's XDG activation token, if any.
    public var activationToken: String?

    public init(item: ShortcutItem, resolvedIcon: String? = nil, arguments: UserInfo = [:], activationToken: String? = nil) {
        self.item = item
        self.resolvedIcon = resolvedIcon
        self.arguments = arguments
        self.activationToken = activationToken
    }
}

/// What a plugin's completion said.
public struct PerformOutcome: Sendable, Hashable {
    public var success: Bool
    /// The plugin's message, if it gave one.
    public var message: String?

    public init(success: Bool, message: String? = nil) {
        self.success = success
        self.message = message
    }
}
