/// An application identifier: the bundle's `CFBundleIdentifier`, in reverse-DNS form.
///
/// Valid identifiers have at least two elements separated by dots; each element is one or more
/// ASCII letters, digits, hyphens or underscores; the whole is at most 255 bytes
/// (`com.example.music`, `org.gnome.Maps`, `net.example.my_app-2`).
/// The identifier is case-sensitive and safe to use as a file name (it never holds `/`,
/// is never `.` or `..`, and never starts with a dot).
public struct AppID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The most bytes an identifier may have.
    public static let maximumLength = 255

    /// The identifier as written.
    public let rawValue: String

    /// Validates `rawValue`.
    /// - Throws: `AppIDError` naming the value and what is wrong with it.
    public init(_ rawValue: String) throws(AppIDError) {
        if let reason = Self.problem(in: rawValue) {
            throw AppIDError(value: rawValue, reason: reason)
        }
        self.rawValue = rawValue
    }

    /// For identifiers known to be valid (literals in tests); never for input.
    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Byte order. Identifiers are ASCII, for which String's own comparison (Unicode scalar
    /// order, on its fast path) is the same order at a tenth of the cost of comparing the
    /// `utf8` views element by element.
    public static func < (lhs: AppID, rhs: AppID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    private static func problem(in value: String) -> AppIDError.Reason? {
        let bytes = Array(value.utf8)
        if bytes.isEmpty { return .empty }
        if bytes.count > maximumLength { return .tooLong(bytes: bytes.count) }
        var elements = 1
        var elementLength = 0
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: ".") {
                if elementLength == 0 { return .emptyElement(offset: offset) }
                elements += 1
                elementLength = 0
            } else if isElementByte(byte) {
                elementLength += 1
            } else {
                // Every byte before `offset` is ASCII, so `offset` starts a scalar.
                let scalar = String(decoding: bytes[offset...], as: UTF8.self).unicodeScalars.first
                    .map { String($0) } ?? "?"
                return .invalidCharacter(scalar, offset: offset)
            }
        }
        if elementLength == 0 { return .emptyElement(offset: bytes.count) }
        if elements < 2 { return .tooFewElements }
        return nil
    }

    private static func isElementByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}

/// Why a string is not a valid `AppID`.
public struct AppIDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        case empty
        /// Longer than `AppID.maximumLength` bytes.
        case tooLong(bytes: Int)
        /// Only one element: a reverse-DNS identifier needs at least one dot.
        case tooFewElements
        /// Two dots in a row, or a dot at the start or end; `offset` is the byte offset.
        case emptyElement(offset: Int)
        /// A character outside ASCII letters, digits, `-`, `_` and `.`; `offset` is the byte offset.
        case invalidCharacter(String, offset: Int)
    }

    /// The rejected value, as given.
    public let value: String
    public let reason: Reason

    public var description: String {
        let what: String
        switch reason {
        case .empty:
            what = "is empty"
        case .tooLong(let bytes):
            what = "is \(bytes) bytes long (at most \(AppID.maximumLength))"
        case .tooFewElements:
            what = "needs at least two dot-separated elements (reverse-DNS, like com.example.app)"
        case .emptyElement(let offset):
            what = "has an empty element at byte \(offset)"
        case .invalidCharacter(let character, let offset):
            what = "has the character \(character.debugDescription) at byte \(offset) "
                + "(only ASCII letters, digits, '-', '_' and '.' are allowed)"
        }
        return "invalid app id \(value.quotedForMessage): \(what)"
    }
}
