/// A small pull tokenizer for the XML that Desktop Bookmark files use, written by hand so that
/// nothing in a file can make it expand entities: any `<!DOCTYPE` (and so any `<!ENTITY`) is
/// refused, and only the five predefined entities and numeric character references are decoded.
/// libxml2, under FoundationXML's `XMLParser`, would read internal DTD subsets.
///
/// It checks what the bookmark reader relies on: tags nest and close in order, attributes are
/// quoted, values and text stay under a length cap, nesting under a depth cap. It does not
/// validate names beyond their characters or check for duplicate attributes.
struct XMLScanner {
    /// One token. Ranges are byte offsets into the scanned buffer; values are raw (undecoded)
    /// until ``XMLScanner/decoded(_:)`` reads them.
    enum Token: Equatable {
        /// `<name attributes>` or, with `selfClosing`, `<name attributes/>`; the attributes are
        /// in ``XMLScanner/attributes`` until the next call.
        case start(name: Range<Int>, selfClosing: Bool)
        case end(name: Range<Int>)
        /// Character data between tags, raw; `cdata` when it came from `<![CDATA[…]]>` (taken
        /// literally, no references).
        case text(Range<Int>, cdata: Bool)
    }

    struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
    }

    struct Limits {
        /// Longest attribute value or run of text, in bytes (raw, before decoding).
        var maximumValueBytes = 64 * 1024
        var maximumDepth = 64
        var maximumAttributes = 64
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let limits: Limits
    /// The current start tag's attributes.
    private(set) var attributes: [Attribute] = []
    private var position = 0
    private var openNames: [Range<Int>] = []
    private var sawRoot = false

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits()) {
        self.bytes = bytes
        self.limits = limits
        attributes.reserveCapacity(8)
        openNames.reserveCapacity(16)
        // A UTF-8 byte order mark.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// The next token, or nil at the end of a well-formed document.
    mutating func next() throws(XMLScanError) -> Token? {
        while true {
            guard position < bytes.count else {
                if let open = openNames.last { throw error("the file ends inside <\(shown(open))>", at: position) }
                if !sawRoot { throw error("the file has no root element", at: position) }
                return nil
            }
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
                guard position - start <= limits.maximumValueBytes else {
                    throw error("text of \(position - start) bytes, more than \(limits.maximumValueBytes)", at: start)
                }
                if openNames.isEmpty {
                    guard isWhitespace(start..<position) else { throw error("text outside the root element", at: start) }
                    continue
                }
                return .text(start..<position, cdata: false)
            }
            // position is at "<"
            if hasPrefix("<?") {
                try skip(past: "?>", what: "processing instruction")
                continue
            }
            if hasPrefix("<!--") {
                try skip(past: "-->", what: "comment")
                continue
            }
            if hasPrefix("<![CDATA[") {
                guard !openNames.isEmpty else { throw error("CDATA outside the root element", at: position) }
                let start = position + 9
                guard let end = find("]]>", from: start) else { throw error("unterminated CDATA section", at: position) }
                guard end - start <= limits.maximumValueBytes else {
                    throw error("CDATA of \(end - start) bytes, more than \(limits.maximumValueBytes)", at: start)
                }
                position = end + 3
                return .text(start..<end, cdata: true)
            }
            if hasPrefix("<!") {
                // <!DOCTYPE, and with it <!ENTITY: the way to entity expansion. Refused outright.
                throw error("a document type or entity declaration (\(prefixText(at: position, 12))), which is refused", at: position)
            }
            if hasPrefix("</") {
                return try endTag()
            }
            return try startTag()
        }
    }

    private mutating func startTag() throws(XMLScanError) -> Token {
        let tagStart = position
        position += 1
        let name = try scanName()
        attributes.removeAll(keepingCapacity: true)
        while true {
            let hadSpace = skipWhitespace()
            guard position < bytes.count else { throw error("the file ends inside a tag", at: tagStart) }
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                try open(name, at: tagStart)
                return .start(name: name, selfClosing: false)
            }
            if byte == UInt8(ascii: "/") {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                    throw error("'/' not followed by '>' in <\(shown(name))>", at: position)
                }
                position += 2
                guard openNames.count > 0 || !sawRoot else { throw error("a second root element", at: tagStart) }
                if openNames.isEmpty { sawRoot = true }
                return .start(name: name, selfClosing: true)
            }
            guard hadSpace else { throw error("no space before an attribute in <\(shown(name))>", at: position) }
            let attributeName = try scanName()
            _ = skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw error("attribute \(shown(attributeName)) has no '='", at: position)
            }
            position += 1
            _ = skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
            else { throw error("attribute \(shown(attributeName))'s value is not quoted", at: position) }
            let quote = bytes[position]
            let valueStart = position + 1
            var end = valueStart
            while end < bytes.count, bytes[end] != quote {
                if bytes[end] == UInt8(ascii: "<") {
                    throw error("'<' in attribute \(shown(attributeName))'s value", at: end)
                }
                end += 1
            }
            guard end < bytes.count else { throw error("attribute \(shown(attributeName))'s value is not closed", at: valueStart) }
            guard end - valueStart <= limits.maximumValueBytes else {
                throw error(
                    "attribute \(shown(attributeName)) of \(end - valueStart) bytes, more than \(limits.maximumValueBytes)",
                    at: valueStart)
            }
            guard attributes.count < limits.maximumAttributes else {
                throw error("more than \(limits.maximumAttributes) attributes in <\(shown(name))>", at: position)
            }
            attributes.append(Attribute(name: attributeName, value: valueStart..<end))
            position = end + 1
        }
    }

    private mutating func open(_ name: Range<Int>, at tagStart: Int) throws(XMLScanError) {
        if openNames.isEmpty {
            guard !sawRoot else { throw error("a second root element", at: tagStart) }
            sawRoot = true
        }
        guard openNames.count < limits.maximumDepth else {
            throw error("elements nested more than \(limits.maximumDepth) deep", at: tagStart)
        }
        openNames.append(name)
    }

    private mutating func endTag() throws(XMLScanError) -> Token {
        let tagStart = position
        position += 2
        let name = try scanName()
        _ = skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw error("end tag </\(shown(name))> is not closed", at: tagStart)
        }
        position += 1
        guard let open = openNames.popLast() else { throw error("</\(shown(name))> closes nothing", at: tagStart) }
        guard same(open, name) else { throw error("</\(shown(name))> closes <\(shown(open))>", at: tagStart) }
        return .end(name: name)
    }

    private mutating func scanName() throws(XMLScanError) -> Range<Int> {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start, position - start <= 1024 else {
            throw error(position == start ? "a name was expected" : "a name longer than 1024 bytes", at: start)
        }
        return start..<position
    }

    /// Letters, digits, `_ : . -` and every byte of a multi-byte UTF-8 character.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."),
            UInt8(ascii: "-"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        return position > start
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    private func isWhitespace(_ range: Range<Int>) -> Bool {
        for index in range where !Self.isSpace(bytes[index]) { return false }
        return true
    }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[position + offset] != start[offset] { return false }
        return true
    }

    private func find(_ needle: StaticString, from start: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        let first = needle.utf8Start[0]
        var index = start
        while index + count <= bytes.count {
            if bytes[index] == first {
                var matched = true
                for offset in 1..<count where bytes[index + offset] != needle.utf8Start[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    private mutating func skip(past terminator: StaticString, what: String) throws(XMLScanError) {
        guard let end = find(terminator, from: position + 2) else { throw error("unterminated \(what)", at: position) }
        position = end + terminator.utf8CodeUnitCount
    }

    /// Whether two ranges hold the same bytes.
    func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] { return false }
        return true
    }

    /// Whether `range` holds exactly `literal`.
    func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard range.count == count else { return false }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[range.lowerBound + offset] != start[offset] { return false }
        return true
    }

    /// The bytes of `range` as a string, undecoded (names); invalid UTF-8 is replaced.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// At most the first 64 bytes of `range`, for error messages.
    func shown(_ range: Range<Int>) -> String {
        range.count <= 64 ? text(range) : text(range.lowerBound..<(range.lowerBound + 64)) + "…"
    }

    private func prefixText(at offset: Int, _ length: Int) -> String {
        text(offset..<min(bytes.count, offset + length))
    }

    /// A raw attribute value or text run with its references decoded: `&lt; &gt; &amp; &apos;
    /// &quot;` and `&#N;` / `&#xN;`. Any other entity is an error (none can be declared).
    func decoded(_ range: Range<Int>) throws(XMLScanError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        guard slice.contains(UInt8(ascii: "&")) else { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                index += 1
                continue
            }
            var semicolon = index + 1
            while semicolon < range.upperBound, semicolon - index <= 12, bytes[semicolon] != UInt8(ascii: ";") {
                semicolon += 1
            }
            guard semicolon < range.upperBound, bytes[semicolon] == UInt8(ascii: ";") else {
                throw error("'&' that starts no reference", at: index)
            }
            let reference = (index + 1)..<semicolon
            if equals(reference, "lt") {
                out.append(UInt8(ascii: "<"))
            } else if equals(reference, "gt") {
                out.append(UInt8(ascii: ">"))
            } else if equals(reference, "amp") {
                out.append(UInt8(ascii: "&"))
            } else if equals(reference, "apos") {
                out.append(UInt8(ascii: "'"))
            } else if equals(reference, "quot") {
                out.append(UInt8(ascii: "\""))
            } else if reference.count >= 2, bytes[reference.lowerBound] == UInt8(ascii: "#") {
                guard let scalar = characterReference(reference.dropFirst()) else {
                    throw error("character reference &\(shown(reference)); is not a valid character", at: index)
                }
                out.append(contentsOf: String(Character(scalar)).utf8)
            } else {
                throw error("unknown entity &\(shown(reference)); (only the predefined five are read)", at: index)
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func characterReference(_ digits: Range<Int>) -> Unicode.Scalar? {
        var radix: UInt32 = 10
        var start = digits.lowerBound
        if bytes[start] == UInt8(ascii: "x") {
            radix = 16
            start += 1
        }
        guard start < digits.upperBound else { return nil }
        var value: UInt32 = 0
        for index in start..<digits.upperBound {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * radix + digit
            if value > 0x10FFFF { return nil }
        }
        guard value != 0 else { return nil }
        return Unicode.Scalar(value)
    }

    func error(_ reason: String, at offset: Int) -> XMLScanError {
        // The line and column, counted only when an error is reported.
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        return XMLScanError(reason: reason, offset: offset, line: line, column: column)
    }
}

/// Why a file is not XML the scanner takes, and where: byte offset, line and column (1-based).
struct XMLScanError: Error, Equatable, CustomStringConvertible {
    var reason: String
    var offset: Int
    var line: Int
    var column: Int

    var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }
}
