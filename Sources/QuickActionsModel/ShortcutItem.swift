/// One quick action, as iOS's `UIApplicationShortcutItem`.
///
/// For static items `title` and `subtitle` are the manifest's strings, which
/// are also keys into the bundle's `InfoPlist.strings` tables; localisation
/// happens when items are listed, not here.
public struct ShortcutItem: Sendable, Hashable {
    /// `UIApplicationShortcutItemType`: the app-defined identifier of the action.
    public var type: String
    public var title: String
    public var subtitle: String?
    public var icon: ShortcutIcon?
    public var userInfo: UserInfo
    /// The item's identity within its app: unique and stable across listings, republishes
    /// and restarts. A plugin may set it for a dynamic item (at most
    /// ``ItemLimits/maximumIDBytes`` bytes); left `nil`, the broker derives one from the
    /// type and user info (``ItemIdentity``). A static item's id is its type. Items the
    /// broker lists and performs always carry one.
    public var id: String?

    public init(
        type: String,
        title: String,
        subtitle: String? = nil,
        icon: ShortcutIcon? = nil,
        userInfo: UserInfo = [:],
        id: String? = nil
    ) {
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.userInfo = userInfo
        self.id = id
    }
}
