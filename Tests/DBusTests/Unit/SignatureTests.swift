import DBus
import Testing

/// `count` nested arrays around `inner`, as a signature string.
func arraySignature(_ count: Int, around inner: String = "i") -> String {
    String(repeating: "a", count: count) + inner
}

/// `count` nested structs around `inner`, as a signature string.
func structSignature(_ count: Int, around inner: String = "i") -> String {
    String(repeating: "(", count: count) + inner + String(repeating: ")", count: count)
}

/// `count` nested "a{s…}" dictionaries around `inner`, as a signature string.
func dictionarySignature(_ count: Int, around inner: String = "v") -> String {
    String(repeating: "a{s", count: count) + inner + String(repeating: "}", count: count)
}

@Suite("Signatures")
struct SignatureTests {
    static let valid: [String] = [
        "", "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h", "v",
        "ai", "aai", "a{sv}", "a{ia{sv}}", "(i)", "(ii)", "((i))", "a(is)", "sa{sv}as", "a{yv}", "aa{sv}",
        "a{s(ii)}", "a{oa{sa{sv}}}", "(a{sv}av)", "ah", "a{hs}", "a{ds}", "a{gs}", "a{os}", "a{bs}", "a{tv}",
        "ii", "(ii)(ii)", "aiai",
        arraySignature(32), structSignature(32), dictionarySignature(32),
        arraySignature(32, around: structSignature(32)),
        structSignature(31, around: "a{sv}"),
        String(repeating: "i", count: 255),
        "(" + String(repeating: "i", count: 253) + ")",
    ]

    static let invalid: [(String, DBusSignatureError)] = [
        ("a", .missingArrayElementType(signature: "a", offset: 0)),
        ("aa", .missingArrayElementType(signature: "aa", offset: 1)),
        ("(a)", .missingArrayElementType(signature: "(a)", offset: 1)),
        ("a{sa}", .missingArrayElementType(signature: "a{sa}", offset: 3)),
        ("()", .emptyStructure(signature: "()", offset: 0)),
        ("(()i)", .emptyStructure(signature: "(()i)", offset: 1)),
        ("(", .unclosedStructure(signature: "(", offset: 0)),
        ("(i", .unclosedStructure(signature: "(i", offset: 0)),
        ("((i)", .unclosedStructure(signature: "((i)", offset: 0)),
        ("a{sv", .unclosedDictionaryEntry(signature: "a{sv", offset: 1)),
        (")", .unexpectedClosingBracket(signature: ")", offset: 0)),
        ("}", .unexpectedClosingBracket(signature: "}", offset: 0)),
        ("i)", .unexpectedClosingBracket(signature: "i)", offset: 1)),
        ("(i}", .unexpectedClosingBracket(signature: "(i}", offset: 2)),
        ("a{s)", .unexpectedClosingBracket(signature: "a{s)", offset: 3)),
        ("{sv}", .dictionaryEntryOutsideArray(signature: "{sv}", offset: 0)),
        ("({sv})", .dictionaryEntryOutsideArray(signature: "({sv})", offset: 1)),
        ("a({sv})", .dictionaryEntryOutsideArray(signature: "a({sv})", offset: 2)),
        ("a{vs}", .nonBasicDictionaryKey(signature: "a{vs}", offset: 2)),
        ("a{(i)s}", .nonBasicDictionaryKey(signature: "a{(i)s}", offset: 2)),
        ("a{ais}", .nonBasicDictionaryKey(signature: "a{ais}", offset: 2)),
        ("a{a{ss}s}", .nonBasicDictionaryKey(signature: "a{a{ss}s}", offset: 2)),
        ("a{}", .wrongDictionaryEntryFieldCount(signature: "a{}", offset: 1, count: 0)),
        ("a{s}", .wrongDictionaryEntryFieldCount(signature: "a{s}", offset: 1, count: 1)),
        ("a{sss}", .wrongDictionaryEntryFieldCount(signature: "a{sss}", offset: 1, count: 3)),
        ("z", .unknownTypeCode(signature: "z", offset: 0)),
        ("r", .unknownTypeCode(signature: "r", offset: 0)),
        ("e", .unknownTypeCode(signature: "e", offset: 0)),
        ("m", .unknownTypeCode(signature: "m", offset: 0)),
        ("a*", .unknownTypeCode(signature: "a*", offset: 1)),
        ("?", .unknownTypeCode(signature: "?", offset: 0)),
        ("ai ", .unknownTypeCode(signature: "ai ", offset: 2)),
        ("aé", .unknownTypeCode(signature: "aé", offset: 1)),
        ("(ii)z", .unknownTypeCode(signature: "(ii)z", offset: 4)),
        (arraySignature(33), .tooManyNestedArrays(signature: arraySignature(33), offset: 32)),
        (structSignature(33), .tooManyNestedStructures(signature: structSignature(33), offset: 32)),
        // A dictionary is an array and a dict entry: the 33rd nested one has one array too many.
        (dictionarySignature(33), .tooManyNestedArrays(signature: dictionarySignature(33), offset: 96)),
        // Dict entries count as structs: 32 structs and a dict entry are 33.
        (
            structSignature(32, around: "a{sv}"),
            .tooManyNestedStructures(signature: structSignature(32, around: "a{sv}"), offset: 33)
        ),
        (
            String(repeating: "i", count: 256),
            .tooLong(signature: String(repeating: "i", count: 256), byteCount: 256)
        ),
    ]

    @Test("valid signatures parse, and their types rebuild the same string", arguments: valid)
    func acceptsValid(_ string: String) throws {
        let signature = try Signature(string)
        #expect(signature.rawValue == string)
        #expect(signature.types.map(\.signature).joined() == string)
        #expect(try Signature(signature.types) == signature)
    }

    @Test("invalid signatures are rejected with the position and reason", arguments: invalid)
    func rejectsInvalid(_ string: String, _ expected: DBusSignatureError) {
        #expect(throws: expected) { try Signature(string) }
    }

    @Test("parsed types have the expected shape")
    func shapes() throws {
        #expect(Signature("sa{sv}").types == [.string, .dictionary(key: .string, value: .variant)])
        #expect(Signature("a(is)").types == [.array(.structure([.int32, .string]))])
        #expect(Signature("aa{oa{sv}}").types == [.array(.dictionary(key: .objectPath, value: .dictionary(key: .string, value: .variant)))])
        #expect(Signature.empty.types.isEmpty && Signature.empty.rawValue.isEmpty)
    }

    @Test("building from types applies the same rules")
    func fromTypes() throws {
        #expect(try Signature([.string, .dictionary(key: .string, value: .variant)]).rawValue == "sa{sv}")
        #expect(throws: DBusSignatureError.nonBasicDictionaryKey(signature: "a{vs}", offset: 2)) {
            try Signature([.dictionary(key: .variant, value: .string)])
        }
        #expect(throws: DBusSignatureError.emptyStructure(signature: "a()", offset: 1)) {
            try Signature([.array(.structure([]))])
        }
        var deep = DBusType.int32
        for _ in 0..<33 {
            deep = .array(deep)
        }
        #expect(throws: DBusSignatureError.tooManyNestedArrays(signature: arraySignature(33), offset: 32)) {
            try Signature([deep])
        }
        let long = Array(repeating: DBusType.byte, count: 256)
        #expect(throws: DBusSignatureError.tooLong(signature: String(repeating: "y", count: 256), byteCount: 256)) {
            try Signature(long)
        }
    }

    @Test("DBusType parses exactly one complete type")
    func singleType() throws {
        #expect(try DBusType("a{sv}") == .dictionary(key: .string, value: .variant))
        #expect(throws: DBusSignatureError.notSingleCompleteType(signature: "ii", count: 2)) { try DBusType("ii") }
        #expect(throws: DBusSignatureError.notSingleCompleteType(signature: "", count: 0)) { try DBusType("") }
    }

    @Test("the error message says where and what")
    func message() {
        let text = "a{vs}"  // a variable: a literal argument would go through the trapping literal init
        do {
            _ = try Signature(text)
            Issue.record("\"a{vs}\" was accepted")
        } catch {
            #expect("\(error)" == #"invalid signature "a{vs}": dictionary key at offset 2 is "v", which is not a basic type"#)
        }
    }

    @Test(
        "basic types are exactly y b n q i u x t d s o g h",
        arguments: [
            (DBusType.byte, true), (.boolean, true), (.int16, true), (.uint16, true), (.int32, true),
            (.uint32, true), (.int64, true), (.uint64, true), (.double, true), (.string, true),
            (.objectPath, true), (.signature, true), (.unixFD, true), (.variant, false), (.array(.byte), false),
            (.dictionary(key: .string, value: .variant), false), (.structure([.int32]), false),
        ])
    func basic(_ type: DBusType, _ isBasic: Bool) {
        #expect(type.isBasic == isBasic)
    }
}
