import DBus
import Foundation

/// `--json`: the data exactly as the broker sent it, as one JSON document
/// with sorted keys (JSONSerialization).
///
/// D-Bus values map as: strings, object paths and signatures to strings;
/// booleans to true/false; every integer type and doubles to numbers (a
/// double that is not finite to null); arrays (bytes too) and structs to
/// arrays; dictionaries to objects (keys as text); variants to their content.
public enum JSONOutput {
    /// A D-Bus value as a JSONSerialization-ready object.
    public static func object(_ value: Value) -> Any {
        switch value {
        case .byte(let number): return Int(number)
        case .boolean(let flag): return flag
        case .int16(let number): return Int(number)
        case .uint16(let number): return Int(number)
        case .int32(let number): return Int(number)
        case .uint32(let number): return Int(number)
        case .int64(let number): return number
        case .uint64(let number): return number
        case .double(let number): return number.isFinite ? number : NSNull()
        case .string(let text): return text
        case .objectPath(let path): return path.rawValue
        case .signature(let signature): return signature.description
        case .array(_, let elements): return elements.map(object)
        case .structure(let fields): return fields.map(object)
        case .variant(let inner): return object(inner)
        case .dictionary(_, _, let entries):
            var result: [String: Any] = [:]
            for entry in entries {
                result[key(entry.key)] = object(entry.value)
            }
            return result
        }
    }

    /// A dictionary key as JSON text.
    static func key(_ value: Value) -> String {
        switch value.unwrappedVariant {
        case .string(let text): text
        case .objectPath(let path): path.rawValue
        case .boolean(let flag): flag ? "true" : "false"
        case .double(let number): "\(number)"
        case let other: other.int64.map(String.init) ?? other.uint64.map(String.init) ?? "\(other)"
        }
    }

    /// One app's items: `{"app-id": …, "items": [item…]}`, each item exactly its `a{sv}`.
    public static func group(_ group: AppItems) -> [String: Any] {
        ["app-id": group.appID, "items": group.items.map { object($0.raw) }]
    }

    /// An app: `{"id", "name", "icon", "version", "loaded"}` (the last two when known).
    public static func application(_ app: Application) -> [String: Any] {
        var result: [String: Any] = ["id": app.id, "name": app.name, "icon": app.icon]
        if let version = app.version { result["version"] = version }
        if let loaded = app.loaded { result["loaded"] = loaded }
        return result
    }

    /// A Perform reply: `{"success": b, "result": {…}}`, plus what was performed.
    public static func performResult(_ result: PerformResult, app: String, type: String, id: String) -> [String: Any] {
        ["success": result.success, "result": object(result.raw), "app-id": app, "type": type, "id": id]
    }

    /// `text` with every empty array or object written `[]` or `{}`: Foundation's
    /// pretty printer puts blank lines inside them. Whitespace inside strings is kept.
    static func collapsingEmptyContainers(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var inString = false
        var escaped = false
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            result.append(byte)
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                let rest = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
                if rest.first == close {
                    result.append(close)
                    bytes = rest.dropFirst()
                }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Serialises a JSONSerialization-ready object: pretty for documents,
    /// one line for streams (`watch --json`).
    public static func text(_ object: Any, compact: Bool = false) throws(CLIError) -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        if !compact { options.insert(.prettyPrinted) }
        do {
            let data = try JSONSerialization.data(withJSONObject: object, options: options)
            return collapsingEmptyContainers(String(decoding: data, as: UTF8.self))
        } catch {
            throw .failed("cannot write the broker's data as JSON: \(error)")
        }
    }
}
