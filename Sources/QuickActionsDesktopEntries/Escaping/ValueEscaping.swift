/// The Desktop Entry Specification's escapes for values ("Possible value types"):
/// `\s` space, `\n` newline, `\t` tab, `\r` carriage return, `\\` backslash, and in lists
/// `\;` for a semicolon inside an element.
///
/// A string value cannot hold other control characters at all, so ``escape(_:)`` refuses them
/// rather than write a file GLib and desktop-file-validate would read differently.
public enum ValueEscaping {
    /// Why a value cannot be written.
    public struct UnrepresentableValue: Error, Equatable, CustomStringConvertible {
        /// A bounded prefix of the value.
        public let value: String
        /// The first character at fault, as U+XXXX.
        public let character: String

        public var description: String {
            "the value \"\(value)\" holds the control character \(character), which a desktop entry cannot hold"
        }
    }

    /// `value` as it is written after `Key=`: backslash, newline, tab and carriage return
    /// escaped, and a leading or trailing space as `\s` (a key file reader trims both).
    /// - Throws: ``UnrepresentableValue`` for any other control character (U+0000–U+001F, U+007F).
    public static func escape(_ value: String) throws(UnrepresentableValue) -> String {
        try escape(value, semicolons: false)
    }

    /// A list value: each element escaped, `;` inside an element as `\;`, each followed by `;`.
    public static func escapeList(_ elements: [String]) throws(UnrepresentableValue) -> String {
        var result = ""
        for element in elements {
            result += try escape(element, semicolons: true)
            result += ";"
        }
        return result
    }

    private static func escape(_ value: String, semicolons: Bool) throws(UnrepresentableValue) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        let scalars = Array(value.unicodeScalars)
        let firstNonSpace = scalars.firstIndex { $0 != " " } ?? scalars.count
        let lastNonSpace = scalars.lastIndex { $0 != " " } ?? -1
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case ";" where semicolons: result += "\\;"
            case " " where index < firstNonSpace || index > lastNonSpace: result += "\\s"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    throw UnrepresentableValue(value: bounded(value), character: codePoint(scalar))
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The value a key file reader gets from the text after `Key=`: the escapes undone.
    /// An unknown escape is kept as written, backslash included (as GLib's reader does for
    /// values it does not reject).
    public static func unescape(_ raw: Substring) -> String {
        unescape(raw, list: false).first ?? ""
    }

    public static func unescape(_ raw: String) -> String { unescape(raw[...]) }

    /// The elements of a list value: split at each `;` not escaped as `\;`; a last empty element
    /// (after the trailing `;`) is dropped.
    public static func unescapeList(_ raw: String) -> [String] {
        unescape(raw[...], list: true)
    }

    private static func unescape(_ raw: Substring, list: Bool) -> [String] {
        let backslash = UInt8(ascii: "\\"), semicolon = UInt8(ascii: ";")
        // Most values have nothing to undo: then the value is the text itself.
        if !raw.utf8.contains(where: { $0 == backslash || (list && $0 == semicolon) }) {
            return list && raw.isEmpty ? [] : [String(raw)]
        }
        // As UTF-8: every escape and separator is ASCII, and no byte of a longer scalar is.
        var elements: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(raw.utf8.count)
        var bytes = raw.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == backslash {
                guard let next = bytes.next() else {
                    current.append(backslash)
                    break
                }
                switch next {
                case UInt8(ascii: "s"): current.append(UInt8(ascii: " "))
                case UInt8(ascii: "n"): current.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): current.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "r"): current.append(UInt8(ascii: "\r"))
                case backslash: current.append(backslash)
                case semicolon where list: current.append(semicolon)
                default:
                    // Kept as written; the byte after it is never read as a separator.
                    current.append(backslash)
                    current.append(next)
                }
            } else if byte == semicolon && list {
                elements.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        if !list || !current.isEmpty { elements.append(String(decoding: current, as: UTF8.self)) }
        return elements
    }

    /// At most 80 characters of `value`, for messages.
    static func bounded(_ value: String) -> String {
        value.count <= 80 ? value : String(value.prefix(80)) + "…"
    }

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
