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

    /// Serialises a JSONSerialization-ready object: pretty for documents,
    /// one line for streams (`watch --json`).
    public static func text(_ object: Any, compact: Bool = false) throws(CLIError) -> String {
        // An empty list or object is "[]" or "{}", not Foundation's pretty "[\n\n]".
        if let list = object as? [Any], list.isEmpty { return "[]" }
        if let dictionary = object as? [String: Any], dictionary.isEmpty { return "{}" }
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
        if !compact { options.insert(.prettyPrinted) }
        do {
            let data = try JSONSerialization.data(withJSONObject: object, options: options)
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw .failed("cannot write the broker's data as JSON: \(error)")
        }
    }
}
