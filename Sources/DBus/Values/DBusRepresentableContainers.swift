/// A `Value` converts as a variant ("v"): `dbusValue` wraps it in `.variant`, and
/// `init(dbusValue:)` takes a `.variant` and unwraps exactly one level. So `[Value]`
/// is "av" and `[String: Value]` is "a{sv}".
extension Value: DBusRepresentable {
    public static var dbusType: DBusType { .variant }
    public var dbusValue: Value { .variant(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .variant(let content) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = content
    }
}

/// An array converts element by element; its D-Bus type is "a" + the element's type.
extension Array: DBusRepresentable where Element: DBusRepresentable {
    public static var dbusType: DBusType { .array(Element.dbusType) }

    public var dbusValue: DBusValue {
        .array(Element.dbusType, map(\.dbusValue))
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        guard case .array(let elementType, let elements) = dbusValue, elementType == Element.dbusType else {
            throw mismatch(Self.dbusType, dbusValue)
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                result.append(try Element(dbusValue: element))
            } catch {
                throw error.prepending(.element(index))
            }
        }
        self = result
    }
}

/// A dictionary converts entry by entry; its D-Bus type is "a{" + key + value + "}".
/// The key's D-Bus type must be basic: converting from a value with any other key type
/// throws, and a value built from such a dictionary fails ``Value/validate()``.
/// Entries come out in the dictionary's own (unspecified) order.
extension Dictionary: DBusRepresentable where Key: DBusRepresentable, Value: DBusRepresentable {
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }

    public var dbusValue: DBusValue {
        .dictionary(
            key: Key.dbusType, value: Value.dbusType,
            map { DictionaryEntry($0.key.dbusValue, $0.value.dbusValue) })
    }

    public init(dbusValue: DBusValue) throws(DBusValueError) {
        guard case .dictionary(let keyType, let valueType, let entries) = dbusValue,
            keyType == Key.dbusType, valueType == Value.dbusType
        else {
            throw mismatch(Self.dbusType, dbusValue)
        }
        guard keyType.isBasic else {
            throw .nonBasicKeyType(keyType, at: .root)
        }
        var result: [Key: Value] = Dictionary(minimumCapacity: entries.count)
        for (index, entry) in entries.enumerated() {
            let key: Key
            let value: Value
            do {
                key = try Key(dbusValue: entry.key)
            } catch {
                throw error.prepending(.key(index))
            }
            do {
                value = try Value(dbusValue: entry.value)
            } catch {
                throw error.prepending(.value(index))
            }
            guard result.updateValue(value, forKey: key) == nil else {
                throw .duplicateKey(entry.key, at: ValuePath(components: [.key(index)]))
            }
        }
        self = result
    }
}
