/// A validated D-Bus signature: zero or more single complete types, e.g. "sa{sv}".
///
/// Both initialisers enforce the specification's rules (see ``SignatureParser``'s
/// grammar and limits), so a `Signature` is always one libdbus accepts.
public struct Signature: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The signature string.
    public let rawValue: String
    /// The complete types, in order.
    public let types: [DBusType]

    /// The empty signature "" (no arguments).
    public static let empty = Signature(unchecked: "", types: [])

    /// Parses and validates a signature string.
    public init(_ string: String) throws(DBusSignatureError) {
        types = try SignatureParser.parse(string)
        rawValue = string
    }

    /// Builds the signature of `types` and validates it (length, nesting, dict keys, no empty structs).
    public init(_ types: [DBusType]) throws(DBusSignatureError) {
        var string = ""
        for type in types {
            type.appendSignature(to: &string)
        }
        try SignatureParser.check(types, signature: string)
        self.rawValue = string
        self.types = types
    }

    /// Pairs a string and its types that are known to be valid and to agree.
    init(unchecked string: String, types: [DBusType]) {
        rawValue = string
        self.types = types
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

    /// Whether the signature holds exactly one complete type (as a variant's must).
    public var isSingleCompleteType: Bool { types.count == 1 }

    /// Whether the signature holds no types.
    public var isEmpty: Bool { types.isEmpty }

    public var description: String { rawValue }

    // The types follow from the string, so the string alone decides equality.
    public static func == (lhs: Signature, rhs: Signature) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}
