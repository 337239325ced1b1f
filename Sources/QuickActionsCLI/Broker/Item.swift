import DBus
import QuickActionsAPI

/// One quick action as the broker lists it (an `a{sv}`), with the fields the
/// CLI shows; `raw` keeps the exact dictionary for `--json`.
public struct Item: Sendable, Equatable {
    public let type: String
    public let title: String
    public let subtitle: String?
    public let icon: String?
    /// "static" or "dynamic".
    public let origin: String
    /// The whole dictionary as received.
    public let raw: Value

    public init(type: String, title: String, subtitle: String? = nil, icon: String? = nil, origin: String,
                userInfo: [DictionaryEntry] = []) {
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.origin = origin
        var entries = [
            DictionaryEntry(.string("type"), .variant(.string(type))),
            DictionaryEntry(.string("title"), .variant(.string(title))),
        ]
        if let subtitle { entries.append(DictionaryEntry(.string("subtitle"), .variant(.string(subtitle)))) }
        if let icon { entries.append(DictionaryEntry(.string("icon"), .variant(.string(icon)))) }
        entries.append(DictionaryEntry(
            .string("user-info"), .variant(.dictionary(key: .string, value: .variant, userInfo))))
        entries.append(DictionaryEntry(.string("origin"), .variant(.string(origin))))
        raw = .dictionary(key: .string, value: .variant, entries)
    }

    /// Reads an item dictionary; `type` and `title` must be strings.
    public init(decoding value: Value, app: String) throws(CLIError) {
        guard let fields = value.dictionary else {
            throw .failed("the broker sent an item of app '\(app)' that is not a dictionary: \(value.type)")
        }
        func string(_ key: String) -> String? { fields[.string(key)]?.string }
        guard let type = string("type"), let title = string("title") else {
            throw .failed("the broker sent an item of app '\(app)' without a string 'type' and 'title'")
        }
        self.type = type
        self.title = title
        subtitle = string("subtitle")
        icon = string("icon")
        origin = string("origin") ?? ""
        raw = value
    }

    /// The usage score, in listings asked for in "frecency" order.
    public var frecency: Double? { raw.dictionary?[.string(ItemKey.frecency)]?.double }

    /// Reads an `aa{sv}`.
    static func list(decoding value: Value?, app: String) throws(CLIError) -> [Item] {
        guard let elements = value?.array else {
            throw .failed("the broker sent the items of app '\(app)' as something other than a list")
        }
        var items: [Item] = []
        for element in elements {
            items.append(try Item(decoding: element, app: app))
        }
        return items
    }
}
