import QuickActionsModel

/// The text format of `.strings` files, as Apple's old-style property-list parser reads it:
///
///     /* comment */  // comment
///     "key" = "value";
///     unquoted_key = "value";
///     "key";                      (the key maps to itself)
///
/// Quoted strings take `"` or `'` and the escapes `\n \t \r \a \b \f \v \" \' \\`, `\U1234` and
/// `\u1234` (one to four hex digits; a surrogate pair is two such escapes), and octal `\101`;
/// any other escaped character stands for itself. Unquoted words are made of ASCII letters,
/// digits and `_ $ + / : . -`.
///
/// The parser never recurses and every step consumes input, so any text ends in linear time.
struct StringsTextParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var position = Position()

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        if index < scalars.count {
            position.advance(past: scalars[index])
            index += 1
        }
    }

    mutating func parseEntries() throws(StringsTableError) -> [String: String] {
        var entries: [String: String] = [:]
        // A leading BOM decoded from UTF-8 or UTF-16 without its own mark is not content.
        if peek == "\u{FEFF}" { advance() }
        while true {
            try skipCommentsAndSpace()
            guard peek != nil else { return entries }
            let key = try parseString(valueOf: nil)
            try skipCommentsAndSpace()
            if peek == ";" {
                advance()
                entries[key] = key
                continue
            }
            guard peek == "=" else {
                throw position.error("expected '=' or ';' after the key \(key.quotedForMessage), found \(describe(peek))")
            }
            advance()
            try skipCommentsAndSpace()
            let value = try parseString(valueOf: key)
            try skipCommentsAndSpace()
            guard peek == ";" else {
                throw position.error("expected ';' after the value of \(key.quotedForMessage), found \(describe(peek))")
            }
            advance()
            entries[key] = value
        }
    }

    /// Skips white space and comments, ignoring an unterminated comment (for peeking only).
    mutating func skipTrivia() {
        do { try skipCommentsAndSpace() } catch {}
    }

    private mutating func skipCommentsAndSpace() throws(StringsTableError) {
        while let scalar = peek {
            if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                advance()
            } else if scalar == "/", peek(offset: 1) == "/" {
                while let next = peek, next != "\n", next != "\r" { advance() }
            } else if scalar == "/", peek(offset: 1) == "*" {
                let start = position
                advance()
                advance()
                while true {
                    guard let next = peek else { throw start.error("unterminated /* comment") }
                    if next == "*", peek(offset: 1) == "/" {
                        advance()
                        advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    /// Parses a key (`valueOf` nil) or the value of the key `valueOf`.
    private mutating func parseString(valueOf key: String?) throws(StringsTableError) -> String {
        guard let first = peek else {
            throw position.error("expected the \(Self.role(key)), found the end of the file")
        }
        if first == "\"" || first == "'" {
            return try parseQuoted(quote: first, valueOf: key)
        }
        guard Self.isUnquoted(first) else {
            throw position.error("expected the \(Self.role(key)) as a quoted string or a word, found \(describe(first))")
        }
        var result = String.UnicodeScalarView()
        while let scalar = peek, Self.isUnquoted(scalar) {
            result.append(scalar)
            advance()
        }
        return String(result)
    }

    private mutating func parseQuoted(quote: Unicode.Scalar, valueOf key: String?) throws(StringsTableError) -> String {
        let start = position
        advance()
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else {
                throw start.error("unterminated string (the \(Self.role(key))) starting here")
            }
            if scalar == quote {
                advance()
                return String(result)
            }
            if scalar == "\\" {
                try parseEscape(into: &result)
            } else {
                result.append(scalar)
                advance()
            }
        }
    }

    private mutating func parseEscape(into result: inout String.UnicodeScalarView) throws(StringsTableError) {
        let start = position
        advance()
        guard let scalar = peek else { throw start.error("a backslash at the end of the file") }
        switch scalar {
        case "n": result.append("\n")
        case "t": result.append("\t")
        case "r": result.append("\r")
        case "a": result.append("\u{07}")
        case "b": result.append("\u{08}")
        case "f": result.append("\u{0C}")
        case "v": result.append("\u{0B}")
        case "U", "u":
            advance()
            let unit = try hexUnit(start: start)
            result.append(try scalarFromUTF16(unit, start: start))
            return
        case "0"..."7":
            var value: UInt32 = 0
            var digits = 0
            while digits < 3, let digit = peek, ("0"..."7").contains(digit) {
                value = value * 8 + (digit.value - 48)
                digits += 1
                advance()
            }
            // Three octal digits reach at most 0o777, always a valid scalar.
            result.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            return
        default:
            result.append(scalar)
        }
        advance()
    }

    /// Reads one to four hex digits after `\U`.
    private mutating func hexUnit(start: Position) throws(StringsTableError) -> UInt16 {
        var value: UInt16 = 0
        var digits = 0
        while digits < 4, let digit = peek, let nibble = Self.hexValue(digit) {
            value = value << 4 | nibble
            digits += 1
            advance()
        }
        if digits == 0 { throw start.error("\\U must be followed by hex digits") }
        return value
    }

    /// Combines a high surrogate with the `\Uxxxx` low surrogate that must follow it.
    private mutating func scalarFromUTF16(_ unit: UInt16, start: Position) throws(StringsTableError) -> Unicode.Scalar {
        if UTF16.isLeadSurrogate(unit) {
            guard peek == "\\", peek(offset: 1) == "U" || peek(offset: 1) == "u" else {
                throw start.error("\\U\(hex(unit)) is a high surrogate without a following \\U low surrogate")
            }
            advance()
            advance()
            let low = try hexUnit(start: start)
            guard UTF16.isTrailSurrogate(low) else {
                throw start.error("\\U\(hex(unit)) is followed by \\U\(hex(low)), not a low surrogate")
            }
            let value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            // A surrogate pair always encodes a scalar in 0x10000...0x10FFFF.
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        guard let scalar = Unicode.Scalar(unit) else {
            throw start.error("\\U\(hex(unit)) is a low surrogate without a high surrogate before it")
        }
        return scalar
    }

    /// "key", or "value of "k"" for the value of the key `k`; for error messages.
    private static func role(_ key: String?) -> String {
        key.map { "value of \($0.quotedForMessage)" } ?? "key"
    }

    private func hex(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private func describe(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "the end of the file" }
        return String(scalar).debugDescription
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt16? {
        switch scalar {
        case "0"..."9": return UInt16(scalar.value - 48)
        case "a"..."f": return UInt16(scalar.value - 87)
        case "A"..."F": return UInt16(scalar.value - 55)
        default: return nil
        }
    }

    private static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "+", "/", ":", ".", "-": return true
        default: return false
        }
    }
}
