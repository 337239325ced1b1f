import CDBus

/// A Swift type that is read from and written to a message body directly,
/// as one D-Bus complete type (``DBusRepresentable/dbusType``): what typed
/// method declarations (``Method/init(_:inputs:outputs:annotations:_:)``)
/// take their arguments and results as.
///
/// Decoding goes straight from libdbus's iterator into the Swift value, and
/// encoding straight from it into the message; no ``Value`` is built on the
/// way, except for `Value` itself (variants, "v"), so `[String: Value]` is
/// "a{sv}" with only the variants' contents as `Value`s.
///
/// Conforming: `String`, `Bool`, `UInt8`, `Int16`, `UInt16`, `Int32`,
/// `UInt32`, `Int64`, `UInt64`, `Int` (as "x"), `Double`, ``ObjectPath``,
/// ``Signature``, ``Value`` (as a variant), arrays and dictionaries of
/// conforming types, and ``DBusStruct`` for structs.
public protocol DBusArgument: DBusRepresentable {
    /// Reads one value of this type at the reader and moves past it; throws
    /// `InvalidArgs` naming both types when the value there has another type.
    static func decode(from reader: inout MessageReader) throws(DBusError) -> Self
    /// Appends this value.
    func encode(to writer: inout MessageWriter) throws(DBusError)
}

/// A ``DBusArgument`` of a basic D-Bus type, which may be a dictionary key.
public protocol DBusBasicArgument: DBusArgument, Hashable {}

extension String: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> String {
        try reader.readString(DBUS_TYPE_STRING, .string)
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendString(self, DBUS_TYPE_STRING)
    }
}

extension ObjectPath: DBusBasicArgument {
    /// libdbus validated the path when the message arrived.
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> ObjectPath {
        ObjectPath(unchecked: try reader.readString(DBUS_TYPE_OBJECT_PATH, .objectPath))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendString(rawValue, DBUS_TYPE_OBJECT_PATH)
    }
}

extension Signature: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Signature {
        let text = try reader.readString(DBUS_TYPE_SIGNATURE, .signature)
        do {
            return try Signature(text)
        } catch {
            throw DBusError.invalidArgs("received signature \(text.quoted()) is invalid: \(error)")
        }
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendString(rawValue, DBUS_TYPE_SIGNATURE)
    }
}

extension Bool: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Bool {
        try reader.readBasic(DBUS_TYPE_BOOLEAN, .boolean, dbus_bool_t(0)) != 0
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(dbus_bool_t(self ? 1 : 0), DBUS_TYPE_BOOLEAN)
    }
}

extension UInt8: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> UInt8 {
        try reader.readBasic(DBUS_TYPE_BYTE, .byte, UInt8(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_BYTE)
    }
}

extension Int16: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Int16 {
        try reader.readBasic(DBUS_TYPE_INT16, .int16, Int16(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_INT16)
    }
}

extension UInt16: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> UInt16 {
        try reader.readBasic(DBUS_TYPE_UINT16, .uint16, UInt16(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_UINT16)
    }
}

extension Int32: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Int32 {
        try reader.readBasic(DBUS_TYPE_INT32, .int32, Int32(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_INT32)
    }
}

extension UInt32: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> UInt32 {
        try reader.readBasic(DBUS_TYPE_UINT32, .uint32, UInt32(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_UINT32)
    }
}

extension Int64: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Int64 {
        try reader.readBasic(DBUS_TYPE_INT64, .int64, Int64(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_INT64)
    }
}

extension UInt64: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> UInt64 {
        try reader.readBasic(DBUS_TYPE_UINT64, .uint64, UInt64(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_UINT64)
    }
}

/// `Int` travels as "x" (int64), as its ``DBusRepresentable`` conformance does.
extension Int: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Int {
        let value = try reader.readBasic(DBUS_TYPE_INT64, .int64, Int64(0))
        guard let converted = Int(exactly: value) else {
            throw DBusError.invalidArgs("int64 \(value) does not fit in Int")
        }
        return converted
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(Int64(self), DBUS_TYPE_INT64)
    }
}

extension Double: DBusBasicArgument {
    public static func decode(from reader: inout MessageReader) throws(DBusError) -> Double {
        try reader.readBasic(DBUS_TYPE_DOUBLE, .double, Double(0))
    }
    public func encode(to writer: inout MessageWriter) throws(DBusError) {
        try writer.appendBasic(self, DBUS_TYPE_DOUBLE)
    }
}
