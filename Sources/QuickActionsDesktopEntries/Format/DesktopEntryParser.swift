import Glibc

/// Reads desktop entry text into a ``DesktopEntryFile``, line by line, the way GLib's key file
/// reader does: `#` comments and blank lines, `[Group]` headers, `Key=value` and
/// `Key[locale]=value` entries with optional spaces around `=`.
///
/// Any input gives a file or an error naming the line; nothing is dropped.
public enum DesktopEntryParser {
    /// The most bytes an original entry may have; bigger files are refused unread.
    public static let maximumSize = 1 << 20

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// 1-based; 0 for the file as a whole.
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }

        public var description: String { line == 0 ? reason : "line \(line): \(reason)" }
    }

    /// Parses UTF-8 bytes.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> DesktopEntryFile {
        guard bytes.count <= maximumSize else {
            throw ParseError(line: 0, reason: "\(bytes.count) bytes, more than the \(maximumSize) a desktop entry may have")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ParseError(line: 0, reason: "not UTF-8")
        }
        let hasReturn = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { memchr($0, Int32(UInt8(ascii: "\r")), buffer.count) != nil } ?? false
        }
        return hasReturn ? try parse(text) : try parse(lines: lines(of: bytes))
    }

    /// The lines of text without a "\r", split at each "\n" with memchr: the lines
    /// `String.split(separator: "\n", omittingEmptySubsequences: false)` gives.
    private static func lines(of bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [""] }
            var lines: [String] = []
            var start = 0
            while true {
                let rest = buffer.count - start
                guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), rest) else {
                    lines.append(String(decoding: UnsafeBufferPointer(start: base + start, count: rest), as: UTF8.self))
                    return lines
                }
                let end = found.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
                lines.append(String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self))
                start = end + 1
            }
        }
    }

    /// Parses text.
    public static func parse(_ text: String) throws(ParseError) -> DesktopEntryFile {
        let lines: [String]
        if text.utf8.contains(UInt8(ascii: "\r")) {
            // "\r\n" is one Character, not a line break: split as Characters, as always.
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        } else {
            // The same lines, split as bytes: a "\n" is a Character of its own unless a "\r"
            // comes before it, and splitting Characters costs a grapheme break test per byte
            // (a third of reading an installed application, issue 33 §6).
            lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        return try parse(lines: lines)
    }

    /// Parses text split at each "\n".
    private static func parse(lines: [String]) throws(ParseError) -> DesktopEntryFile {
        var file = DesktopEntryFile()
        var lines = lines
        // A final newline ends the last line; it does not start another.
        if lines.last == "" { lines.removeLast() }
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty || trimmed.first == "#" {
                if file.groups.isEmpty {
                    file.preamble.append(line)
                } else {
                    file.groups[file.groups.count - 1].lines.append(.comment(line))
                }
                continue
            }
            if trimmed.first == "[" {
                guard trimmed.last == "]", trimmed.count >= 3 else {
                    throw ParseError(line: number, reason: "\"\(ValueEscaping.bounded(line))\" is not a group header")
                }
                let name = String(trimmed.dropFirst().dropLast())
                guard !name.contains("[" as Character) && !name.contains("]" as Character) && !name.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                    throw ParseError(line: number, reason: "the group name \"\(ValueEscaping.bounded(name))\" holds a bracket or a control character")
                }
                guard file.group(name) == nil else {
                    throw ParseError(line: number, reason: "the group [\(ValueEscaping.bounded(name))] appears twice")
                }
                guard line == "[\(name)]" else {
                    throw ParseError(line: number, reason: "the group header \"\(ValueEscaping.bounded(line))\" has spaces around it")
                }
                file.groups.append(DesktopEntryFile.Group(name: name))
                continue
            }
            guard !file.groups.isEmpty else {
                throw ParseError(line: number, reason: "\"\(ValueEscaping.bounded(line))\" comes before the first group")
            }
            var entry = try entry(line, number: number)
            entry.originalLine = line
            file.groups[file.groups.count - 1].lines.append(.entry(entry))
        }
        return file
    }

    /// One `Key[locale] = value` line, read as bytes as GLib's key file reader does (the
    /// separators are ASCII: `=`, `[`, `]`, space and tab).
    static func entry(_ line: String, number: Int) throws(ParseError) -> DesktopEntryFile.Entry {
        let bytes = line.utf8
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw ParseError(line: number, reason: "\"\(ValueEscaping.bounded(line))\" is not a key=value pair, a group or a comment")
        }
        var name = bytes[..<equals]
        while let last = name.last, last == space || last == tab { name = name.dropLast() }
        var value = bytes[bytes.index(after: equals)...]
        while let first = value.first, first == space || first == tab { value = value.dropFirst() }
        var locale: String?
        var key = name
        if name.last == UInt8(ascii: "]"), let open = name.firstIndex(of: UInt8(ascii: "[")) {
            key = name[..<open]
            let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
            guard !inside.isEmpty, !inside.contains(UInt8(ascii: "[")), !inside.contains(UInt8(ascii: "]")) else {
                throw ParseError(line: number, reason: "the key \"\(ValueEscaping.bounded(String(decoding: name, as: UTF8.self)))\" has a bad locale")
            }
            locale = String(decoding: inside, as: UTF8.self)
        }
        let keyText = String(decoding: key, as: UTF8.self)
        guard !keyText.isEmpty, keyText.unicodeScalars.allSatisfy(isKeyScalar) else {
            throw ParseError(
                line: number,
                reason: "the key \"\(ValueEscaping.bounded(String(decoding: name, as: UTF8.self)))\" is empty or holds a bracket, a space or a control character")
        }
        return DesktopEntryFile.Entry(key: keyText, locale: locale, rawValue: String(decoding: value, as: UTF8.self))
    }

    /// What GLib accepts in a key (the spec asks for `A-Za-z0-9-`, but originals in the wild
    /// also use `_` and more, and GLib reads them): anything but brackets, `=`, spaces and
    /// control characters.
    static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        !(scalar == "[" || scalar == "]" || scalar == "=" || scalar == " " || scalar.value < 0x20 || scalar.value == 0x7F)
    }
}
