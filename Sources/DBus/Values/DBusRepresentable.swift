/// A Swift type that converts to and from a D-Bus ``Value`` of one fixed type.
///
/// Conversions from a `Value` are strict: the value must have exactly ``dbusType``
/// (an `int32` does not convert to `Int64`; use ``Value/int64`` for lenient reading).
public protocol DBusRepresentable: Sendable {
    /// The D-Bus type every value of this Swift type converts to.
    static var dbusType: DBusType { get }
    /// This value as a D-Bus value of type ``dbusType``.
    var dbusValue: Value { get }
    /// Converts a D-Bus value of type ``dbusType``; throws ``DBusValueError/typeMismatch(expected:actual:at:)``
    /// for any other type, naming the place inside `dbusValue` at fault.
    init(dbusValue: Value) throws(DBusValueError)
}

extension Value {
    /// Converts this value to `type` (see ``DBusRepresentable``).
    public func decoded<T: DBusRepresentable>(as type: T.Type = T.self) throws(DBusValueError) -> T {
        try T(dbusValue: self)
    }
}

/// The error for a value that is not of `type`.
func mismatch(_ type: DBusType, _ value: Value) -> DBusValueError {
    .typeMismatch(expected: type, actual: value, at: .root)
}

extension String: DBusRepresentable {
    public static var dbusType: DBusType { .string }
    public var dbusValue: Value { .string(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .string(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension Bool: DBusRepresentable {
    public static var dbusType: DBusType { .boolean }
    public var dbusValue: Value { .boolean(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .boolean(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension UInt8: DBusRepresentable {
    public static var dbusType: DBusType { .byte }
    public var dbusValue: Value { .byte(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .byte(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension Int16: DBusRepresentable {
    public static var dbusType: DBusType { .int16 }
    public var dbusValue: Value { .int16(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .int16(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension UInt16: DBusRepresentable {
    public static var dbusType: DBusType { .uint16 }
    public var dbusValue: Value { .uint16(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .uint16(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension Int32: DBusRepresentable {
    public static var dbusType: DBusType { .int32 }
    public var dbusValue: Value { .int32(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .int32(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension UInt32: DBusRepresentable {
    public static var dbusType: DBusType { .uint32 }
    public var dbusValue: Value { .uint32(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .uint32(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension Int64: DBusRepresentable {
    public static var dbusType: DBusType { .int64 }
    public var dbusValue: Value { .int64(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .int64(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension UInt64: DBusRepresentable {
    public static var dbusType: DBusType { .uint64 }
    public var dbusValue: Value { .uint64(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .uint64(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

/// `Int` travels as "x" (int64).
extension Int: DBusRepresentable {
    public static var dbusType: DBusType { .int64 }
    public var dbusValue: Value { .int64(Int64(self)) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .int64(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        guard let converted = Int(exactly: value) else {
            throw .outOfRange(dbusValue, target: "Int", at: .root)
        }
        self = converted
    }
}

extension Double: DBusRepresentable {
    public static var dbusType: DBusType { .double }
    public var dbusValue: Value { .double(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .double(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension ObjectPath: DBusRepresentable {
    public static var dbusType: DBusType { .objectPath }
    public var dbusValue: Value { .objectPath(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .objectPath(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}

extension Signature: DBusRepresentable {
    public static var dbusType: DBusType { .signature }
    public var dbusValue: Value { .signature(self) }
    public init(dbusValue: Value) throws(DBusValueError) {
        guard case .signature(let value) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = value
    }
}
