/// An object path ("/org/example/Music/Player").
///
/// Rules (D-Bus specification, "Valid Object Paths"): begins with "/"; elements
/// separated by "/" are non-empty and contain only `[A-Za-z0-9_]` (they may begin
/// with a digit); no trailing "/" except for the root path "/". The specification
/// sets no length limit for object paths (only the message size limits them), so
/// none is imposed here.
public struct ObjectPath: DBusName {
    /// The path as sent on the bus.
    public let rawValue: String

    /// The root path "/".
    public static let root = ObjectPath(unchecked: "/")

    /// Validates `string` as an object path.
    public init(_ string: String) throws(DBusNameError) {
        let utf8 = string.utf8
        guard let first = utf8.first else {
            throw .empty(kind: .objectPath)
        }
        guard first == UInt8(ascii: "/") else {
            throw .missingLeadingSlash(kind: .objectPath, value: string)
        }
        if utf8.count > 1 {
            if utf8.last == UInt8(ascii: "/") {
                throw .trailingSlash(kind: .objectPath, value: string)
            }
            try NameRules.checkElements(
                string, kind: .objectPath, from: 1, separator: UInt8(ascii: "/"), hyphen: false,
                leadingDigit: true, minimumElements: 1)
        }
        rawValue = string
    }

    /// Builds a path from already separated elements; `[]` is the root path.
    public init(elements: [String]) throws(DBusNameError) {
        var path = ObjectPath.root
        for element in elements {
            path = try path.appending(element)
        }
        self = path
    }

    /// Wraps a string known to be a valid object path (e.g. one libdbus has validated).
    init(unchecked string: String) {
        rawValue = string
    }

    /// The elements between the slashes; empty for the root path.
    public var elements: [String] {
        rawValue.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether this is the root path "/".
    public var isRoot: Bool { rawValue == "/" }

    /// The path with one more element; `element` must be a valid path element
    /// (non-empty, `[A-Za-z0-9_]` only). Use ``escapedElement(_:)`` for arbitrary text.
    public func appending(_ element: String) throws(DBusNameError) -> ObjectPath {
        try ObjectPath.checkElement(element)
        return ObjectPath(unchecked: isRoot ? "/" + element : rawValue + "/" + element)
    }

    /// The path with `text` escaped (see ``escapedElement(_:)``) and appended as one element.
    /// Never fails: every escaped string is a valid element.
    public func appendingEscaped(_ text: String) -> ObjectPath {
        let element = ObjectPath.escapedElement(text)
        return ObjectPath(unchecked: isRoot ? "/" + element : rawValue + "/" + element)
    }

    /// The path without its last element; nil for the root path.
    public var parent: ObjectPath? {
        if isRoot {
            return nil
        }
        let utf8 = rawValue.utf8
        guard let lastSlash = utf8.lastIndex(of: UInt8(ascii: "/")), lastSlash != utf8.startIndex else {
            return .root
        }
        return ObjectPath(unchecked: String(decoding: utf8[utf8.startIndex..<lastSlash], as: UTF8.self))
    }

    /// The last element; nil for the root path.
    public var lastElement: String? {
        elements.last
    }

    /// Whether `other` lies strictly below this path: "/a" is an ancestor of "/a/b"
    /// but not of "/a" itself nor of "/ab". The root is an ancestor of every other path.
    public func isAncestor(of other: ObjectPath) -> Bool {
        if isRoot {
            return !other.isRoot
        }
        let mine = rawValue.utf8
        let theirs = other.rawValue.utf8
        guard theirs.count > mine.count, theirs.starts(with: mine) else {
            return false
        }
        return theirs[theirs.index(theirs.startIndex, offsetBy: mine.count)] == UInt8(ascii: "/")
    }

    /// Validates a single path element.
    static func checkElement(_ element: String) throws(DBusNameError) {
        if element.isEmpty {
            throw .empty(kind: .objectPathElement)
        }
        try NameRules.checkElements(
            element, kind: .objectPathElement, separator: nil, hyphen: false, leadingDigit: true,
            minimumElements: 1)
    }
}
