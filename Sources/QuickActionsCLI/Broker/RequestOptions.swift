import DBus
import QuickActionsAPI

/// The `a{sv}` options of the broker's calls, built only from what was given.
public struct RequestOptions: Sendable, Equatable {
    public var locale: String?
    public var limit: UInt32?
    public var timeoutMilliseconds: UInt32?
    /// The `arguments` dictionary (`a{sv}`), passed to the plugin as caller data.
    public var arguments: Value?
    public var activationToken: String?
    /// Perform only: exactly the item with this id.
    public var itemID: String?
    /// GetItems/GetAllItems: "display" or "frecency".
    public var order: String?

    public init(locale: String? = nil, limit: UInt32? = nil, timeoutMilliseconds: UInt32? = nil,
                arguments: Value? = nil, activationToken: String? = nil, itemID: String? = nil, order: String? = nil) {
        self.itemID = itemID
        self.order = order
        self.locale = locale
        self.limit = limit
        self.timeoutMilliseconds = timeoutMilliseconds
        self.arguments = arguments
        self.activationToken = activationToken
    }

    /// The options dictionary as sent.
    public var value: Value {
        var entries: [DictionaryEntry] = []
        func add(_ key: String, _ value: Value) {
            entries.append(DictionaryEntry(.string(key), .variant(value)))
        }
        if let locale { add(BrokerAPI.Option.locale, .string(locale)) }
        if let limit { add(BrokerAPI.Option.limit, .uint32(limit)) }
        if let timeoutMilliseconds { add(BrokerAPI.Option.timeoutMilliseconds, .uint32(timeoutMilliseconds)) }
        if let arguments { add(BrokerAPI.Option.arguments, arguments) }
        if let activationToken { add(BrokerAPI.Option.activationToken, .string(activationToken)) }
        if let itemID { add(BrokerAPI.Option.itemID, .string(itemID)) }
        if let order { add(BrokerAPI.Option.order, .string(order)) }
        return .dictionary(key: .string, value: .variant, entries)
    }
}
