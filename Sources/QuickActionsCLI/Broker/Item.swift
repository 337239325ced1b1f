import DBus
import QuickActionsAPI

/// One quick action as the broker lists it (an `a{sv}`, read by the contract's item codec),
/// with the fields the CLI shows; `raw` keeps the exact dictionary for `--json`.
public struct Item: Sendable, Equatable {
    /// Unique within the app and stable: what `invoke --id` and `pick` perform by.
    public let id: String
    public let type: String
    public let title: String
    public let subtitle: String?
    public let icon: String?
    /// "static" or "dynamic".
    public let origin: String
    /// The whole dictionary as received.
    public let raw: Value

    public init(type: String, title: String, subtitle: String? = nil, icon: String? = nil, origin: String,
                userInfo: [DictionaryEntry] = [], id: String? = nil) {
        let id = id ?? type
        self.id = id
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.origin = origin
        raw = ListedItem.encode(
            id: id, type: type, title: title, subtitle: subtitle, icon: icon,
            userInfo: .dictionary(key: .string, value: .variant, userInfo), origin: origin)
    }

    /// Reads an item dictionary; `type` and `title` must be strings.
    public init(decoding value: Value, app: String) throws(CLIError) {
        let item: ListedItem
        do {
            item = try ListedItem(decoding: value, app: app)
        } catch {
            throw .failed("the broker sent an item that does not follow the API: \(error.message)")
        }
        self.init(item)
    }

    init(_ item: ListedItem) {
        id = item.id
        type = item.type
        title = item.title
        subtitle = item.subtitle
        icon = item.icon
        origin = item.origin
        raw = item.raw
    }

    /// The usage score, in listings asked for in "frecency" order.
    public var frecency: Double? { raw.dictionary?[.string(ItemKey.frecency)]?.double }

    /// Reads an `aa{sv}`.
    static func list(decoding value: Value?, app: String) throws(CLIError) -> [Item] {
        do {
            return try ListedItem.list(decoding: value, app: app).map(Item.init)
        } catch {
            throw .failed("the broker sent items that do not follow the API: \(error.message)")
        }
    }
}
