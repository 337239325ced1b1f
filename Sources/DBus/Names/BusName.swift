/// A bus name: either a unique connection name (":1.42") or a well-known name
/// ("org.example.Music").
///
/// Rules (D-Bus specification, "Bus names"): at most 255 bytes; two or more
/// non-empty elements separated by "."; elements contain only `[A-Za-z0-9_-]`;
/// a well-known name does not begin with "." and none of its elements begins
/// with a digit; a unique name begins with ":" and its elements may begin with digits.
public struct BusName: DBusName {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as a bus name.
    public init(_ string: String) throws(DBusNameError) {
        if string.utf8.first == UInt8(ascii: ":") {
            try NameRules.checkUniqueName(string, kind: .busName)
        } else {
            try NameRules.checkWellKnownName(string, kind: .busName)
        }
        rawValue = string
    }

    /// Wraps a string known to be a valid bus name (e.g. one libdbus has validated).
    init(unchecked string: String) {
        rawValue = string
    }

    /// A unique connection name is always a valid bus name.
    public init(_ unique: UniqueName) {
        rawValue = unique.rawValue
    }

    /// Whether this is a unique connection name (begins with ":").
    public var isUnique: Bool {
        rawValue.utf8.first == UInt8(ascii: ":")
    }

    /// This name as a ``UniqueName``, or nil for a well-known name.
    public var uniqueName: UniqueName? {
        isUnique ? UniqueName(unchecked: rawValue) : nil
    }
}
