/// One request to perform a quick action.
public struct ShortcutAction: Sendable, Hashable {
    /// The item: its type, title and subtitle (localised for the caller),
    /// its icon as declared, and its user info.
    public var item: ShortcutItem
    /// Data from the caller (the D-Bus `arguments` option); empty when none.
    public var arguments: UserInfo
    /// An XDG activation token to raise a window with, when the caller gave one.
    public var activationToken: String?
    /// The icon as clients show it: a freedesktop icon name or an absolute path.
    public var resolvedIcon: String?

    public init(item: ShortcutItem, arguments: UserInfo = [:], activationToken: String? = nil, resolvedIcon: String? = nil) {
        self.item = item
        self.arguments = arguments
        self.activationToken = activationToken
        self.resolvedIcon = resolvedIcon
    }
}

/// What a completion reports: success or failure, and a message the broker
/// passes to the caller.
public struct ActionResult: Sendable, Hashable {
    public var success: Bool
    public var message: String?

    public init(success: Bool, message: String? = nil) {
        self.success = success
        self.message = message
    }

    /// The action was performed.
    public static func success(_ message: String? = nil) -> ActionResult {
        ActionResult(success: true, message: message)
    }

    /// The action failed; `message` says why.
    public static func failure(_ message: String) -> ActionResult {
        ActionResult(success: false, message: message)
    }
}
