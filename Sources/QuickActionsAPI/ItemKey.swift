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

    /// The values of ``origin``.
    public enum Origin {
        public static let `static` = "static"
        public static let dynamic = "dynamic"
    }
}
