import DBus
import QuickActionsAPI
import QuickActionsModel

/// Items and requests on the host protocol (dbus/org.quickactions.Host1.xml): the model's
/// ``ShortcutItem`` with its icon as declared, both ways. Decoding trusts nothing: a host
/// item may come from a plugin's process.
public enum HostItemCodec {
    public static let itemType = DBusType.dictionary(key: .string, value: .variant)

    /// An item as Perform's `item` or one of SetDynamicItems' `items`.
    public static func encode(_ item: ShortcutItem) -> Value {
        var entries: [DictionaryEntry] = []
        func add(_ key: String, _ value: Value) {
            entries.append(DictionaryEntry(.string(key), .variant(value)))
        }
        if let id = item.id { add(QuickActionsAPI.ItemKey.id, .string(id)) }
        add(QuickActionsAPI.ItemKey.type, .string(item.type))
        add(QuickActionsAPI.ItemKey.title, .string(item.title))
        if let subtitle = item.subtitle { add(QuickActionsAPI.ItemKey.subtitle, .string(subtitle)) }
        switch item.icon {
        case .type(let type): add(HostAPI.ItemKey.iconType, .string(type.rawValue))
        case .symbol(let name): add(HostAPI.ItemKey.iconSymbol, .string(name))
        case .file(let path): add(HostAPI.ItemKey.iconFile, .string(path))
        case nil: break
        }
        add(QuickActionsAPI.ItemKey.userInfo, UserInfoConversion.value(item.userInfo))
        return .dictionary(key: .string, value: .variant, entries)
    }

    /// Reads a host item; `label` ("item 3") starts every error.
    public static func decode(_ value: Value, label: String) throws(DBusError) -> ShortcutItem {
        guard case .dictionary(.string, .variant, let entries) = value else {
            throw DBusError.invalidArgs("\(label) is \(value.type.signature), not a{sv}")
        }
        var fields: [String: Value] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            fields[key] = entry.value.unwrappedVariant
        }
        return try decode(fields: fields, label: label)
    }

    /// Reads a host item from its `a{sv}` as typed decoding gives it (each variant's contents).
    public static func decode(fields: [String: Value], label: String) throws(DBusError) -> ShortcutItem {
        func string(_ key: String) throws(DBusError) -> String? {
            guard let field = fields[key] else { return nil }
            guard case .string(let text) = field else {
                throw DBusError.invalidArgs("\(label): \(key) is \(field.type.signature), not s")
            }
            return text
        }
        guard let type = try string(QuickActionsAPI.ItemKey.type), let title = try string(QuickActionsAPI.ItemKey.title) else {
            throw DBusError.invalidArgs("\(label) has no string \"type\" and \"title\"")
        }
        var icon: ShortcutIcon?
        if let name = try string(HostAPI.ItemKey.iconType) {
            guard let iconType = ShortcutIconType(rawValue: name) else {
                throw DBusError.invalidArgs("\(label): unknown icon type \(name.quoted())")
            }
            icon = .type(iconType)
        } else if let name = try string(HostAPI.ItemKey.iconSymbol) {
            icon = .symbol(name)
        } else if let path = try string(HostAPI.ItemKey.iconFile) {
            icon = .file(path)
        }
        var userInfo: UserInfo = [:]
        if let info = fields[QuickActionsAPI.ItemKey.userInfo] {
            userInfo = try UserInfoConversion.userInfo(info, option: "\(label).user-info")
        }
        return ShortcutItem(
            type: type, title: title, subtitle: try string(QuickActionsAPI.ItemKey.subtitle), icon: icon,
            userInfo: userInfo, id: try string(QuickActionsAPI.ItemKey.id))
    }

    /// SetDynamicItems' `aa{sv}`.
    public static func encode(_ items: [ShortcutItem]) -> Value {
        .array(itemType, items.map(encode))
    }

    public static func decodeList(_ value: Value) throws(DBusError) -> [ShortcutItem] {
        guard case .array(_, let elements) = value else {
            throw DBusError.invalidArgs("items are \(value.type.signature), not aa{sv}")
        }
        guard elements.count <= ItemLimits.maximumItems else {
            throw DBusError.invalidArgs("\(elements.count) items, more than the \(ItemLimits.maximumItems) an app may have")
        }
        var items: [ShortcutItem] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            items.append(try decode(element, label: "item \(index)"))
        }
        return items
    }

    /// Perform's `request`.
    public static func encodeRequest(resolvedIcon: String?, arguments: UserInfo, activationToken: String?) -> Value {
        var entries: [DictionaryEntry] = []
        if let resolvedIcon {
            entries.append(DictionaryEntry(.string(HostAPI.RequestKey.resolvedIcon), .variant(.string(resolvedIcon))))
        }
        if !arguments.isEmpty {
            entries.append(DictionaryEntry(.string(HostAPI.RequestKey.arguments), .variant(UserInfoConversion.value(arguments))))
        }
        if let activationToken {
            entries.append(DictionaryEntry(.string(HostAPI.RequestKey.activationToken), .variant(.string(activationToken))))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }

    public static func decodeRequest(_ value: Value) throws(DBusError) -> (resolvedIcon: String?, arguments: UserInfo, activationToken: String?) {
        guard case .dictionary(.string, .variant, let entries) = value else {
            throw DBusError.invalidArgs("request is \(value.type.signature), not a{sv}")
        }
        var fields: [String: Value] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            fields[key] = entry.value
        }
        return try decodeRequest(fields: fields)
    }

    /// Perform's `request` as typed decoding gives it (each variant's contents).
    public static func decodeRequest(fields: [String: Value]) throws(DBusError) -> (resolvedIcon: String?, arguments: UserInfo, activationToken: String?) {
        var resolvedIcon: String?
        var arguments: UserInfo = [:]
        var token: String?
        for (key, value) in fields {
            let field = value.unwrappedVariant
            switch key {
            case HostAPI.RequestKey.resolvedIcon: resolvedIcon = field.string
            case HostAPI.RequestKey.activationToken: token = field.string
            case HostAPI.RequestKey.arguments: arguments = try UserInfoConversion.userInfo(field, option: key)
            default: continue
            }
        }
        return (resolvedIcon, arguments, token)
    }
}
