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
    ///
    /// Computed with an explicit stack, so a hostile nesting depth cannot overflow the call stack.
    public var depth: Int {
        depth(stoppingAfter: Int.max)
    }

    /// The nesting depth, counting no further than `limit + 1`: a value deeper than `limit`
    /// reports `limit + 1` without walking the rest. Iterative, so any depth is safe.
    func depth(stoppingAfter limit: Int) -> Int {
        var deepest = 0
        var pending: [(value: UserInfoValue, level: Int)] = [(self, 1)]
        while let (value, level) = pending.popLast() {
            deepest = max(deepest, level)
            if deepest > limit { return deepest }
            switch value {
            case .string, .bool, .int, .double, .bytes:
                break
            case .array(let values):
                for child in values { pending.append((child, level + 1)) }
            case .dictionary(let entries):
                for child in entries.values { pending.append((child, level + 1)) }
            }
        }
        return deepest
    }

    /// The size of the value in the store's canonical encoding (the broker's `DynamicItemCoder`:
    /// one type byte, which is all of a bool; then 8 bytes for a number, a 4-byte length and the
    /// bytes for a string or byte array, a 4-byte count and the children for a container, and a
    /// 4-byte length and the bytes for each dictionary key), in bytes; ``ItemLimits/maximumUserInfoBytes`` bounds it.
    /// Computed without recursion, so any depth is safe.
    public var encodedSize: Int {
        var size = 0
        var pending = [self]
        while let next = pending.popLast() {
            switch next {
            case .bool: size += 1
            case .int, .double: size += 9
            case .string(let string): size += 5 + string.utf8.count
            case .bytes(let bytes): size += 5 + bytes.count
            case .array(let values):
                size += 5
                pending.append(contentsOf: values)
            case .dictionary(let entries):
                size += 5
                for (key, child) in entries {
                    size += 4 + key.utf8.count
                    pending.append(child)
                }
            }
        }
        return size
    }
}
