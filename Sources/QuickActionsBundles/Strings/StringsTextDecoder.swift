/// Turns the bytes of a strings file into Unicode scalars: UTF-8, or UTF-16 in either byte order,
/// with or without a byte-order mark.
enum StringsTextDecoder {
    static func decode(_ bytes: [UInt8]) throws(StringsTableError) -> [Unicode.Scalar] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return try decodeUTF8(bytes[3...])
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return try decodeUTF16(bytes[2...], bigEndian: false)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return try decodeUTF16(bytes[2...], bigEndian: true)
        }
        if let bigEndian = utf16WithoutBOM(bytes) {
            return try decodeUTF16(bytes[...], bigEndian: bigEndian)
        }
        return try decodeUTF8(bytes[...])
    }

    /// Recognises UTF-16 without a BOM by its zero bytes: text in a strings file is mostly ASCII,
    /// so one byte of each pair is zero. Returns the byte order, or nil for UTF-8.
    /// Strings files in UTF-8 hold no zero bytes in practice, so UTF-8 is not misread.
    static func utf16WithoutBOM(_ bytes: [UInt8]) -> Bool? {
        guard bytes.count >= 2, bytes.count % 2 == 0 else { return nil }
        var zeroAtEven = 0
        var zeroAtOdd = 0
        for (index, byte) in bytes.prefix(512).enumerated() where byte == 0 {
            if index % 2 == 0 { zeroAtEven += 1 } else { zeroAtOdd += 1 }
        }
        if zeroAtEven > zeroAtOdd { return true }
        if zeroAtOdd > zeroAtEven { return false }
        return nil
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) throws(StringsTableError) -> [Unicode.Scalar] {
        var iterator = bytes.makeIterator()
        return try scalars(from: &iterator, codec: UTF8.self, capacity: bytes.count, invalid: "invalid UTF-8")
    }

    private static func decodeUTF16(
        _ bytes: ArraySlice<UInt8>, bigEndian: Bool
    ) throws(StringsTableError) -> [Unicode.Scalar] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var iterator = units.makeIterator()
        let scalars = try scalars(
            from: &iterator, codec: UTF16.self, capacity: units.count, invalid: "invalid UTF-16 (an unpaired surrogate)"
        )
        if index < bytes.endIndex {
            var position = Position()
            for scalar in scalars { position.advance(past: scalar) }
            throw position.error("UTF-16 text with an odd number of bytes")
        }
        return scalars
    }

    /// Decodes code units with `codec`, reporting the first invalid sequence at its line and column.
    private static func scalars<Codec: UnicodeCodec, Units: IteratorProtocol>(
        from iterator: inout Units, codec: Codec.Type, capacity: Int, invalid: String
    ) throws(StringsTableError) -> [Unicode.Scalar] where Units.Element == Codec.CodeUnit {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(capacity)
        var decoder = Codec()
        var position = Position()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                scalars.append(scalar)
                position.advance(past: scalar)
            case .emptyInput:
                return scalars
            case .error:
                throw position.error(invalid)
            }
        }
    }
}

/// A 1-based line and column in decoded text, for error messages.
struct Position {
    private(set) var line = 1
    private(set) var column = 1
    private var afterCarriageReturn = false

    /// Moves past `scalar`: `\n`, `\r\n` and a lone `\r` each end a line.
    mutating func advance(past scalar: Unicode.Scalar) {
        switch scalar {
        case "\n" where afterCarriageReturn:
            afterCarriageReturn = false
        case "\n", "\r":
            line += 1
            column = 1
            afterCarriageReturn = scalar == "\r"
        default:
            column += 1
            afterCarriageReturn = false
        }
    }

    func error(_ reason: String) -> StringsTableError {
        .syntax(line: line, column: column, reason: reason)
    }
}
