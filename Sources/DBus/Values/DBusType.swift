/// A single complete D-Bus type.
///
/// `dictionary` is the whole "a{kv}" type (an array of dict entries); a dict entry
/// never stands alone, so it has no case of its own.
public indirect enum DBusType: Hashable, Sendable {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double, string, objectPath, signature, unixFD,
        variant
    /// An array of elements of the given type ("a" + element).
    case array(DBusType)
    /// An array of dict entries ("a{" + key + value + "}"); the key must be basic.
    case dictionary(key: DBusType, value: DBusType)
    /// A struct with the given fields ("(" + fields + ")"); never empty.
    case structure([DBusType])

    /// Parses a signature holding exactly one single complete type, e.g. "a{sv}".
    public init(_ signature: String) throws(DBusSignatureError) {
        let parsed = try Signature(signature)
        guard parsed.types.count == 1, let type = parsed.types.first else {
            throw .notSingleCompleteType(signature: signature, count: parsed.types.count)
        }
        self = type
    }

    /// The type's signature, e.g. "a{sv}".
    public var signature: String {
        // The common ones as literals: no allocation on every container sent.
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .unixFD: return "h"
        case .variant: return "v"
        case .dictionary(.string, .variant): return "a{sv}"
        case .array(.variant): return "av"
        case .array(.byte): return "ay"
        case .array(.string): return "as"
        default:
            var result = ""
            appendSignature(to: &result)
            return result
        }
    }

    /// Whether this is a basic type (y b n q i u x t d s o g h): one that can be a
    /// dictionary key. Variants and containers are not basic.
    public var isBasic: Bool {
        switch self {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath,
            .signature, .unixFD:
            true
        case .variant, .array, .dictionary, .structure:
            false
        }
    }

    /// The type code of a basic type or variant, nil for containers.
    var code: UInt8? {
        switch self {
        case .byte: UInt8(ascii: "y")
        case .boolean: UInt8(ascii: "b")
        case .int16: UInt8(ascii: "n")
        case .uint16: UInt8(ascii: "q")
        case .int32: UInt8(ascii: "i")
        case .uint32: UInt8(ascii: "u")
        case .int64: UInt8(ascii: "x")
        case .uint64: UInt8(ascii: "t")
        case .double: UInt8(ascii: "d")
        case .string: UInt8(ascii: "s")
        case .objectPath: UInt8(ascii: "o")
        case .signature: UInt8(ascii: "g")
        case .unixFD: UInt8(ascii: "h")
        case .variant: UInt8(ascii: "v")
        case .array, .dictionary, .structure: nil
        }
    }

    /// The basic type or variant with type code `code`, nil for anything else.
    init?(code: UInt8) {
        switch code {
        case UInt8(ascii: "y"): self = .byte
        case UInt8(ascii: "b"): self = .boolean
        case UInt8(ascii: "n"): self = .int16
        case UInt8(ascii: "q"): self = .uint16
        case UInt8(ascii: "i"): self = .int32
        case UInt8(ascii: "u"): self = .uint32
        case UInt8(ascii: "x"): self = .int64
        case UInt8(ascii: "t"): self = .uint64
        case UInt8(ascii: "d"): self = .double
        case UInt8(ascii: "s"): self = .string
        case UInt8(ascii: "o"): self = .objectPath
        case UInt8(ascii: "g"): self = .signature
        case UInt8(ascii: "h"): self = .unixFD
        case UInt8(ascii: "v"): self = .variant
        default: return nil
        }
    }

    /// Length of ``signature`` in bytes, without building it.
    var signatureLength: Int {
        switch self {
        case .array(let element): 1 + element.signatureLength
        case .dictionary(let key, let value): 3 + key.signatureLength + value.signatureLength
        case .structure(let fields): fields.reduce(2) { $0 + $1.signatureLength }
        default: 1
        }
    }

    func appendSignature(to result: inout String) {
        switch self {
        case .array(let element):
            result += "a"
            element.appendSignature(to: &result)
        case .dictionary(let key, let value):
            result += "a{"
            key.appendSignature(to: &result)
            value.appendSignature(to: &result)
            result += "}"
        case .structure(let fields):
            result += "("
            for field in fields {
                field.appendSignature(to: &result)
            }
            result += ")"
        default:
            if let code {
                result.unicodeScalars.append(Unicode.Scalar(code))
            }
        }
    }
}

extension DBusType: CustomStringConvertible {
    /// The signature, e.g. "a{sv}".
    public var description: String { signature }
}
