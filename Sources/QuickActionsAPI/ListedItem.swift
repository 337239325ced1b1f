import DBus

/// One item as the broker lists it: the item codec's decoded form, for the CLI and the
/// bridges. `raw` keeps the exact dictionary, keys this version does not know included.
public struct ListedItem: Sendable, Equatable {
    public let id: String
    public let type: String
    public let title: String
    public let subtitle: String?
    public let icon: String?
    /// ``ItemKey/Origin``: "static" or "dynamic".
    public let origin: String
    /// ``ItemKey/Provider``: the item provider that gave the item, nil for a plugin's item.
    public let provider: String?
    /// The user info as received (`a{sv}`); an empty dictionary when absent.
    public let userInfo: Value
    /// The whole dictionary as received.
    public let raw: Value

    /// Reads an item dictionary: `type` and `title` must be strings. An item from a broker
    /// older than item ids has none: its type stands in, as the broker itself would derive.
    public init(decoding value: Value, app: String) throws(APIDecodingError) {
        guard let fields = value.dictionary else {
            throw APIDecodingError("an item of app \(app.quoted()) is \(value.type.signature), not a{sv}")
        }
        func string(_ key: String) -> String? { fields[.string(key)]?.string }
        guard let type = string(ItemKey.type), let title = string(ItemKey.title) else {
            throw APIDecodingError("an item of app \(app.quoted()) has no string \"type\" and \"title\"")
        }
        self.type = type
        self.title = title
        id = string(ItemKey.id) ?? type
        subtitle = string(ItemKey.subtitle)
        icon = string(ItemKey.icon)
        origin = string(ItemKey.origin) ?? ""
        provider = string(ItemKey.provider)
        userInfo = fields[.string(ItemKey.userInfo)]?.unwrappedVariant ?? .dictionary(key: .string, value: .variant, [])
        raw = value
    }

    /// Reads an `aa{sv}`.
    public static func list(decoding value: Value?, app: String) throws(APIDecodingError) -> [ListedItem] {
        guard let elements = value?.array else {
            throw APIDecodingError("the items of app \(app.quoted()) are \(value?.type.signature ?? "missing"), not aa{sv}")
        }
        var items: [ListedItem] = []
        items.reserveCapacity(elements.count)
        for element in elements {
            items.append(try ListedItem(decoding: element, app: app))
        }
        return items
    }

    /// The item codec's encoding, as the broker sends an item: keys in this order, optional
    /// ones only when present. `userInfo` must be an `a{sv}`.
    public static func encode(
        id: String, type: String, title: String, subtitle: String?, icon: String?, userInfo: Value, origin: String,
        provider: String? = nil
    ) -> Value {
        var entries = [
            DictionaryEntry(.string(ItemKey.id), .variant(.string(id))),
            DictionaryEntry(.string(ItemKey.type), .variant(.string(type))),
            DictionaryEntry(.string(ItemKey.title), .variant(.string(title))),
        ]
        if let subtitle {
            entries.append(DictionaryEntry(.string(ItemKey.subtitle), .variant(.string(subtitle))))
        }
        if let icon {
            entries.append(DictionaryEntry(.string(ItemKey.icon), .variant(.string(icon))))
        }
        entries.append(DictionaryEntry(.string(ItemKey.userInfo), .variant(userInfo)))
        entries.append(DictionaryEntry(.string(ItemKey.origin), .variant(.string(origin))))
        if let provider {
            entries.append(DictionaryEntry(.string(ItemKey.provider), .variant(.string(provider))))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }
}

/// A reply that does not have the shape the contract promises.
public struct APIDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// The same failure as a D-Bus error, for callers that speak DBusError.
    public var dbusError: DBusError { DBusError(.invalidSignature, message) }
}
