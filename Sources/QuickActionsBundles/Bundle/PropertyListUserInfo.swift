import Foundation
import QuickActionsModel

/// Turns property-list values (as Foundation's `PropertyListSerialization` returns them) into
/// `UserInfoValue`s without losing a type.
///
/// - `<true/>`/`<false/>` become `.bool`, `<integer>` `.int`, `<real>` `.double`: on Linux,
///   Foundation returns booleans as Swift `Bool` and numbers as `NSNumber`, whose `objCType` tells
///   integers (`i`, `q`, …) from doubles (`d`, `f`); a `c`/`B` `NSNumber` (Darwin's
///   `CFBoolean`) is a boolean. An integer above `Int64.max` is refused rather than rounded.
/// - `<data>` becomes `.bytes`.
/// - `<date>` becomes a `.string` in ISO 8601, UTC (`2024-05-01T12:00:00Z`, with fractional
///   seconds when it has them): D-Bus and the store have no date type, and a string keeps the
///   instant readable and exact to the millisecond.
/// - Nesting deeper than `ItemLimits.maximumUserInfoDepth` is refused before it is walked further.
enum PropertyListUserInfo {
    /// Converts a user-info dictionary (the value of `UIApplicationShortcutItemUserInfo`).
    static func userInfo(from object: Any) throws(ConversionError) -> UserInfo {
        guard case .dictionary(let entries) = try value(from: object, path: "", level: 1) else {
            throw ConversionError(path: "", reason: "is \(typeName(object)), not a dictionary")
        }
        return entries
    }

    struct ConversionError: Error {
        /// Where in the user info, like `.tracks[2].id`; empty for the user info itself.
        var path: String
        var reason: String
    }

    private static func value(from object: Any, path: String, level: Int) throws(ConversionError) -> UserInfoValue {
        if level > ItemLimits.maximumUserInfoDepth {
            throw ConversionError(path: path, reason: "is nested deeper than \(ItemLimits.maximumUserInfoDepth) levels")
        }
        switch object {
        case let string as String:
            return .string(string)
        case let data as Data:
            return .bytes([UInt8](data))
        case let date as Date:
            return .string(isoString(date))
        case let array as [Any]:
            var values: [UserInfoValue] = []
            values.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                values.append(try value(from: element, path: "\(path)[\(index)]", level: level + 1))
            }
            return .array(values)
        case let dictionary as [String: Any]:
            var entries: [String: UserInfoValue] = [:]
            for (key, element) in dictionary {
                entries[key] = try value(from: element, path: "\(path).\(key)", level: level + 1)
            }
            return .dictionary(entries)
        default:
            return try scalar(from: object, path: path)
        }
    }

    private static func scalar(from object: Any, path: String) throws(ConversionError) -> UserInfoValue {
        // Linux Foundation hands plist booleans over as Swift `Bool`, not as an NSNumber.
        if type(of: object) == Bool.self, let bool = object as? Bool {
            return .bool(bool)
        }
        guard let number = object as? NSNumber else {
            throw ConversionError(path: path, reason: "has the unsupported type \(typeName(object))")
        }
        switch String(cString: number.objCType) {
        case "c", "B":
            return .bool(number.boolValue)
        case "f", "d":
            return .double(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            guard number.uint64Value <= UInt64(Int64.max) else {
                throw ConversionError(path: path, reason: "is the integer \(number.uint64Value), larger than a 64-bit signed integer")
            }
            return .int(number.int64Value)
        default:
            return .int(number.int64Value)
        }
    }

    private static func isoString(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func typeName(_ object: Any) -> String {
        switch object {
        case is String: return "a string"
        case is Data: return "data"
        case is Date: return "a date"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dictionary"
        default:
            if type(of: object) == Bool.self { return "a boolean" }
            if let number = object as? NSNumber {
                let code = String(cString: number.objCType)
                return code == "c" || code == "B" ? "a boolean" : code == "d" || code == "f" ? "a real" : "an integer"
            }
            return "\(type(of: object))"
        }
    }
}
