import DBus
import Testing

/// `count` arrays, each holding the next, around `inner`.
func nestedArrays(_ count: Int, around inner: Value) -> Value {
    var value = inner
    for _ in 0..<count {
        value = .array(value.type, [value])
    }
    return value
}

/// `count` single-field structs around `inner`.
func nestedStructs(_ count: Int, around inner: Value) -> Value {
    var value = inner
    for _ in 0..<count {
        value = .structure([value])
    }
    return value
}

/// `count` variants around `inner`.
func nestedVariants(_ count: Int, around inner: Value) -> Value {
    var value = inner
    for _ in 0..<count {
        value = .variant(value)
    }
    return value
}

/// `count` one-entry dictionaries ("a{s…}") around `inner`.
func nestedDictionaries(_ count: Int, around inner: Value) -> Value {
    var value = inner
    for _ in 0..<count {
        value = .dictionary(key: .string, value: value.type, [DictionaryEntry(.string("k"), value)])
    }
    return value
}

func path(_ components: ValuePath.Component...) -> ValuePath {
    ValuePath(components: components)
}

func repeated(_ component: ValuePath.Component, _ count: Int) -> [ValuePath.Component] {
    Array(repeating: component, count: count)
}

@Suite("Value validation")
struct ValueValidationTests {
    static let valid: [Value] = [
        .byte(0), .boolean(true), .int16(-1), .uint16(1), .int32(7), .uint32(7), .int64(.min), .uint64(.max),
        .double(.nan), .string(""), .string("héllo"), .objectPath("/a/b"), .signature("a{sv}"),
        .array(.int32, []), .array(.int32, [.int32(1), .int32(2)]),
        .array(.structure([.int32, .string]), [.structure([.int32(1), .string("a")])]),
        .array(.dictionary(key: .string, value: .variant), []),
        .array(.unixFD, []),
        .dictionary(key: .string, value: .variant, []),
        .dictionary(
            key: .string, value: .variant,
            [DictionaryEntry(.string("a"), .variant(.int32(1))), DictionaryEntry(.string("b"), .variant(.string("x")))]),
        .dictionary(key: .int32, value: .array(.string), [DictionaryEntry(.int32(1), .array(.string, []))]),
        .structure([.int32(1), .variant(.structure([.string("x"), .variant(.boolean(false))]))]),
        .variant(.array(.variant, [.variant(.int32(1)), .variant(.string("x"))])),
        .structure(Array(repeating: .byte(0), count: 253)),  // signature of exactly 255 bytes
        // Limits exactly at the edge.
        nestedArrays(32, around: .int32(1)),
        nestedStructs(32, around: .int32(1)),
        nestedVariants(64, around: .int32(1)),
        nestedDictionaries(32, around: .int32(1)),
        nestedArrays(32, around: nestedStructs(32, around: .int32(1))),
        nestedVariants(1, around: nestedArrays(32, around: nestedStructs(31, around: .int32(1)))),
        nestedArrays(16, around: .variant(nestedArrays(16, around: .int32(1)))),
        nestedStructs(16, around: .variant(nestedStructs(16, around: .int32(1)))),
        nestedStructs(31, around: nestedDictionaries(1, around: .int32(1))),
        .array(.array(.array(.int32)), []),
    ]

    static let invalid: [(Value, DBusValueError)] = [
        (
            .array(.int32, [.string("x")]),
            .typeMismatch(expected: .int32, actual: .string("x"), at: path(.element(0)))
        ),
        (
            .array(.int32, [.int32(1), .int64(2)]),
            .typeMismatch(expected: .int32, actual: .int64(2), at: path(.element(1)))
        ),
        (
            .array(.structure([.int32, .string]), [.structure([.int32(1), .int32(2)])]),
            .typeMismatch(
                expected: .structure([.int32, .string]), actual: .structure([.int32(1), .int32(2)]),
                at: path(.element(0)))
        ),
        (.dictionary(key: .variant, value: .string, []), .nonBasicKeyType(.variant, at: .root)),
        (
            .dictionary(key: .string, value: .int32, [DictionaryEntry(.int32(1), .int32(1))]),
            .typeMismatch(expected: .string, actual: .int32(1), at: path(.key(0)))
        ),
        (
            .dictionary(key: .string, value: .int32, [DictionaryEntry(.string("a"), .string("b"))]),
            .typeMismatch(expected: .int32, actual: .string("b"), at: path(.value(0)))
        ),
        (
            .dictionary(
                key: .string, value: .int32,
                [DictionaryEntry(.string("a"), .int32(1)), DictionaryEntry(.string("a"), .int32(2))]),
            .duplicateKey(.string("a"), at: path(.key(1)))
        ),
        (.string("a\u{0}b"), .nulInString("a\u{0}b", at: .root)),
        (
            .variant(.structure([.int32(1), .string("\u{0}")])),
            .nulInString("\u{0}", at: path(.variant, .field(1)))
        ),
        (.structure([]), .emptyStructure(at: .root)),
        (.array(.structure([]), []), .emptyStructure(at: .root)),
        (.array(.dictionary(key: .array(.byte), value: .string), []), .nonBasicKeyType(.array(.byte), at: .root)),
        (
            .array(.variant, [.variant(.string("ok")), .variant(.array(.int32, [.string("x")]))]),
            .typeMismatch(expected: .int32, actual: .string("x"), at: path(.element(1), .variant, .element(0)))
        ),
        (.structure(Array(repeating: .byte(0), count: 254)), .signatureTooLong(byteCount: 256, at: .root)),
        (
            .variant(.structure(Array(repeating: .byte(0), count: 254))),
            .signatureTooLong(byteCount: 256, at: path(.variant))
        ),
        // One past the edge.
        (nestedArrays(33, around: .int32(1)), .tooManyNestedArrays(at: ValuePath(components: repeated(.element(0), 32)))),
        (nestedStructs(33, around: .int32(1)), .tooManyNestedStructures(at: ValuePath(components: repeated(.field(0), 32)))),
        (nestedVariants(65, around: .int32(1)), .nestedTooDeeply(at: ValuePath(components: repeated(.variant, 64)))),
        (
            nestedDictionaries(33, around: .int32(1)),
            .tooManyNestedArrays(at: ValuePath(components: repeated(.value(0), 32)))
        ),
        (
            nestedVariants(1, around: nestedArrays(32, around: nestedStructs(32, around: .int32(1)))),
            .nestedTooDeeply(at: ValuePath(components: [.variant] + repeated(.element(0), 32) + repeated(.field(0), 31)))
        ),
        // Array and struct nesting is counted through variants.
        (
            nestedArrays(16, around: .variant(nestedArrays(17, around: .int32(1)))),
            .tooManyNestedArrays(
                at: ValuePath(components: repeated(.element(0), 16) + [.variant] + repeated(.element(0), 16)))
        ),
        (
            nestedStructs(16, around: .variant(nestedStructs(17, around: .int32(1)))),
            .tooManyNestedStructures(
                at: ValuePath(components: repeated(.field(0), 16) + [.variant] + repeated(.field(0), 16)))
        ),
        // Dict entries count as structs.
        (
            nestedStructs(32, around: nestedDictionaries(1, around: .int32(1))),
            .tooManyNestedStructures(at: ValuePath(components: repeated(.field(0), 32)))
        ),
        // An empty array's declared element type counts too.
        (.array(nestedArrays(32, around: .int32(1)).type, []), .tooManyNestedArrays(at: .root)),
    ]

    @Test("valid values pass validation", arguments: valid)
    func acceptsValid(_ value: Value) throws {
        try value.validate()
    }

    @Test("invalid values are rejected, naming the place and the value", arguments: invalid)
    func rejectsInvalid(_ value: Value, _ expected: DBusValueError) {
        #expect(throws: expected) { try value.validate() }
    }

    @Test("validation error messages say where and what")
    func messages() {
        #expect(
            DBusValueError.typeMismatch(expected: .string, actual: .int32(7), at: path(.element(2))).description
                == #"at [2]: expected "s" but got "i" (int32 7)"#)
        #expect(
            DBusValueError.duplicateKey(.string("a"), at: path(.element(0), .variant, .key(3))).description
                == #"at [0].variant[3].key: duplicate dictionary key string "a""#)
        #expect(
            DBusValueError.nestedTooDeeply(at: .root).description
                == "more than 64 nested containers (variants included)")
    }

    @Test(
        "signature derivation",
        arguments: [
            (Value.byte(1), "y"), (.boolean(true), "b"), (.int16(1), "n"), (.uint16(1), "q"), (.int32(1), "i"),
            (.uint32(1), "u"), (.int64(1), "x"), (.uint64(1), "t"), (.double(1), "d"), (.string(""), "s"),
            (.objectPath("/"), "o"), (.signature(""), "g"), (.variant(.int32(1)), "v"),
            (.array(.int32, []), "ai"),
            (.dictionary(key: .string, value: .variant, []), "a{sv}"),
            (.structure([.int32(1), .string("")]), "(is)"),
            (.array(.dictionary(key: .string, value: .variant), []), "aa{sv}"),
            (.structure([.array(.structure([.byte, .double]), []), .variant(.string(""))]), "(a(yd)v)"),
            (
                .dictionary(
                    key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
                    []), "a{oa{sa{sv}}}"
            ),
        ])
    func signature(_ value: Value, _ expected: String) throws {
        #expect(value.type.signature == expected)
        #expect(try DBusType(expected) == value.type)
    }

    @Test("descriptions show types and contents")
    func descriptions() {
        #expect(Value.array(.int32, [.int32(1), .int32(2)]).description == "[int32 1, int32 2]")
        #expect(
            Value.dictionary(key: .string, value: .variant, [DictionaryEntry(.string("a"), .variant(.boolean(true)))])
                .description == #"{string "a": <boolean true>}"#)
        #expect(Value.structure([.int32(1), .objectPath("/a")]).description == #"(int32 1, object path "/a")"#)
    }
}
