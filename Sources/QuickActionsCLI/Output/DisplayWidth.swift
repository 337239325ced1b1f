/// How many terminal columns text takes, and how to cut it to fit: wide
/// (East Asian, emoji) characters take two, combining marks none.
public enum DisplayWidth {
    /// The columns `text` takes on a terminal.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (grapheme cluster) takes.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation })
            || character.unicodeScalars.contains("\u{FE0F}")
        {
            return 2
        }
        return scalarWidth(first)
    }

    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        let value = scalar.value
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// `text` cut to at most `width` columns, ending in "…" when cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        let columns = of(text)
        return columns >= width ? text : text + String(repeating: " ", count: width - columns)
    }

    /// Text from a plugin made safe for one terminal line: control characters
    /// (newlines, tabs, escape sequences) become spaces.
    public static func sanitize(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? " " : scalar
        }))
    }
}
