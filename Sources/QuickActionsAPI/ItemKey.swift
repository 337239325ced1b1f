/// The keys of an item's `a{sv}` in every reply that carries items (GetItems, GetAllItems,
/// the Items property, GetManagedObjects).
public enum ItemKey {
    /// s: unique within its app and stable across listings, republishes and restarts.
    public static let id = "id"
    /// s: the app-defined action identifier (UIApplicationShortcutItemType).
    public static let type = "type"
    /// s: localised for the call's locale.
    public static let title = "title"
    /// s: only when the item has one.
    public static let subtitle = "subtitle"
    /// s: a freedesktop icon name or an absolute path; only when the item has one.
    public static let icon = "icon"
    /// a{sv}: the item's user info.
    public static let userInfo = "user-info"
    /// s: ``Origin``.
    public static let origin = "origin"
    /// s: only on items an item provider gives rather than a plugin (``Provider``): which one.
    public static let provider = "provider"

    /// The values of ``origin``.
    public enum Origin {
        public static let `static` = "static"
        public static let dynamic = "dynamic"
    }

    /// The values of ``provider``: the broker's own item providers (issue 33).
    public enum Provider {
        /// An installed application's `[Desktop Action]`: launchers show these on the icon already.
        public static let desktopActions = "desktop-actions"
        /// A document the app opened lately (`recently-used.xbel`).
        public static let recentDocuments = "recent-documents"
        /// A control of a playing MPRIS player.
        public static let mediaPlayers = "media-players"
    }
}
