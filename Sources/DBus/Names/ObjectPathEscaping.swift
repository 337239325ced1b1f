extension ObjectPath {
    /// Escapes arbitrary text into a valid object path element, exactly as sd-bus's
    /// `bus_label_escape` (used by `sd_bus_path_encode`) does, so paths built here match
    /// those systemd-based peers build:
    ///
    /// - the empty string becomes "_";
    /// - every byte outside `[A-Za-z0-9]`, and a digit in the first position, becomes
    ///   "_" followed by two lowercase hex digits of the UTF-8 byte.
    ///
    /// `"com.example.music"` becomes `"com_2eexample_2emusic"`; `"1up"` becomes `"_31up"`.
    public static func escapedElement(_ text: String) -> String {
        let utf8 = text.utf8
        if utf8.isEmpty {
            return "_"
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count * 3)
        var isFirst = true
        for byte in utf8 {
            let isLetter = (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            if isLetter || (!isFirst && NameRules.isDigit(byte)) {
                result.append(byte)
            } else {
                result.append(UInt8(ascii: "_"))
                result.append(hexDigits[Int(byte >> 4)])
                result.append(hexDigits[Int(byte & 0x0F)])
            }
            isFirst = false
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Reverses ``escapedElement(_:)`` as sd-bus's `bus_label_unescape` does: "_" alone is
    /// the empty string; "_" followed by two hex digits (either case) is that byte; any
    /// other "_" is kept literally.
    ///
    /// - Returns: the text, or nil when the unescaped bytes are not valid UTF-8 or
    ///   contain NUL (which sd-bus's C strings could not carry either).
    public static func unescapedElement(_ element: String) -> String? {
        let bytes = Array(element.utf8)
        if bytes == [UInt8(ascii: "_")] {
            return ""
        }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "_"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(byte)
                index += 1
            }
        }
        var ascii = true
        for byte in result {
            if byte == 0 { return nil }
            if byte >= 0x80 { ascii = false }
        }
        // ASCII (most app ids) is UTF-8 as it stands; `String(validating:)` cost 2,000
        // instructions an id, and every property read of an app's object asks.
        return ascii ? String(decoding: result, as: UTF8.self) : String(validating: result, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
