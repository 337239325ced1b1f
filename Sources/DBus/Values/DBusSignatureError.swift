/// A signature that breaks the D-Bus specification's rules ("Valid Signatures").
///
/// Offsets are 0-based byte positions in the signature, so `"\(error)"` reads like
/// `invalid signature "a{vs}": dictionary key at offset 2 is "v", which is not a basic type`.
public enum DBusSignatureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Longer than ``DBusLimits/maximumSignatureLength`` (255) bytes.
    case tooLong(signature: String, byteCount: Int)
    /// A byte that is not a type code, "(", ")", "{" or "}".
    case unknownTypeCode(signature: String, offset: Int)
    /// An "a" with nothing (or a closing bracket) after it.
    case missingArrayElementType(signature: String, offset: Int)
    /// "()": a struct needs at least one field.
    case emptyStructure(signature: String, offset: Int)
    /// A "(" that is never closed.
    case unclosedStructure(signature: String, offset: Int)
    /// A "{" that is never closed.
    case unclosedDictionaryEntry(signature: String, offset: Int)
    /// A ")" or "}" that closes nothing, or closes the other kind of bracket.
    case unexpectedClosingBracket(signature: String, offset: Int)
    /// A "{" that does not directly follow an "a".
    case dictionaryEntryOutsideArray(signature: String, offset: Int)
    /// A dict entry whose key (at `offset`) is not a basic type.
    case nonBasicDictionaryKey(signature: String, offset: Int)
    /// A dict entry (its "{" at `offset`) with other than exactly two fields.
    case wrongDictionaryEntryFieldCount(signature: String, offset: Int, count: Int)
    /// More than ``DBusLimits/maximumArrayNesting`` (32) nested arrays; `offset` is the first one too many.
    case tooManyNestedArrays(signature: String, offset: Int)
    /// More than ``DBusLimits/maximumStructureNesting`` (32) nested structs and dict entries
    /// together; `offset` is the first one too many.
    case tooManyNestedStructures(signature: String, offset: Int)
    /// Where exactly one single complete type was required (a variant, ``DBusType/init(_:)``),
    /// the signature held `count` types.
    case notSingleCompleteType(signature: String, count: Int)

    /// The offending signature.
    public var signature: String {
        switch self {
        case .tooLong(let signature, _),
             .unknownTypeCode(let signature, _),
             .missingArrayElementType(let signature, _),
             .emptyStructure(let signature, _),
             .unclosedStructure(let signature, _),
             .unclosedDictionaryEntry(let signature, _),
             .unexpectedClosingBracket(let signature, _),
             .dictionaryEntryOutsideArray(let signature, _),
             .nonBasicDictionaryKey(let signature, _),
             .wrongDictionaryEntryFieldCount(let signature, _, _),
             .tooManyNestedArrays(let signature, _),
             .tooManyNestedStructures(let signature, _),
             .notSingleCompleteType(let signature, _):
            signature
        }
    }

    /// The byte offset at fault, when the fault has one position.
    public var offset: Int? {
        switch self {
        case .tooLong, .notSingleCompleteType:
            nil
        case .unknownTypeCode(_, let offset),
             .missingArrayElementType(_, let offset),
             .emptyStructure(_, let offset),
             .unclosedStructure(_, let offset),
             .unclosedDictionaryEntry(_, let offset),
             .unexpectedClosingBracket(_, let offset),
             .dictionaryEntryOutsideArray(_, let offset),
             .nonBasicDictionaryKey(_, let offset),
             .wrongDictionaryEntryFieldCount(_, let offset, _),
             .tooManyNestedArrays(_, let offset),
             .tooManyNestedStructures(_, let offset):
            offset
        }
    }

    /// What is wrong, without the signature itself.
    public var reason: String {
        switch self {
        case .tooLong(_, let byteCount):
            return "is \(byteCount) bytes long, the maximum is \(DBusLimits.maximumSignatureLength)"
        case .unknownTypeCode(let signature, let offset):
            return "\(character(signature, offset)) at offset \(offset) is not a type code"
        case .missingArrayElementType(_, let offset):
            return "array \"a\" at offset \(offset) has no element type"
        case .emptyStructure(_, let offset):
            return "struct at offset \(offset) has no fields; \"()\" is not allowed"
        case .unclosedStructure(_, let offset):
            return "\"(\" at offset \(offset) is never closed"
        case .unclosedDictionaryEntry(_, let offset):
            return "\"{\" at offset \(offset) is never closed"
        case .unexpectedClosingBracket(let signature, let offset):
            return "\(character(signature, offset)) at offset \(offset) closes nothing"
        case .dictionaryEntryOutsideArray(_, let offset):
            return "dict entry \"{\" at offset \(offset) is not directly inside an array"
        case .nonBasicDictionaryKey(let signature, let offset):
            return "dictionary key at offset \(offset) is \(character(signature, offset)), which is not a basic type"
        case .wrongDictionaryEntryFieldCount(_, let offset, let count):
            return "dict entry at offset \(offset) has \(count) field\(count == 1 ? "" : "s"), it needs exactly 2"
        case .tooManyNestedArrays(_, let offset):
            return "array at offset \(offset) nests deeper than \(DBusLimits.maximumArrayNesting) arrays"
        case .tooManyNestedStructures(let signature, let offset):
            return "\(character(signature, offset)) at offset \(offset) nests deeper than "
                + "\(DBusLimits.maximumStructureNesting) structs and dict entries"
        case .notSingleCompleteType(_, let count):
            return "holds \(count) complete types where exactly one is required"
        }
    }

    public var description: String {
        "invalid signature \(quoted(signature)): \(reason)"
    }

    private func character(_ signature: String, _ offset: Int) -> String {
        quoted(String(NameRules.scalar(in: signature, atByte: offset)))
    }
}
