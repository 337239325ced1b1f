/// A member name: the name of a method, signal or property ("GetAll").
///
/// Rules (D-Bus specification, "Member names"): 1 to 255 bytes; only `[A-Za-z0-9_]`
/// (no "."); does not begin with a digit.
public struct MemberName: DBusName {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as a member name.
    public init(_ string: String) throws(DBusNameError) {
        try NameRules.checkLength(string, kind: .memberName)
        // No separator: every "." is an invalid character.
        try NameRules.checkElements(
            string, kind: .memberName, separator: nil, hyphen: false, leadingDigit: false, minimumElements: 1)
        rawValue = string
    }

    /// Wraps a string known to be a valid member name (e.g. one libdbus has validated).
    init(unchecked string: String) {
        rawValue = string
    }
}
