import DBus
import QuickActionsModel

/// User info between the model and D-Bus: strings `s`, booleans `b`,
/// integers `x`, doubles `d`, bytes `ay`, arrays `av`, dictionaries `a{sv}`.
public enum UserInfoConversion {
    public static let dictionaryType = DBusType.dictionary(key: .string, value: .variant)

    /// A user-info dictionary as `a{sv}`.
    public static func value(_ info: UserInfo) -> Value {
        .dictionary(key: .string, value: .variant, info.keys.sorted().compactMap { key in
            info[key].map { DictionaryEntry(.string(key), .variant(value($0))) }
        })
    }

    public static func value(_ value: UserInfoValue) -> Value {
        switch value {
        case .string(let text): .string(text)
        case .bool(let flag): .boolean(flag)
        case .int(let number): .int64(number)
        case .double(let number): .double(number)
        case .bytes(let bytes): .array(.byte, bytes.map(Value.byte))
        case .array(let values): .array(.variant, values.map { .variant(Self.value($0)) })
        case .dictionary(let entries): Self.value(entries)
        }
    }

    /// Caller data (`a{sv}`) as user info. Integers of every width become
    /// 64-bit integers, `ay` bytes, other arrays arrays, string-keyed
    /// dictionaries dictionaries, variants are looked through. Anything else
    /// (object paths, signatures, structs, a `t` above Int64.max, deeper than
    /// ItemLimits.maximumUserInfoDepth) is refused with the key path at fault.
    public static func userInfo(_ value: Value, option: String) throws(DBusError) -> UserInfo {
        guard case .dictionary(.string, _, let entries) = value else {
            throw DBusError.invalidArgs("option \(option.quoted()) must be a{sv}, got \"\(value.type.signature)\"")
        }
        var info: UserInfo = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            // The dictionary itself is level 1, as ItemLimits counts.
            info[key] = try userInfoValue(entry.value, path: "\(option).\(key)", depth: 2)
        }
        return info
    }

    private static func userInfoValue(_ value: Value, path: String, depth: Int) throws(DBusError) -> UserInfoValue {
        guard depth <= ItemLimits.maximumUserInfoDepth else {
            throw DBusError.invalidArgs("\(path.quoted()) is nested deeper than \(ItemLimits.maximumUserInfoDepth) levels; more than \(ItemLimits.maximumUserInfoDepth) are refused")
        }
        switch value {
        case .variant(let inner): return try userInfoValue(inner, path: path, depth: depth)
        case .string(let text): return .string(text)
        case .boolean(let flag): return .bool(flag)
        case .byte(let number): return .int(Int64(number))
        case .int16(let number): return .int(Int64(number))
        case .uint16(let number): return .int(Int64(number))
        case .int32(let number): return .int(Int64(number))
        case .uint32(let number): return .int(Int64(number))
        case .int64(let number): return .int(number)
        case .uint64(let number):
            guard let fitting = Int64(exactly: number) else {
                throw DBusError.invalidArgs("\(path.quoted()) is \(number), more than a 64-bit signed integer holds")
            }
            return .int(fitting)
        case .double(let number): return .double(number)
        case .array(.byte, let bytes):
            return .bytes(bytes.map { if case .byte(let byte) = $0 { byte } else { 0 } })
        case .array(_, let elements):
            var converted: [UserInfoValue] = []
            converted.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                converted.append(try userInfoValue(element, path: "\(path)[\(index)]", depth: depth + 1))
            }
            return .array(converted)
        case .dictionary(.string, _, let entries):
            var converted: [String: UserInfoValue] = [:]
            for entry in entries {
                guard case .string(let key) = entry.key else { continue }
                converted[key] = try userInfoValue(entry.value, path: "\(path).\(key)", depth: depth + 1)
            }
            return .dictionary(converted)
        case .dictionary(let key, _, _):
            throw DBusError.invalidArgs("\(path.quoted()) is a dictionary with \"\(key.signature)\" keys; only string keys are supported")
        case .objectPath, .signature, .structure:
            throw DBusError.invalidArgs("\(path.quoted()) has type \"\(value.type.signature)\"; user info holds s, b, integers, d, ay, arrays and a{sv}")
        }
    }
}
