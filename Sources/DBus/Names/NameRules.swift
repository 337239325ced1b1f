/// The character and element rules shared by the D-Bus name types.
///
/// Validation works on UTF-8 bytes: every allowed character is ASCII, so the
/// 255-byte limit and byte offsets are exact.
enum NameRules {
    static func isLetterOrUnderscore(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_")
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `[A-Za-z0-9_]`, plus "-" when `hyphen` is set.
    static func isElementCharacter(_ byte: UInt8, hyphen: Bool) -> Bool {
        isLetterOrUnderscore(byte) || isDigit(byte) || (hyphen && byte == UInt8(ascii: "-"))
    }

    /// Checks the common length rules: not empty, at most 255 bytes.
    static func checkLength(_ string: String, kind: DBusNameKind) throws(DBusNameError) {
        let count = string.utf8.count
        if count == 0 {
            throw .empty(kind: kind)
        }
        if count > DBusLimits.maximumNameLength {
            throw .tooLong(kind: kind, value: string, byteCount: count)
        }
    }

    /// Validates `string` as elements separated by `separator`, starting at byte `start`.
    ///
    /// - Parameters:
    ///   - separator: the element separator, or nil for a single-element name.
    ///   - hyphen: whether "-" is allowed (bus names only).
    ///   - leadingDigit: whether an element may begin with a digit.
    ///   - minimumElements: 2 for dotted names, 1 otherwise.
    /// - Returns: the number of elements.
    @discardableResult
    static func checkElements(
        _ string: String,
        kind: DBusNameKind,
        from start: Int = 0,
        separator: UInt8?,
        hyphen: Bool,
        leadingDigit: Bool,
        minimumElements: Int
    ) throws(DBusNameError) -> Int {
        var element = 1
        var elementLength = 0
        var offset = 0
        for byte in string.utf8 {
            defer { offset += 1 }
            if offset < start {
                continue
            }
            if byte == separator {
                if elementLength == 0 {
                    throw .emptyElement(kind: kind, value: string, element: element)
                }
                element += 1
                elementLength = 0
                continue
            }
            guard isElementCharacter(byte, hyphen: hyphen) else {
                throw .invalidCharacter(
                    kind: kind, value: string, character: scalar(in: string, atByte: offset), offset: offset)
            }
            if elementLength == 0 && !leadingDigit && isDigit(byte) {
                throw .leadingDigit(kind: kind, value: string, element: element)
            }
            elementLength += 1
        }
        if elementLength == 0 {
            throw .emptyElement(kind: kind, value: string, element: element)
        }
        if element < minimumElements {
            throw .tooFewElements(kind: kind, value: string)
        }
        return element
    }

    /// The Unicode scalar that starts at (or contains) byte `offset` of `string`, for error messages.
    static func scalar(in string: String, atByte offset: Int) -> Unicode.Scalar {
        var position = 0
        for scalar in string.unicodeScalars {
            let width = scalar.utf8.count
            if offset < position + width {
                return scalar
            }
            position += width
        }
        return "\u{FFFD}"
    }

    /// Validates a dotted name with interface-name rules: `[A-Za-z0-9_]`, no leading
    /// digits, at least two elements, at most 255 bytes. Error names share these rules.
    static func checkInterfaceRules(_ string: String, kind: DBusNameKind) throws(DBusNameError) {
        try checkLength(string, kind: kind)
        try checkElements(
            string, kind: kind, separator: UInt8(ascii: "."), hyphen: false, leadingDigit: false,
            minimumElements: 2)
    }

    /// Validates a unique connection name (":1.42"): bus-name characters including "-",
    /// elements may start with digits, at least two elements after the ":".
    static func checkUniqueName(_ string: String, kind: DBusNameKind) throws(DBusNameError) {
        try checkLength(string, kind: kind)
        guard string.utf8.first == UInt8(ascii: ":") else {
            throw .missingColon(kind: kind, value: string)
        }
        try checkElements(
            string, kind: kind, from: 1, separator: UInt8(ascii: "."), hyphen: true, leadingDigit: true,
            minimumElements: 2)
    }

    /// Validates a well-known bus name ("org.example.App"): bus-name characters including
    /// "-", no element starts with a digit, at least two elements.
    static func checkWellKnownName(_ string: String, kind: DBusNameKind) throws(DBusNameError) {
        try checkLength(string, kind: kind)
        try checkElements(
            string, kind: kind, separator: UInt8(ascii: "."), hyphen: true, leadingDigit: false,
            minimumElements: 2)
    }
}
