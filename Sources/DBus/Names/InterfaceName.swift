/// An interface name ("org.freedesktop.DBus.Properties").
///
/// Rules (D-Bus specification, "Interface names"): at most 255 bytes; two or more
/// non-empty elements separated by "."; elements contain only `[A-Za-z0-9_]` and
/// do not begin with a digit; no "-" (unlike bus names).
public struct InterfaceName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as an interface name.
    public init(_ string: String) throws(DBusNameError) {
        try NameRules.checkInterfaceRules(string, kind: .interfaceName)
        rawValue = string
    }

    /// Wraps a string known to be a valid interface name (e.g. one libdbus has validated).
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

    public static func < (lhs: InterfaceName, rhs: InterfaceName) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
