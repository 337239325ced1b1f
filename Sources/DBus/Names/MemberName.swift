/// A member name: the name of a method, signal or property ("GetAll").
///
/// Rules (D-Bus specification, "Member names"): 1 to 255 bytes; only `[A-Za-z0-9_]`
/// (no "."); does not begin with a digit.
public struct MemberName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
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

    /// A literal in our own code; an invalid literal is a programming error and traps.
    ///
    /// `Type("literal")` with a literal argument also lands here, not in the throwing
    /// initialiser (SE-0213): validate untrusted text by passing a `String` value.
    public init(stringLiteral value: String) {
        do {
            try self.init(value)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: MemberName, rhs: MemberName) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
