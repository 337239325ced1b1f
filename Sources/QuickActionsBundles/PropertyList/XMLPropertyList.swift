import Foundation

/// A reader for Apple's XML property-list format that builds Swift values straight from the bytes.
///
/// Foundation's XML reader on Linux builds CoreFoundation objects and bridges them to Swift
/// (`NSDictionary` to `[AnyHashable: Any]`, every value through `__SwiftValue`), which is about
/// 1.2 M instructions for a 4 KiB `Info.plist`, most of a bundle's start-up cost. This reader
/// walks the UTF-8 bytes once and gives the values `BinaryPropertyList` gives: `Bool`,
/// `NSNumber` (integers as `Int64`, or `UInt64` above `Int64.max`; reals as `Double`), `Date`,
/// `Data`, `String`, `[Any]` and `[String: Any]`.
///
/// Accepted: an optional byte-order mark, XML declaration, processing instructions, comments
/// and a `DOCTYPE` (an internal subset included) around one `<plist>` element holding one
/// value; character references and the five predefined entities; CDATA sections. A later
/// duplicate dictionary key wins, as in Foundation. Refused, naming the byte offset: anything
/// not well formed, unknown elements, text where none belongs, strings that are not UTF-8,
/// nesting deeper than `PropertyListLimits.maximumDepth`, more than
/// `PropertyListLimits.maximumValues` values, and a dictionary holding only `CF$UID` (a
/// keyed-archiver UID, which Foundation would return as an object of its own).
/// A declaration naming an encoding other than UTF-8 gives `nil`: the caller falls back to
/// Foundation, which converts it.
struct XMLPropertyList {
    /// Decodes `bytes`, a whole XML property list; nil when it declares a non-UTF-8 encoding.
    static func decode(_ bytes: [UInt8]) throws(PropertyListError) -> Any? {
        var reader = XMLPropertyList(bytes: bytes)
        return try reader.document()
    }

    private let bytes: [UInt8]
    private var position = 0
    private var values = 0
    /// Where the value being read is, outermost first; turned into text only for an error.
    private var path: [PathStep] = []

    private enum PathStep {
        case key(String)
        case index(Int)
    }

    /// `.a[0].b`, or "the top level"; each key at most 40 characters, the whole at most the
    /// last 200 (a hostile file's keys and nesting would otherwise make the message as long).
    private var place: String {
        if path.isEmpty { return "the top level" }
        let text = path.map { step in
            switch step {
            case .key(let key): return key.count > 40 ? ".\(key.prefix(40))…" : ".\(key)"
            case .index(let index): return "[\(index)]"
            }
        }.joined()
        return text.count > 200 ? "…" + text.suffix(200) : text
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: The document

    private mutating func document() throws(PropertyListError) -> Any? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        // The prolog: declaration, comments, processing instructions, DOCTYPE.
        while true {
            skipWhitespace()
            if at("<?") {
                let start = position
                try skip(past: "?>", what: "processing instruction", from: start)
                if !Self.declaresUTF8(bytes[start..<position]) { return nil }
            } else if at("<!--") {
                try skipComment()
            } else if at("<!DOCTYPE") {
                try skipDoctype()
            } else {
                break
            }
        }
        guard at("<plist") else { throw error("expected <plist>") }
        let tag = try openTag()
        guard tag.kind == .plist else { throw error("expected <plist>, found <\(name(of: tag).prefix(40))>") }
        if tag.empty { throw error("<plist/> holds no value") }
        try skipMisc()
        let value = try self.value(depth: 1)
        try skipMisc()
        try closeTag(tag)
        while position < bytes.count {
            skipWhitespace()
            if position == bytes.count { break }
            if at("<!--") {
                try skipComment()
            } else if at("<?") {
                try skip(past: "?>", what: "processing instruction", from: position)
            } else {
                throw error("content after </plist>")
            }
        }
        return value
    }

    /// Whether a declaration or processing instruction names UTF-8 (or no encoding at all).
    private static func declaresUTF8(_ text: ArraySlice<UInt8>) -> Bool {
        let lower = String(decoding: text, as: UTF8.self).lowercased()
        guard lower.hasPrefix("<?xml"), let range = lower.range(of: "encoding") else { return true }
        let rest = lower[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\"" || $0 == "'" }
        return rest.hasPrefix("utf-8") || rest.hasPrefix("utf8") || rest.hasPrefix("us-ascii")
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(PropertyListError) -> Any {
        if depth > PropertyListLimits.maximumDepth {
            throw error("\(place) is nested deeper than \(PropertyListLimits.maximumDepth) levels")
        }
        values += 1
        if values > PropertyListLimits.maximumValues {
            throw error("the property list has more than \(PropertyListLimits.maximumValues) values")
        }
        guard at("<") else { throw error("expected a value at \(place)") }
        let start = position
        let tag = try openTag()
        switch tag.kind {
        case .dict:
            return try dictionary(tag, depth: depth, start: start)
        case .array:
            var result: [Any] = []
            if tag.empty { return result }
            while true {
                try skipMisc()
                if at("</") { break }
                path.append(.index(result.count))
                result.append(try value(depth: depth + 1))
                path.removeLast()
            }
            try closeTag(tag)
            return result
        case .string:
            return try text(of: tag)
        case .true, .false:
            if !tag.empty {
                try skipMisc()
                try closeTag(tag)
            }
            return tag.kind == .true
        case .integer:
            let text = try self.text(of: tag)
            guard let number = Self.integer(text) else { throw error("<integer> \"\(text.prefix(40))\" is not an integer", at: start) }
            return number
        case .real:
            let text = try self.text(of: tag)
            guard let number = Self.real(text) else { throw error("<real> \"\(text.prefix(40))\" is not a number", at: start) }
            return NSNumber(value: number)
        case .date:
            let text = try self.text(of: tag)
            guard let date = Self.date(text) else { throw error("<date> \"\(text.prefix(40))\" is not an ISO 8601 date", at: start) }
            return date
        case .data:
            let text = try self.text(of: tag)
            let compact = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact) else { throw error("<data> at \(place) is not base64", at: start) }
            return data
        case .key:
            throw error("<key> outside a dictionary at \(place)", at: start)
        case .plist, .other:
            throw error("<\(name(of: tag).prefix(40))> is not a property-list element", at: start)
        }
    }

    private mutating func dictionary(_ open: Tag, depth: Int, start: Int) throws(PropertyListError) -> Any {
        var result: [String: Any] = [:]
        if open.empty { return result }
        while true {
            try skipMisc()
            if at("</") { break }
            let keyStart = position
            let tag = try openTag()
            guard tag.kind == .key else {
                throw error("expected <key> in the dictionary at \(place), found <\(name(of: tag).prefix(40))>", at: keyStart)
            }
            let key = try text(of: tag)
            values += 1
            try skipMisc()
            if at("</") { throw error("the key \"\(key.prefix(40))\" has no value") }
            path.append(.key(key))
            result[key] = try value(depth: depth + 1)
            path.removeLast()
        }
        try closeTag(open)
        // Foundation reads this shape as a keyed-archiver UID object.
        if result.count == 1, result["CF$UID"] is NSNumber {
            throw error("\(place) holds a CF$UID dictionary (a keyed-archiver UID), which is not a property-list value",
                        at: start)
        }
        return result
    }

    // MARK: Tags and text

    private enum Kind: CaseIterable {
        case plist, dict, array, key, string, integer, real, `true`, `false`, date, data, other

        var name: StaticString {
            switch self {
            case .plist: return "plist"
            case .dict: return "dict"
            case .array: return "array"
            case .key: return "key"
            case .string: return "string"
            case .integer: return "integer"
            case .real: return "real"
            case .true: return "true"
            case .false: return "false"
            case .date: return "date"
            case .data: return "data"
            case .other: return ""
            }
        }
    }

    private struct Tag {
        var kind: Kind
        /// Where the element's name is in the bytes.
        var name: Range<Int>
        /// `<name/>`.
        var empty: Bool
    }

    private func name(of tag: Tag) -> String {
        String(decoding: bytes[tag.name], as: UTF8.self)
    }

    /// Whether `bytes[range]` spells `literal`.
    private func spells(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { buffer in
            var index = 0
            while index < buffer.count {
                if bytes[range.lowerBound + index] != buffer[index] { return false }
                index += 1
            }
            return true
        }
    }

    private func kind(_ range: Range<Int>) -> Kind {
        for kind in Kind.allCases where kind != .other && spells(range, kind.name) { return kind }
        return .other
    }

    /// Reads `<name attributes…>` or `<name …/>` at the current position.
    private mutating func openTag() throws(PropertyListError) -> Tag {
        let start = position
        position += 1  // "<"
        let nameStart = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > nameStart else { throw error("expected an element", at: start) }
        let range = nameStart..<position
        let kind = kind(range)
        var name: String { String(decoding: bytes[range], as: UTF8.self) }
        // Attributes are skipped, quoted values included.
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: ">"):
                position += 1
                return Tag(kind: kind, name: range, empty: false)
            case UInt8(ascii: "/"):
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                    throw error("a stray / in <\(name.prefix(40))>")
                }
                position += 2
                return Tag(kind: kind, name: range, empty: true)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quote = bytes[position]
                position += 1
                while position < bytes.count, bytes[position] != quote { position += 1 }
                guard position < bytes.count else { break }
                position += 1
            case UInt8(ascii: "<"):
                throw error("<\(name.prefix(40)) is not closed")
            default:
                position += 1
            }
        }
        throw error("<\(name.prefix(40)) is not closed", at: start)
    }

    /// Reads the `</name>` (white space allowed before `>`) that closes `open`.
    private mutating func closeTag(_ open: Tag) throws(PropertyListError) {
        let start = position
        var name: String { self.name(of: open) }
        guard at("</") else { throw error("expected </\(name)>") }
        position += 2
        let nameStart = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position - nameStart == open.name.count,
              zip(nameStart..<position, open.name).allSatisfy({ bytes[$0] == bytes[$1] }) else {
            throw error("expected </\(name)>, found </\(String(decoding: bytes[nameStart..<position], as: UTF8.self).prefix(40))>",
                        at: start)
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { throw error("</\(name) is not closed", at: start) }
        position += 1
    }

    /// The text content of `tag` up to its closing tag, references resolved; "" for `<tag/>`.
    private mutating func text(of tag: Tag) throws(PropertyListError) -> String {
        if tag.empty { return "" }
        let start = position
        // The common case: plain text up to "</".
        while position < bytes.count, bytes[position] != UInt8(ascii: "<"), bytes[position] != UInt8(ascii: "&") {
            position += 1
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "<"), !at("<!") {
            let end = position
            try closeTag(tag)
            return try string(bytes[start..<end], at: start)
        }
        var text = Array(bytes[start..<position])
        while true {
            guard position < bytes.count else { throw error("<\(name(of: tag))> is not closed", at: start) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                try reference(into: &text)
            } else if at("<![CDATA[") {
                let contentStart = position + 9
                try skip(past: "]]>", what: "CDATA section", from: position)
                text += bytes[contentStart..<(position - 3)]
            } else if at("<!--") {
                try skipComment()
            } else if byte == UInt8(ascii: "<") {
                try closeTag(tag)
                break
            } else {
                text.append(byte)
                position += 1
            }
        }
        return try string(text[...], at: start)
    }

    /// `text` as a String, refused when not UTF-8.
    private func string(_ text: ArraySlice<UInt8>, at start: Int) throws(PropertyListError) -> String {
        let string = text.withUnsafeBufferPointer { buffer -> String? in
            // ASCII, the common case, needs no validation beyond the scan.
            if buffer.allSatisfy({ $0 < 0x80 }) { return String(decoding: buffer, as: UTF8.self) }
            return String(validating: buffer, as: UTF8.self)
        }
        guard let string else { throw error("the text is not UTF-8", at: start) }
        return string
    }

    /// The longest reference looked for: `&#x` and a scalar's hex digits with leading zeros to
    /// spare (XML allows any number of them; more than this is no property list's).
    private static let longestReference = 32

    /// Resolves `&name;` or `&#…;` at the current position into `text`: one of the five
    /// predefined entities, or a decimal (`&#233;`) or hex (`&#x1F600;`) character reference
    /// naming a Unicode scalar other than NUL (not a surrogate, at most U+10FFFF).
    private mutating func reference(into text: inout [UInt8]) throws(PropertyListError) {
        let start = position
        let window = bytes[(position + 1)...].prefix(Self.longestReference)
        // A reference ends at the first ";"; markup or white space before it means there is none.
        let stop = window.firstIndex { byte in
            switch byte {
            case UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: "&"), 0x20, 0x09, 0x0A, 0x0D: return true
            default: return false
            }
        }
        guard let end = stop, bytes[end] == UInt8(ascii: ";") else {
            throw error("an & that starts no reference: \"&\(Self.shown(window.prefix(12)))\"", at: start)
        }
        let name = bytes[(position + 1)..<end]
        position = end + 1
        if name.first == UInt8(ascii: "#") {
            let scalar = try Self.characterReference(name.dropFirst(), at: start)
            UTF8.encode(scalar) { text.append($0) }
            return
        }
        switch String(decoding: name, as: UTF8.self) {
        case "lt": text.append(UInt8(ascii: "<"))
        case "gt": text.append(UInt8(ascii: ">"))
        case "amp": text.append(UInt8(ascii: "&"))
        case "quot": text.append(UInt8(ascii: "\""))
        case "apos": text.append(UInt8(ascii: "'"))
        default: throw error("&\(Self.shown(name)); is not a known entity", at: start)
        }
    }

    /// The scalar `digits` (what follows `&#` up to `;`) names: decimal, or hex after `x`.
    private static func characterReference(_ digits: ArraySlice<UInt8>, at start: Int) throws(PropertyListError) -> Unicode.Scalar {
        let shown = "&#\(shown(digits));"
        var digits = digits
        let radix: UInt32 = digits.first == UInt8(ascii: "x") ? 16 : 10
        if radix == 16 { digits = digits.dropFirst() }
        guard !digits.isEmpty else {
            throw PropertyListError(offset: start, "\(shown) has no digits")
        }
        var code: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default:
                throw PropertyListError(offset: start, "\(shown) is not a \(radix == 16 ? "hex" : "decimal") character reference")
            }
            code = code * radix + digit
            // Past the last scalar already: stop before UInt32 could overflow.
            if code > 0x10FFFF {
                throw PropertyListError(offset: start, "\(shown) is beyond U+10FFFF, the last Unicode scalar")
            }
        }
        if code == 0 { throw PropertyListError(offset: start, "\(shown) names NUL, which XML text cannot hold") }
        guard let scalar = Unicode.Scalar(code) else {
            throw PropertyListError(offset: start, "\(shown) names a UTF-16 surrogate, not a character")
        }
        return scalar
    }

    /// Bytes of the input for a message: at most 32 of them, not-UTF-8 bytes replaced, control
    /// characters escaped.
    private static func shown(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(32), as: UTF8.self)
        let escaped = text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined()
        return bytes.count > 32 ? escaped + "…" : escaped
    }

    // MARK: Scalars

    /// Foundation's reading of `<integer>`: optional white space and sign, decimal or `0x` hex.
    private static func integer(_ text: String) -> NSNumber? {
        var digits = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else { return nil }
        if !negative {
            return magnitude <= UInt64(Int64.max) ? NSNumber(value: Int64(magnitude)) : NSNumber(value: magnitude)
        }
        if magnitude <= UInt64(Int64.max) { return NSNumber(value: -Int64(magnitude)) }
        return magnitude == UInt64(Int64.max) + 1 ? NSNumber(value: Int64.min) : nil
    }

    private static func real(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch trimmed.lowercased() {
        case "nan": return .nan
        case "inf", "infinity", "+inf", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: return Double(trimmed)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, as property lists write dates (UTC).
    private static func date(_ text: String) -> Date? {
        let utf8 = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard utf8.count == 20, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"), utf8[10] == UInt8(ascii: "T"),
              utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"), utf8[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = utf8[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), then seconds since 2001.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
        return Date(timeIntervalSince1970: seconds)
    }

    // MARK: Scanning

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    private func at(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in
            var index = 0
            while index < count {
                if bytes[position + index] != buffer[index] { return false }
                index += 1
            }
            return true
        }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// White space and comments between elements; any other text there is an error.
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipWhitespace()
            if at("<!--") {
                try skipComment()
            } else if position < bytes.count, bytes[position] != UInt8(ascii: "<") {
                throw error("text where an element belongs")
            } else {
                return
            }
        }
    }

    private mutating func skipComment() throws(PropertyListError) {
        try skip(past: "-->", what: "comment", from: position)
    }

    /// `<!DOCTYPE …>`, with an internal subset in brackets.
    private mutating func skipDoctype() throws(PropertyListError) {
        let start = position
        var brackets = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "["): brackets += 1
            case UInt8(ascii: "]"): brackets -= 1
            case UInt8(ascii: ">") where brackets <= 0:
                position += 1
                return
            default: break
            }
            position += 1
        }
        throw error("the DOCTYPE is not closed", at: start)
    }

    /// Moves past the next `terminator`, or throws naming the unclosed `what`.
    private mutating func skip(past terminator: StaticString, what: String, from start: Int) throws(PropertyListError) {
        let count = terminator.utf8CodeUnitCount
        while position < bytes.count {
            if at(terminator) {
                position += count
                return
            }
            position += 1
        }
        throw error("the \(what) is not closed", at: start)
    }

    private func error(_ reason: String, at offset: Int? = nil) -> PropertyListError {
        PropertyListError(offset: offset ?? min(position, bytes.count), reason)
    }
}
