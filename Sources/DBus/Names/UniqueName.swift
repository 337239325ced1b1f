/// A unique connection name, assigned by the bus to each connection (":1.42").
///
/// Rules (D-Bus specification, "Bus names"): begins with ":"; at most 255 bytes;
/// after the ":", two or more non-empty elements separated by "."; elements
/// contain only `[A-Za-z0-9_-]` and may begin with a digit.
public struct UniqueName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as sent on the bus.
    public let rawValue: String

    /// Validates `string` as a unique connection name.
    public init(_ string: String) throws(DBusNameError) {
        try NameRules.checkUniqueName(string, kind: .uniqueName)
        rawValue = string
    }

    /// Wraps a string known to be a valid unique name (e.g. one libdbus has validated).
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

    /// This name as a ``BusName``.
    public var busName: BusName { BusName(self) }

    public var description: String { rawValue }

    public static func < (lhs: UniqueName, rhs: UniqueName) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
