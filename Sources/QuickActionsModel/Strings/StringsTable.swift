import Foundation

/// One `InfoPlist.strings` table: localised strings by key.
///
/// `parse(_:)` reads the text format Apple's tools write (`"key" = "value";`, UTF-8 or UTF-16)
/// as well as XML, binary and old-style (`{ … }`) property-list dictionaries of strings.
public struct StringsTable: Sendable, Hashable {
    /// The table's entries.
    public var entries: [String: String]

    public init(_ entries: [String: String] = [:]) {
        self.entries = entries
    }

    /// The localised string for `key`, or nil when the table has none.
    public subscript(key: String) -> String? { entries[key] }

    /// The most bytes `parse` accepts; larger input is refused rather than read.
    public static let maximumSize = 8 << 20

    /// Parses a strings table.
    ///
    /// Pure and total: any input gives a table or a `StringsTableError`, without crashing or
    /// hanging, in time linear in the input. Encodings: UTF-8 (with or without BOM), UTF-16
    /// little or big endian with a BOM, and UTF-16 without a BOM recognised by its zero bytes.
    /// In the text format, a later duplicate key replaces an earlier one (as Apple's parser does),
    /// and `"key";` alone maps the key to itself.
    public static func parse(_ data: Data) throws(StringsTableError) -> StringsTable {
        if data.count > maximumSize {
            throw .tooLarge(bytes: data.count)
        }
        let bytes = [UInt8](data)
        if PropertyListStrings.looksLikePropertyList(bytes) {
            return StringsTable(try PropertyListStrings.parse(data))
        }
        let scalars = try StringsTextDecoder.decode(bytes)
        if PropertyListStrings.startsWithBrace(scalars) {
            return StringsTable(try PropertyListStrings.parse(data))
        }
        var parser = StringsTextParser(scalars)
        return StringsTable(try parser.parseEntries())
    }
}

/// Why a strings table could not be read. Positions are 1-based; columns count characters
/// (Unicode scalars).
public enum StringsTableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A syntax or encoding error in the text format at `line`, `column`.
    case syntax(line: Int, column: Int, reason: String)
    /// Property-list input that Foundation refused, or that is not a dictionary of strings.
    case propertyList(reason: String)
    /// Larger than `StringsTable.maximumSize`.
    case tooLarge(bytes: Int)

    public var description: String {
        switch self {
        case .syntax(let line, let column, let reason):
            return "line \(line), column \(column): \(reason)"
        case .propertyList(let reason):
            return "property list: \(reason)"
        case .tooLarge(let bytes):
            return "\(bytes) bytes is larger than the \(StringsTable.maximumSize) bytes a strings table may have"
        }
    }
}

/// Strings tables written as property lists (XML, binary or old-style `{ … }`).
enum PropertyListStrings {
    static func looksLikePropertyList(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: Array("bplist".utf8)) { return true }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let text = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return text.starts(with: Array("<?xml".utf8)) || text.starts(with: Array("<plist".utf8))
            || text.starts(with: Array("<!DOCTYPE plist".utf8))
    }

    /// True when the first significant character (after white space and comments) is `{`.
    static func startsWithBrace(_ scalars: [Unicode.Scalar]) -> Bool {
        var parser = StringsTextParser(scalars)
        parser.skipTrivia()
        return parser.peek == "{"
    }

    static func parse(_ data: Data) throws(StringsTableError) -> [String: String] {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .propertyList(reason: Self.reason(error))
        }
        guard let dictionary = object as? [String: Any] else {
            throw .propertyList(reason: "the top level is \(type(of: object)), not a dictionary")
        }
        var entries: [String: String] = [:]
        for (key, value) in dictionary {
            guard let string = value as? String else {
                throw .propertyList(reason: "the value of \(key.quotedForMessage) is \(type(of: value)), not a string")
            }
            entries[key] = string
        }
        return entries
    }

    /// Foundation's description of a property-list error, in one line.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String { return debug }
        return nsError.localizedDescription
    }
}
