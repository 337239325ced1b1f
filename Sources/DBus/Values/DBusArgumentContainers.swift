import CDBus

/// A variant ("v"): its contents are read into and written from a ``Value``,
/// the one place typed arguments build one.
extension Value: DBusArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Value {
        try reader.readContainer(DBUS_TYPE_VARIANT, .variant) { inner throws(DBusError) in
            try inner.readValue()
        }
    }

    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendContainer(DBUS_TYPE_VARIANT, type.signature) { inner throws(DBusError) in
            try inner.appendValue(self)
        }
    }
}

extension Array: DBusArgument where Element: DBusArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> [Element] {
        try reader.expect(DBUS_TYPE_ARRAY, Self.dbusType)
        // An empty array has no element to check, so check its element type code.
        let elementCode = dbus_message_iter_get_element_type(&reader.iter)
        guard elementCode == Element.dbusType.leadingCode else {
            return try reader.failArray(Self.dbusType)
        }
        return try reader.readContainer(DBUS_TYPE_ARRAY, Self.dbusType) { elements throws(DBusError) in
            if Element.self == UInt8.self {
                return Self.bytes(elements.readFixedBytes())
            }
            var result: [Element] = []
            while !elements.isAtEnd {
                result.append(try Element.decode(from: &elements))
            }
            return result
        }
    }

    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        if Element.self == UInt8.self {
            let bytes = withUnsafeBytes { Array<UInt8>($0) }
            try writer.appendByteArray(bytes)
            return
        }
        try writer.appendContainer(DBUS_TYPE_ARRAY, Element.dbusType.signature) { elements throws(DBusError) in
            for element in self {
                try element.encode(to: &elements)
            }
        }
    }

    /// `bytes` as `[Element]`, for `Element == UInt8` only.
    private static func bytes(_ bytes: [UInt8]) -> [Element] {
        [Element](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                if let target = buffer.baseAddress, let base = source.baseAddress, source.count > 0 {
                    UnsafeMutableRawPointer(target).copyMemory(from: base, byteCount: source.count)
                }
            }
            initialized = bytes.count
        }
    }
}

/// "a{kv}". Decoding refuses a key that occurs twice, naming it.
extension Dictionary: DBusArgument where Key: DBusBasicArgument, Value: DBusArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> [Key: Value] {
        // The contract's options, "a{sv}", arrive with every call. Decoded here, unspecialised,
        // each one cost runtime metadata lookups for the dictionary and for a (key, value)
        // tuple (about 1,000 instructions per Perform, callgrind); the concrete decoder has none.
        if Key.self == String.self, Value.self == DBusValue.self {
            return unsafeBitCast(try Dictionary<String, DBusValue>.decodeEntries(from: &reader), to: [Key: Value].self)
        }
        return try decodeEntries(from: &reader)
    }

    private static func decodeEntries(from reader: inout MessageReader) throws(DBusError) -> [Key: Value] {
        try reader.expect(DBUS_TYPE_ARRAY, Self.dbusType)
        guard dbus_message_iter_get_element_type(&reader.iter) == DBUS_TYPE_DICT_ENTRY else {
            return try reader.failArray(Self.dbusType)
        }
        return try reader.readContainer(DBUS_TYPE_ARRAY, Self.dbusType) { entries throws(DBusError) in
            var result = Self()
            while !entries.isAtEnd {
                try entries.readContainer(DBUS_TYPE_DICT_ENTRY, Self.dbusType) { pair throws(DBusError) in
                    let key = try Key.decode(from: &pair)
                    guard result.updateValue(try Value.decode(from: &pair), forKey: key) == nil else {
                        throw DBusError.invalidArgs(
                            "dictionary of type \"\(Self.dbusType.signature)\" has the key "
                                + "\(String(describing: key).quoted()) twice")
                    }
                }
            }
            return result
        }
    }

    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        let entry = "{\(Key.dbusType.signature)\(Value.dbusType.signature)}"
        try writer.appendContainer(DBUS_TYPE_ARRAY, entry) { entries throws(DBusError) in
            for (key, value) in self {
                try entries.appendContainer(DBUS_TYPE_DICT_ENTRY, nil) { pair throws(DBusError) in
                    try key.encode(to: &pair)
                    try value.encode(to: &pair)
                }
            }
        }
    }
}

/// A D-Bus struct of typed fields, e.g. `DBusStruct<Int32, String>` for "(is)".
/// A struct has at least one field.
public struct DBusStruct<First: DBusArgument, each Rest: DBusArgument>: DBusArgument {
    public var first: First
    public var rest: (repeat each Rest)

    public init(_ first: First, _ rest: repeat each Rest) {
        self.first = first
        self.rest = (repeat each rest)
    }

    /// The fields as a tuple.
    public var fields: (First, repeat each Rest) { (first, repeat each rest) }

    public static var dbusType: DBusType {
        var types = [First.dbusType]
        for type in repeat (each Rest).self {
            types.append(type.dbusType)
        }
        return .structure(types)
    }

    public var dbusValue: Value {
        var values = [first.dbusValue]
        for field in repeat each rest {
            values.append(field.dbusValue)
        }
        return .structure(values)
    }
}

extension DBusStruct {
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .structure(let values) = dbusValue, dbusValue.hasType(Self.dbusType) else {
            throw .typeMismatch(expected: Self.dbusType, actual: dbusValue, at: .root)
        }
        var index = 0
        self.init(try Self.field(First.self, values, &index), repeat try Self.field((each Rest).self, values, &index))
    }

    private static func field<T: DBusArgument>(
        _ type: T.Type, _ values: [Value], _ index: inout Int
    ) throws(DBusValueError) -> T {
        defer { index += 1 }
        do {
            return try T(dbusValue: values[index])
        } catch {
            throw error.prepending(.field(index))
        }
    }

    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Self {
        try reader.readContainer(DBUS_TYPE_STRUCT, Self.dbusType) { fields throws(DBusError) in
            let value = Self(try First.decode(from: &fields), repeat try (each Rest).decode(from: &fields))
            guard fields.isAtEnd else {
                throw DBusError.invalidArgs("struct of type \"\(Self.dbusType.signature)\" has more fields")
            }
            return value
        }
    }

    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendContainer(DBUS_TYPE_STRUCT, nil) { inner throws(DBusError) in
            try first.encode(to: &inner)
            for field in repeat each rest {
                try field.encode(to: &inner)
            }
        }
    }
}

extension DBusType {
    /// The first type code of the signature, as libdbus reports an array's
    /// element type (`dbus_message_iter_get_element_type`).
    var leadingCode: Int32 {
        switch self {
        case .array, .dictionary: DBUS_TYPE_ARRAY
        case .structure: DBUS_TYPE_STRUCT
        default: code.map(Int32.init) ?? DBUS_TYPE_INVALID
        }
    }
}

extension MessageReader {
    /// Throws the mismatch error for an array whose element type is not `type`'s.
    mutating func failArray<T>(_ type: DBusType) throws(DBusError) -> T {
        throw mismatch(expected: type, found: typeCode)
    }
}

/// A ``Value`` sent and received as a typed argument of `T`'s D-Bus type:
/// for values already held in the `Value` model (a cache of encoded items,
/// say), so a typed method need not convert them into Swift types and back.
/// Encoding refuses a value of another type, or one that breaks the
/// specification, naming both types.
public struct ValueOf<T: DBusArgument>: DBusArgument, Hashable {
    public let value: Value

    /// Wraps `value`; throws InvalidArgs when it is not of `T`'s type.
    public init(_ value: Value) throws(DBusError) {
        guard value.hasType(T.dbusType) else {
            throw DBusError.invalidArgs(
                "a value of type \"\(value.type.signature)\" where \"\(T.dbusType.signature)\" is declared")
        }
        self.value = value
    }

    public static var dbusType: DBusType { T.dbusType }
    public var dbusValue: Value { value }

    public init(dbusValue: Value) throws(DBusValueError) {
        guard dbusValue.hasType(T.dbusType) else {
            throw .typeMismatch(expected: T.dbusType, actual: dbusValue, at: .root)
        }
        value = dbusValue
    }

    public static func decode(from reader: inout MessageReader) throws(DBusError) -> ValueOf<T> {
        let code = reader.typeCode
        guard code == T.dbusType.leadingCode else { throw reader.mismatch(expected: T.dbusType, found: code) }
        return try ValueOf(try reader.readValue())
    }

    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        guard value.hasType(T.dbusType) else {
            throw DBusError.invalidArgs(
                "cannot send a value of type \"\(value.type.signature)\" as \"\(T.dbusType.signature)\"")
        }
        try writer.appendValue(value)
    }
}
