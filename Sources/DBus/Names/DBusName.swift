/// What every validated D-Bus name type shares: the wire text, a throwing
/// initialiser that enforces the specification, literals for our own code,
/// and ordering by text.
public protocol DBusName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as sent on the bus.
    var rawValue: String { get }
    /// Validates `string`; throws naming the value and the rule it breaks.
    init(_ string: String) throws(DBusNameError)
}

extension DBusName {
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

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
