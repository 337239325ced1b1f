/// A value in an item's user info: the types an iOS `userInfo` dictionary
/// carries through a property list, kept exactly (an integer never turns
/// into a double, bytes never into a string).
///
/// On D-Bus these map to `s`, `b`, `x`, `d`, `ay`, `av` and `a{sv}`.
public indirect enum UserInfoValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case bytes([UInt8])
    case array([UserInfoValue])
    case dictionary([String: UserInfoValue])
}

/// An item's user info: string keys, typed values.
public typealias UserInfo = [String: UserInfoValue]

extension UserInfoValue {
    /// Nesting depth: a scalar is 1, a container is one more than its deepest child.
    public var depth: Int {
        switch self {
        case .string, .bool, .int, .double, .bytes:
            return 1
        case .array(let values):
            return 1 + (values.map(\.depth).max() ?? 0)
        case .dictionary(let entries):
            return 1 + (entries.values.map(\.depth).max() ?? 0)
        }
    }
}
