/// An error name ("org.freedesktop.DBus.Error.InvalidArgs").
///
/// Rules (D-Bus specification, "Error names"): the same as interface names: at most
/// 255 bytes; two or more non-empty elements separated by "."; elements contain only
/// `[A-Za-z0-9_]` and do not begin with a digit.
public struct ErrorName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as an error name.
    public init(_ string: String) throws(DBusNameError) {
        try NameRules.checkInterfaceRules(string, kind: .errorName)
        rawValue = string
    }

    /// Wraps a string known to be a valid error name (e.g. one libdbus has validated).
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

    public static func < (lhs: ErrorName, rhs: ErrorName) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
