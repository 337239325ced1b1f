/// A D-Bus value of any type: the model that message arguments, properties and
/// variants are read into and written from.
///
/// Container cases carry their declared element types, so an empty array still has
/// a signature. A `Value` built in code may be inconsistent (an `.array(.int32, …)`
/// holding a string, say); ``validate()`` checks it against the specification before
/// it goes on the wire. Unix file descriptors are not modelled.
public indirect enum Value: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// An array whose elements all have the given element type.
    case array(DBusType, [Value])
    /// An array of dict entries ("a{kv}") with the given key and value types; keys are basic and unique.
    case dictionary(key: DBusType, value: DBusType, [DictionaryEntry])
    /// A struct; never empty.
    case structure([Value])
    /// A variant: a value that carries its own type.
    case variant(Value)

    /// The value's type; its signature is `type.signature`.
    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    /// Converts a plain Swift value (see ``DBusRepresentable``). A `Value` passed here is
    /// wrapped in a variant, as `Value.dbusValue` is.
    public init(_ plain: some DBusRepresentable) {
        self = plain.dbusValue
    }

    /// Whether this value is an instance of `type`: the same case, the same declared
    /// element types for arrays and dictionaries, and fields of matching types for
    /// structs. Elements are not inspected; ``validate()`` does that.
    func hasType(_ type: DBusType) -> Bool {
        switch (self, type) {
        case (.byte, .byte), (.boolean, .boolean), (.int16, .int16), (.uint16, .uint16), (.int32, .int32),
            (.uint32, .uint32), (.int64, .int64), (.uint64, .uint64), (.double, .double), (.string, .string),
            (.objectPath, .objectPath), (.signature, .signature), (.variant, .variant):
            return true
        case (.array(let element, _), .array(let expected)):
            return element == expected
        case (.dictionary(let key, let value, _), .dictionary(let expectedKey, let expectedValue)):
            return key == expectedKey && value == expectedValue
        case (.structure(let fields), .structure(let expected)):
            guard fields.count == expected.count else {
                return false
            }
            for (field, fieldType) in zip(fields, expected) where !field.hasType(fieldType) {
                return false
            }
            return true
        default:
            return false
        }
    }

    /// Length in bytes of this value's type signature, without building it.
    var signatureLength: Int {
        switch self {
        case .array(let element, _): 1 + element.signatureLength
        case .dictionary(let key, let value, _): 3 + key.signatureLength + value.signatureLength
        case .structure(let fields): fields.reduce(2) { $0 + $1.signatureLength }
        default: 1
        }
    }
}

/// `Value` under another name, for code where `Value` means something else
/// (inside an extension of `Dictionary`, whose generic parameter is called `Value`).
public typealias DBusValue = Value
