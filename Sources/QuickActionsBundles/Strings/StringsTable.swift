import Foundation
import QuickActionsModel

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
        if PropertyListReader.format(of: bytes) != .unknown {
            return StringsTable(try PropertyListStrings.entries(PropertyListStrings.read(data)))
        }
        let scalars = try StringsTextDecoder.decode(bytes)
        if PropertyListStrings.startsWithBrace(scalars) {
            return StringsTable(try PropertyListStrings.entries(PropertyListStrings.readOldStyle(data)))
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
    /// Property-list input that is broken, or that is not a dictionary of strings.
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

/// Strings tables written as property lists (XML, binary or old-style `{ … }`), read through
/// `PropertyListReader` so that no binary property list reaches Foundation.
enum PropertyListStrings {
    /// True when the first significant character (after white space and comments) is `{`.
    static func startsWithBrace(_ scalars: [Unicode.Scalar]) -> Bool {
        var parser = StringsTextParser(scalars)
        parser.skipTrivia()
        return parser.peek == "{"
    }

    static func read(_ data: Data) throws(StringsTableError) -> Any {
        do {
            return try PropertyListReader.read(data)
        } catch {
            throw .propertyList(reason: "not a property list: \(error)")
        }
    }

    static func readOldStyle(_ data: Data) throws(StringsTableError) -> Any {
        do {
            return try PropertyListReader.readOldStyle(data)
        } catch {
            throw .propertyList(reason: "not a property list: \(error)")
        }
    }

    /// The entries of a property list that must be a dictionary of strings.
    static func entries(_ object: Any) throws(StringsTableError) -> [String: String] {
        guard let dictionary = object as? [String: Any] else {
            throw .propertyList(reason: "the top level is \(PropertyListUserInfo.typeName(object)), not a dictionary")
        }
        var entries: [String: String] = [:]
        for (key, value) in dictionary {
            guard let string = value as? String else {
                throw .propertyList(
                    reason: "the value of \(key.quotedForMessage) is \(PropertyListUserInfo.typeName(value)), not a string")
            }
            entries[key] = string
        }
        return entries
    }
}
