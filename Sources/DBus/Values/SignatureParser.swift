/// The recursive-descent parser and checker behind ``Signature``.
///
/// Grammar (D-Bus specification, "Signatures"):
///
///     signature  := complete*
///     complete   := basic | "v" | "a" complete | "a{" basic complete "}" | "(" complete+ ")"
///     basic      := "y" | "b" | "n" | "q" | "i" | "u" | "x" | "t" | "d" | "s" | "o" | "g" | "h"
///
/// Limits: at most 255 bytes; at most 32 nested arrays; at most 32 nested structs and
/// dict entries counted together (libdbus counts dict entries separately, so this is
/// never more permissive than libdbus).
struct SignatureParser {
    private let signature: String
    private let bytes: [UInt8]
    private var position = 0
    private var arrayDepth = 0
    private var structureDepth = 0

    /// Parses `signature` into its complete types.
    static func parse(_ signature: String) throws(DBusSignatureError) -> [DBusType] {
        let count = signature.utf8.count
        if count > DBusLimits.maximumSignatureLength {
            throw .tooLong(signature: signature, byteCount: count)
        }
        var parser = SignatureParser(signature: signature, bytes: Array(signature.utf8))
        var types: [DBusType] = []
        while parser.position < parser.bytes.count {
            types.append(try parser.parseComplete())
        }
        return types
    }

    /// Checks that `types`, whose signature is `signature`, obey the same rules as a parsed signature.
    static func check(_ types: [DBusType], signature: String) throws(DBusSignatureError) {
        let count = signature.utf8.count
        if count > DBusLimits.maximumSignatureLength {
            throw .tooLong(signature: signature, byteCount: count)
        }
        var offset = 0
        for type in types {
            try check(type, signature: signature, offset: &offset, arrays: 0, structures: 0)
        }
    }

    private init(signature: String, bytes: [UInt8]) {
        self.signature = signature
        self.bytes = bytes
    }

    private static func check(
        _ type: DBusType, signature: String, offset: inout Int, arrays: Int, structures: Int
    ) throws(DBusSignatureError) {
        switch type {
        case .array(let element):
            if arrays + 1 > DBusLimits.maximumArrayNesting {
                throw .tooManyNestedArrays(signature: signature, offset: offset)
            }
            offset += 1
            try check(element, signature: signature, offset: &offset, arrays: arrays + 1, structures: structures)
        case .dictionary(let key, let value):
            if arrays + 1 > DBusLimits.maximumArrayNesting {
                throw .tooManyNestedArrays(signature: signature, offset: offset)
            }
            if structures + 1 > DBusLimits.maximumStructureNesting {
                throw .tooManyNestedStructures(signature: signature, offset: offset + 1)
            }
            if !key.isBasic {
                throw .nonBasicDictionaryKey(signature: signature, offset: offset + 2)
            }
            offset += 3  // "a{" and the basic key
            try check(value, signature: signature, offset: &offset, arrays: arrays + 1, structures: structures + 1)
            offset += 1  // "}"
        case .structure(let fields):
            if fields.isEmpty {
                throw .emptyStructure(signature: signature, offset: offset)
            }
            if structures + 1 > DBusLimits.maximumStructureNesting {
                throw .tooManyNestedStructures(signature: signature, offset: offset)
            }
            offset += 1
            for field in fields {
                try check(field, signature: signature, offset: &offset, arrays: arrays, structures: structures + 1)
            }
            offset += 1
        default:
            offset += 1
        }
    }

    private mutating func parseComplete() throws(DBusSignatureError) -> DBusType {
        let start = position
        let byte = bytes[position]
        if let simple = DBusType(code: byte) {
            position += 1
            return simple
        }
        switch byte {
        case UInt8(ascii: "a"):
            arrayDepth += 1
            defer { arrayDepth -= 1 }
            if arrayDepth > DBusLimits.maximumArrayNesting {
                throw .tooManyNestedArrays(signature: signature, offset: start)
            }
            position += 1
            guard position < bytes.count, bytes[position] != UInt8(ascii: ")"), bytes[position] != UInt8(ascii: "}")
            else {
                throw .missingArrayElementType(signature: signature, offset: start)
            }
            if bytes[position] == UInt8(ascii: "{") {
                return try parseDictionaryEntry()
            }
            return .array(try parseComplete())
        case UInt8(ascii: "("):
            structureDepth += 1
            defer { structureDepth -= 1 }
            if structureDepth > DBusLimits.maximumStructureNesting {
                throw .tooManyNestedStructures(signature: signature, offset: start)
            }
            position += 1
            var fields: [DBusType] = []
            while true {
                guard position < bytes.count else {
                    throw .unclosedStructure(signature: signature, offset: start)
                }
                switch bytes[position] {
                case UInt8(ascii: ")"):
                    if fields.isEmpty {
                        throw .emptyStructure(signature: signature, offset: start)
                    }
                    position += 1
                    return .structure(fields)
                case UInt8(ascii: "}"):
                    throw .unexpectedClosingBracket(signature: signature, offset: position)
                default:
                    fields.append(try parseComplete())
                }
            }
        case UInt8(ascii: "{"):
            throw .dictionaryEntryOutsideArray(signature: signature, offset: start)
        case UInt8(ascii: ")"), UInt8(ascii: "}"):
            throw .unexpectedClosingBracket(signature: signature, offset: start)
        default:
            throw .unknownTypeCode(signature: signature, offset: start)
        }
    }

    /// Parses "{" key value "}" after an "a"; `position` is at the "{".
    private mutating func parseDictionaryEntry() throws(DBusSignatureError) -> DBusType {
        let start = position
        structureDepth += 1
        defer { structureDepth -= 1 }
        if structureDepth > DBusLimits.maximumStructureNesting {
            throw .tooManyNestedStructures(signature: signature, offset: start)
        }
        position += 1
        var fields: [DBusType] = []
        while true {
            guard position < bytes.count else {
                throw .unclosedDictionaryEntry(signature: signature, offset: start)
            }
            switch bytes[position] {
            case UInt8(ascii: "}"):
                position += 1
                guard fields.count == 2 else {
                    throw .wrongDictionaryEntryFieldCount(signature: signature, offset: start, count: fields.count)
                }
                return .dictionary(key: fields[0], value: fields[1])
            case UInt8(ascii: ")"):
                throw .unexpectedClosingBracket(signature: signature, offset: position)
            default:
                let fieldStart = position
                if fields.isEmpty, !(DBusType(code: bytes[position])?.isBasic ?? false) {
                    throw .nonBasicDictionaryKey(signature: signature, offset: fieldStart)
                }
                fields.append(try parseComplete())
            }
        }
    }
}
