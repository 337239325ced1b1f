/// A ``Value`` that breaks the D-Bus specification, or that does not convert to the
/// Swift type asked for.
///
/// Every case names the place inside the value (a ``ValuePath``) and the value or
/// type at fault, so `"\(error)"` reads like `at [2]: expected "s" but got "i" (int32 7)`.
public enum DBusValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A value whose type is not the one declared by its container or asked for by a conversion.
    case typeMismatch(expected: DBusType, actual: Value, at: ValuePath)
    /// A dictionary whose declared key type is not basic.
    case nonBasicKeyType(DBusType, at: ValuePath)
    /// A key that occurs twice in one dictionary (at the second occurrence).
    case duplicateKey(Value, at: ValuePath)
    /// A string containing a NUL character, which the wire format cannot carry.
    case nulInString(String, at: ValuePath)
    /// A struct with no fields (a value or a declared type).
    case emptyStructure(at: ValuePath)
    /// More than ``DBusLimits/maximumArrayNesting`` (32) nested arrays, counted through variants.
    case tooManyNestedArrays(at: ValuePath)
    /// More than ``DBusLimits/maximumStructureNesting`` (32) nested structs and dict entries,
    /// counted through variants.
    case tooManyNestedStructures(at: ValuePath)
    /// More than ``DBusLimits/maximumTotalNesting`` (64) nested containers of any kind,
    /// variants included.
    case nestedTooDeeply(at: ValuePath)
    /// A type whose signature is longer than ``DBusLimits/maximumSignatureLength`` (255) bytes.
    case signatureTooLong(byteCount: Int, at: ValuePath)
    /// A value of the right type that does not fit the Swift type asked for.
    case outOfRange(Value, target: String, at: ValuePath)

    /// Where inside the value the fault is.
    public var path: ValuePath {
        switch self {
        case .typeMismatch(_, _, let path),
             .nonBasicKeyType(_, let path),
             .duplicateKey(_, let path),
             .nulInString(_, let path),
             .emptyStructure(let path),
             .tooManyNestedArrays(let path),
             .tooManyNestedStructures(let path),
             .nestedTooDeeply(let path),
             .signatureTooLong(_, let path),
             .outOfRange(_, _, let path):
            path
        }
    }

    /// What is wrong, without the location.
    public var reason: String {
        switch self {
        case .typeMismatch(let expected, let actual, _):
            "expected \(quoted(expected.signature)) but got \(quoted(actual.type.signature)) (\(actual.summary))"
        case .nonBasicKeyType(let type, _):
            "dictionary key type \(quoted(type.signature)) is not a basic type"
        case .duplicateKey(let key, _):
            "duplicate dictionary key \(key.summary)"
        case .nulInString(let string, _):
            "string \(quoted(string, limit: 80)) contains a NUL character"
        case .emptyStructure:
            "struct has no fields"
        case .tooManyNestedArrays:
            "more than \(DBusLimits.maximumArrayNesting) nested arrays"
        case .tooManyNestedStructures:
            "more than \(DBusLimits.maximumStructureNesting) nested structs and dict entries"
        case .nestedTooDeeply:
            "more than \(DBusLimits.maximumTotalNesting) nested containers (variants included)"
        case .signatureTooLong(let byteCount, _):
            "type signature is \(byteCount) bytes long, the maximum is \(DBusLimits.maximumSignatureLength)"
        case .outOfRange(let value, let target, _):
            "\(value.summary) does not fit in \(target)"
        }
    }

    public var description: String {
        path.isRoot ? reason : "at \(path): \(reason)"
    }

    /// The same error, located one step further out.
    func prepending(_ component: ValuePath.Component) -> DBusValueError {
        switch self {
        case .typeMismatch(let expected, let actual, let path):
            .typeMismatch(expected: expected, actual: actual, at: path.prepending(component))
        case .nonBasicKeyType(let type, let path):
            .nonBasicKeyType(type, at: path.prepending(component))
        case .duplicateKey(let key, let path):
            .duplicateKey(key, at: path.prepending(component))
        case .nulInString(let string, let path):
            .nulInString(string, at: path.prepending(component))
        case .emptyStructure(let path):
            .emptyStructure(at: path.prepending(component))
        case .tooManyNestedArrays(let path):
            .tooManyNestedArrays(at: path.prepending(component))
        case .tooManyNestedStructures(let path):
            .tooManyNestedStructures(at: path.prepending(component))
        case .nestedTooDeeply(let path):
            .nestedTooDeeply(at: path.prepending(component))
        case .signatureTooLong(let byteCount, let path):
            .signatureTooLong(byteCount: byteCount, at: path.prepending(component))
        case .outOfRange(let value, let target, let path):
            .outOfRange(value, target: target, at: path.prepending(component))
        }
    }
}
