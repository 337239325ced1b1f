/// The kind of D-Bus name a ``DBusNameError`` is about.
public enum DBusNameKind: String, Hashable, Sendable, CustomStringConvertible {
    case busName = "bus name"
    case uniqueName = "unique name"
    case interfaceName = "interface name"
    case memberName = "member name"
    case errorName = "error name"
    case objectPath = "object path"
    case objectPathElement = "object path element"

    public var description: String { rawValue }

    /// Whether names of this kind consist of a single element (no "." or "/" separators).
    var isSingleElement: Bool {
        self == .memberName || self == .objectPathElement
    }

    /// The characters an element of this kind may contain, for error messages.
    var allowedCharacters: String {
        switch self {
        case .busName, .uniqueName: "A-Z, a-z, 0-9, \"_\" and \"-\""
        default: "A-Z, a-z, 0-9 and \"_\""
        }
    }
}

/// A string that breaks the D-Bus specification's rules for a name.
///
/// Every case carries the kind of name, the offending string and the reason,
/// so `"\(error)"` reads like `invalid interface name "org..x": element 2 is empty`.
/// Element numbers count from 1; byte offsets from 0.
public enum DBusNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The string is empty.
    case empty(kind: DBusNameKind)
    /// The string is longer than ``DBusLimits/maximumNameLength`` (255) bytes.
    case tooLong(kind: DBusNameKind, value: String, byteCount: Int)
    /// An element (between separators) is empty, e.g. `"org..x"` or `"/a//b"`.
    case emptyElement(kind: DBusNameKind, value: String, element: Int)
    /// A character outside the allowed set, at a byte offset.
    case invalidCharacter(kind: DBusNameKind, value: String, character: Unicode.Scalar, offset: Int)
    /// An element begins with a digit where the specification forbids it.
    case leadingDigit(kind: DBusNameKind, value: String, element: Int)
    /// A dotted name with a single element; at least two are required.
    case tooFewElements(kind: DBusNameKind, value: String)
    /// An object path that does not begin with "/".
    case missingLeadingSlash(kind: DBusNameKind, value: String)
    /// An object path other than "/" that ends with "/".
    case trailingSlash(kind: DBusNameKind, value: String)
    /// A unique connection name that does not begin with ":".
    case missingColon(kind: DBusNameKind, value: String)

    /// The kind of name that was being validated.
    public var kind: DBusNameKind {
        switch self {
        case .empty(let kind),
             .tooLong(let kind, _, _),
             .emptyElement(let kind, _, _),
             .invalidCharacter(let kind, _, _, _),
             .leadingDigit(let kind, _, _),
             .tooFewElements(let kind, _),
             .missingLeadingSlash(let kind, _),
             .trailingSlash(let kind, _),
             .missingColon(let kind, _):
            kind
        }
    }

    /// The offending string.
    public var value: String {
        switch self {
        case .empty: ""
        case .tooLong(_, let value, _),
             .emptyElement(_, let value, _),
             .invalidCharacter(_, let value, _, _),
             .leadingDigit(_, let value, _),
             .tooFewElements(_, let value),
             .missingLeadingSlash(_, let value),
             .trailingSlash(_, let value),
             .missingColon(_, let value):
            value
        }
    }

    /// Why the string is not a valid name, without the name itself.
    public var reason: String {
        switch self {
        case .empty:
            "must not be empty"
        case .tooLong(_, _, let byteCount):
            "is \(byteCount) bytes long, the maximum is \(DBusLimits.maximumNameLength)"
        case .emptyElement(let kind, _, let element):
            kind == .objectPath ? "element \(element) is empty (\"//\")" : "element \(element) is empty"
        case .invalidCharacter(let kind, _, let character, let offset):
            "character \(quoted(String(character))) at offset \(offset) is not allowed "
                + "(allowed: \(kind.allowedCharacters))"
        case .leadingDigit(let kind, _, let element):
            kind.isSingleElement ? "starts with a digit" : "element \(element) starts with a digit"
        case .tooFewElements:
            "needs at least two elements separated by \".\""
        case .missingLeadingSlash:
            "must begin with \"/\""
        case .trailingSlash:
            "must not end with \"/\" (only the root path \"/\" may)"
        case .missingColon:
            "must begin with \":\""
        }
    }

    public var description: String {
        "invalid \(kind) \(quoted(value)): \(reason)"
    }
}

/// Renders `string` in double quotes with Swift escapes, shortened if very long,
/// so an error message stays one readable line.
func quoted(_ string: String, limit: Int = 300) -> String {
    if string.utf8.count <= limit {
        return string.debugDescription
    }
    let prefix = String(string.prefix(limit / 2))
    return String(prefix.debugDescription.dropLast()) + "…\" (\(string.utf8.count) bytes)"
}
