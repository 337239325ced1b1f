import DBus
import QuickActionsAPI
import QuickActionsHostProtocol
import QuickActionsBundles
import QuickActionsModel

/// The `a{sv}` options of GetItems, GetAllItems and Perform, checked once at
/// the edge: a known option of the wrong type is refused naming it, an
/// unknown option is ignored.
struct CallOptions: Sendable {
    var locale: String?
    var limit: UInt32?
    var timeoutMilliseconds: UInt32?
    var arguments: UserInfo = [:]
    var activationToken: String?
    var desktopStartupID: String?
    var itemID: String?
    var order: ListingOrder = .display

    /// Options decoded by a typed method, read where they are: known keys
    /// are checked in sorted order, so that of two bad options the same one
    /// is always named. No options (the common case) costs nothing.
    init(_ options: [String: Value]) throws(DBusError) {
        guard !options.isEmpty else { return }
        typealias Key = BrokerAPI.Option
        if let option = options[Key.activationToken] {
            activationToken = try Self.string(Key.activationToken, option)
        }
        if let option = options[Key.desktopStartupID] {
            desktopStartupID = try Self.string(Key.desktopStartupID, option)
        }
        if let option = options[Key.arguments] {
            arguments = try UserInfoConversion.userInfo(option, option: Key.arguments)
            // Measured as the store measures user info: keys and framing included.
            let size = DynamicItemCoder.encodedSize(of: .dictionary(arguments))
            guard size <= ItemLimits.maximumUserInfoBytes else {
                throw DBusError.invalidArgs(
                    "option \(Key.arguments.quoted()) is \(size) bytes encoded, more than \(ItemLimits.maximumUserInfoBytes)")
            }
        }
        if let option = options[Key.itemID] {
            itemID = try Self.string(Key.itemID, option)
        }
        if let option = options[Key.limit] {
            guard case .uint32(let number) = option else { throw Self.wrongType(Key.limit, "u", option) }
            limit = number
        }
        if let option = options[Key.locale] {
            let text = try Self.string(Key.locale, option)
            locale = text.isEmpty ? nil : text
        }
        if let option = options[Key.order] {
            order = try ListingOrder(option: try Self.string(Key.order, option))
        }
        if let option = options[Key.timeoutMilliseconds] {
            guard case .uint32(let number) = option else { throw Self.wrongType(Key.timeoutMilliseconds, "u", option) }
            guard BrokerConfiguration.timeoutRange.contains(number) else {
                throw DBusError.invalidArgs(
                    "option \(Key.timeoutMilliseconds.quoted()) is \(number); it must be 1 to \(BrokerAPI.maximumTimeoutMilliseconds)")
            }
            timeoutMilliseconds = number
        }
    }

    /// Options as a ``Value`` of type a{sv} (for tests and `[Value]` callers): the same rules.
    init(_ value: Value) throws(DBusError) {
        guard case .dictionary(.string, .variant, let entries) = value else {
            throw DBusError.invalidArgs("options must be a{sv}, got \"\(value.type.signature)\"")
        }
        var options: [String: Value] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let option) = entry.value else { continue }
            options[key] = option
        }
        try self.init(options)
    }

    private static func string(_ key: String, _ option: Value) throws(DBusError) -> String {
        guard case .string(let text) = option else { throw wrongType(key, "s", option) }
        return text
    }

    private static func wrongType(_ key: String, _ expected: String, _ got: Value) -> DBusError {
        DBusError.invalidArgs("option \(key.quoted()) must have type \"\(expected)\", got \"\(got.type.signature)\"")
    }
}
