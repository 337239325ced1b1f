/// One item as the search bridges offer it: the broker's item with its app's name, flattened.
public struct SearchEntry: Sendable, Equatable {
    public var appID: String
    public var appName: String
    /// The app's own icon (a freedesktop icon name or an absolute path), "" when it has none.
    public var appIcon: String
    /// The item's id, unique within its app: what the bridges perform it by.
    public var itemID: String
    public var type: String
    public var title: String
    public var subtitle: String?
    public var icon: String?
    /// The broker's usage score (option `order` "frecency"); 0 when never used.
    public var frecency: Double

    public init(appID: String, appName: String, appIcon: String = "", itemID: String, type: String, title: String,
                subtitle: String? = nil, icon: String? = nil, frecency: Double = 0) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.itemID = itemID
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.frecency = frecency
    }

    /// The id GNOME Shell and KRunner hand back: see ``ResultID``.
    public var resultID: String { ResultID(appID: appID, itemID: itemID).rawValue }
}

/// A search result's identifier: `<app id>/<item id>`. App ids never contain "/", so the first
/// "/" splits it; the item id may contain anything.
public struct ResultID: Sendable, Hashable {
    public var appID: String
    public var itemID: String

    public init(appID: String, itemID: String) {
        self.appID = appID
        self.itemID = itemID
    }

    /// Parses an identifier a desktop shell handed back; nil when it has no "/" or an empty part.
    public init?(_ rawValue: String) {
        guard let slash = rawValue.firstIndex(of: "/") else { return nil }
        let app = String(rawValue[..<slash])
        let item = String(rawValue[rawValue.index(after: slash)...])
        guard !app.isEmpty, !item.isEmpty else { return nil }
        self.init(appID: app, itemID: item)
    }

    public var rawValue: String { "\(appID)/\(itemID)" }
}
