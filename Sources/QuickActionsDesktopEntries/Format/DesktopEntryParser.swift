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
            try read(line, number: offset + 1, into: &file)
        }
        return file
    }

    /// One line of text: a comment or blank line, a group header, or an entry (kept with its
    /// original line). `keys`, when given, is the entries of the current group to keep (and
    /// comments are not kept at all).
    private static func read(
        _ line: String, number: Int, into file: inout DesktopEntryFile, keeping keys: Set<String>? = nil
    ) throws(ParseError) {
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty || trimmed.first == "#" {
            guard keys == nil else { return }
            if file.groups.isEmpty {
                file.preamble.append(line)
            } else {
                file.groups[file.groups.count - 1].lines.append(.comment(line))
            }
            return
        }
        if trimmed.first == "[" {
            file.groups.append(DesktopEntryFile.Group(name: try groupName(line, trimmed: trimmed, number: number, in: file)))
            return
        }
        guard !file.groups.isEmpty else {
            throw ParseError(line: number, reason: "\"\(ValueEscaping.bounded(line))\" comes before the first group")
        }
        var entry = try entry(line, number: number)
        if let keys {
            guard keys.contains(entry.key) else { return }
        } else {
            entry.originalLine = line
        }
        file.groups[file.groups.count - 1].lines.append(.entry(entry))
    }

    /// The name in a `[Group]` header line, checked as GLib checks it.
    private static func groupName(_ line: String, trimmed: Substring, number: Int, in file: DesktopEntryFile) throws(ParseError) -> String {
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
        return name
    }

    /// Parses UTF-8 bytes as ``parse(_:)-([UInt8])`` does, refusing exactly what it refuses with
    /// the same errors, but keeping only the entries `keys` names for each group (none of its
    /// comments, blank lines or original lines). For readers that need a few keys of many files
    /// (the installed applications' index): lines are read as bytes in place, and a String is
    /// made only for the header lines and the entries kept.
    public static func parse(_ bytes: [UInt8], keeping keys: (_ group: String) -> Set<String>) throws(ParseError) -> DesktopEntryFile {
        guard bytes.count <= maximumSize else {
            throw ParseError(line: 0, reason: "\(bytes.count) bytes, more than the \(maximumSize) a desktop entry may have")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ParseError(line: 0, reason: "not UTF-8")
        }
        let result: Result<DesktopEntryFile, ParseError>? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, memchr(base, Int32(UInt8(ascii: "\r")), buffer.count) == nil else { return nil }
            do throws(ParseError) {
                return .success(try scan(buffer, keeping: keys))
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        // A "\r" makes "\r\n" one Character: read it as the whole-file parser does, then keep
        // what `keys` names.
        var file = try parse(text)
        file.preamble = []
        for index in file.groups.indices {
            let kept = keys(file.groups[index].name)
            file.groups[index].lines = file.groups[index].entries.filter { kept.contains($0.key) }.map { entry in
                var entry = entry
                entry.originalLine = nil
                return .entry(entry)
            }
        }
        return file
    }

    /// The lines of `buffer` (no "\r" in it), each looked at as bytes where that decides
    /// as the Character rules of ``read(_:number:into:keeping:)`` would: a line whose first
    /// non-blank byte is `#` or `[` followed by a non-ASCII one (which may join it in one
    /// Character), and every header, go through that function.
    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>, keeping keys: (String) -> Set<String>) throws(ParseError) -> DesktopEntryFile {
        var file = DesktopEntryFile()
        var kept: Set<String> = []
        guard let base = buffer.baseAddress else { return file }
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        var start = 0
        var number = 0
        while start < buffer.count {
            let end = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
                .map { $0.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base) } ?? buffer.count
            defer { start = end + 1 }
            number += 1
            var first = start, last = end
            while first < last, buffer[first] == space || buffer[first] == tab { first += 1 }
            while last > first, buffer[last - 1] == space || buffer[last - 1] == tab { last -= 1 }
            if first == last { continue }
            let lead = buffer[first]
            if lead == UInt8(ascii: "#") || lead == UInt8(ascii: "[") {
                let joinable = first + 1 < last && buffer[first + 1] >= 0x80
                if lead == UInt8(ascii: "#") && !joinable { continue }
                if lead == UInt8(ascii: "["), let name = try asciiGroupName(buffer, start..<end, trimmed: first..<last, number: number, in: file) {
                    file.groups.append(DesktopEntryFile.Group(name: name))
                    kept = keys(name)
                    continue
                }
                let groups = file.groups.count
                try read(text(buffer, start..<end), number: number, into: &file, keeping: kept)
                if file.groups.count > groups { kept = keys(file.groups[groups].name) }
                continue
            }
            guard !file.groups.isEmpty else {
                throw ParseError(line: number, reason: "\"\(ValueEscaping.bounded(text(buffer, start..<end)))\" comes before the first group")
            }
            let parts = try entryParts(buffer, start..<end, number: number)
            let key = text(buffer, parts.key)
            guard kept.contains(key) else { continue }
            file.groups[file.groups.count - 1].lines.append(.entry(DesktopEntryFile.Entry(
                key: key, locale: parts.locale.map { text(buffer, $0) }, rawValue: text(buffer, parts.value))))
        }
        return file
    }

    /// A header line of ASCII only checked as ``groupName(_:trimmed:number:in:)`` checks it
    /// (in ASCII, without "\r", a Character is a byte); nil for a line that is not all ASCII.
    private static func asciiGroupName(
        _ buffer: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, trimmed: Range<Int>, number: Int, in file: DesktopEntryFile
    ) throws(ParseError) -> String? {
        guard buffer[line].allSatisfy({ $0 < 0x80 }) else { return nil }
        guard buffer[trimmed.upperBound - 1] == UInt8(ascii: "]"), trimmed.count >= 3 else {
            throw ParseError(line: number, reason: "\"\(ValueEscaping.bounded(text(buffer, line)))\" is not a group header")
        }
        let inside = trimmed.lowerBound + 1..<trimmed.upperBound - 1
        let name = text(buffer, inside)
        guard !buffer[inside].contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") || $0 < 0x20 }) else {
            throw ParseError(line: number, reason: "the group name \"\(ValueEscaping.bounded(name))\" holds a bracket or a control character")
        }
        guard file.group(name) == nil else {
            throw ParseError(line: number, reason: "the group [\(ValueEscaping.bounded(name))] appears twice")
        }
        guard trimmed == line else {
            throw ParseError(line: number, reason: "the group header \"\(ValueEscaping.bounded(text(buffer, line)))\" has spaces around it")
        }
        return name
    }

    private static func text(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// One `Key[locale] = value` line, read as bytes as GLib's key file reader does (the
    /// separators are ASCII: `=`, `[`, `]`, space and tab).
    static func entry(_ line: String, number: Int) throws(ParseError) -> DesktopEntryFile.Entry {
        var line = line
        let result = line.withUTF8 { buffer -> Result<DesktopEntryFile.Entry, ParseError> in
            do throws(ParseError) {
                let parts = try entryParts(buffer, 0..<buffer.count, number: number)
                return .success(DesktopEntryFile.Entry(
                    key: text(buffer, parts.key), locale: parts.locale.map { text(buffer, $0) }, rawValue: text(buffer, parts.value)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Where the key, the locale and the value of the entry line `line` of `buffer` are.
    private static func entryParts(
        _ buffer: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int
    ) throws(ParseError) -> (key: Range<Int>, locale: Range<Int>?, value: Range<Int>) {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        guard let equals = buffer[line].firstIndex(of: UInt8(ascii: "=")) else {
            throw ParseError(line: number, reason: "\"\(ValueEscaping.bounded(text(buffer, line)))\" is not a key=value pair, a group or a comment")
        }
        var nameEnd = equals
        while nameEnd > line.lowerBound, buffer[nameEnd - 1] == space || buffer[nameEnd - 1] == tab { nameEnd -= 1 }
        var valueStart = equals + 1
        while valueStart < line.upperBound, buffer[valueStart] == space || buffer[valueStart] == tab { valueStart += 1 }
        let name = line.lowerBound..<nameEnd
        var key = name
        var locale: Range<Int>?
        if nameEnd > name.lowerBound, buffer[nameEnd - 1] == UInt8(ascii: "]"),
           let open = buffer[name].firstIndex(of: UInt8(ascii: "[")) {
            key = name.lowerBound..<open
            let inside = open + 1..<nameEnd - 1
            guard !inside.isEmpty, !buffer[inside].contains(UInt8(ascii: "[")), !buffer[inside].contains(UInt8(ascii: "]")) else {
                throw ParseError(line: number, reason: "the key \"\(ValueEscaping.bounded(text(buffer, name)))\" has a bad locale")
            }
            locale = inside
        }
        // Byte by byte: every non-ASCII scalar is a key scalar, and its bytes are all ≥ 0x80.
        guard !key.isEmpty, buffer[key].allSatisfy({ $0 >= 0x80 || isKeyScalar(Unicode.Scalar($0)) }) else {
            throw ParseError(
                line: number,
                reason: "the key \"\(ValueEscaping.bounded(text(buffer, name)))\" is empty or holds a bracket, a space or a control character")
        }
        return (key, locale, valueStart..<line.upperBound)
    }

    /// What GLib accepts in a key (the spec asks for `A-Za-z0-9-`, but originals in the wild
    /// also use `_` and more, and GLib reads them): anything but brackets, `=`, spaces and
    /// control characters.
    static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        !(scalar == "[" || scalar == "]" || scalar == "=" || scalar == " " || scalar.value < 0x20 || scalar.value == 0x7F)
    }
}
