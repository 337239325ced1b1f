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
    var itemID: String?
    var order: ListingOrder = .display

    /// Options decoded by a typed method: the same rules, keys in sorted
    /// order so that of two bad options the same one is always named.
    init(_ options: [String: Value]) throws(DBusError) {
        try self.init(.dictionary(key: .string, value: .variant, options.sorted { $0.key < $1.key }.map {
            DictionaryEntry(.string($0.key), .variant($0.value))
        }))
    }

    init(_ value: Value) throws(DBusError) {
        guard case .dictionary(.string, .variant, let entries) = value else {
            throw DBusError.invalidArgs("options must be a{sv}, got \"\(value.type.signature)\"")
        }
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let option) = entry.value else { continue }
            switch key {
            case BrokerAPI.Option.locale:
                guard case .string(let text) = option else { throw Self.wrongType(key, "s", option) }
                locale = text.isEmpty ? nil : text
            case BrokerAPI.Option.limit:
                guard case .uint32(let number) = option else { throw Self.wrongType(key, "u", option) }
                limit = number
            case BrokerAPI.Option.timeoutMilliseconds:
                guard case .uint32(let number) = option else { throw Self.wrongType(key, "u", option) }
                guard BrokerConfiguration.timeoutRange.contains(number) else {
                    throw DBusError.invalidArgs("option \"\(key)\" is \(number); it must be 1 to \(BrokerAPI.maximumTimeoutMilliseconds)")
                }
                timeoutMilliseconds = number
            case BrokerAPI.Option.arguments:
                arguments = try UserInfoConversion.userInfo(option, option: key)
                // Measured as the store measures user info: keys and framing included.
                let size = DynamicItemCoder.encodedSize(of: .dictionary(arguments))
                guard size <= ItemLimits.maximumUserInfoBytes else {
                    throw DBusError.invalidArgs(
                        "option \"\(key)\" is \(size) bytes encoded, more than \(ItemLimits.maximumUserInfoBytes)")
                }
            case BrokerAPI.Option.activationToken:
                guard case .string(let text) = option else { throw Self.wrongType(key, "s", option) }
                activationToken = text
            case BrokerAPI.Option.itemID:
                guard case .string(let text) = option else { throw Self.wrongType(key, "s", option) }
                itemID = text
            case BrokerAPI.Option.order:
                guard case .string(let text) = option else { throw Self.wrongType(key, "s", option) }
                order = try ListingOrder(option: text)
            default:
                continue
            }
        }
    }

    private static func wrongType(_ key: String, _ expected: String, _ got: Value) -> DBusError {
        DBusError.invalidArgs("option \(key.quoted()) must have type \"\(expected)\", got \"\(got.type.signature)\"")
    }
}
