import DBus
import Testing

/// Converts `plain` to a `Value` and back, checking the value's type and validity on the way.
func roundTrip<T: DBusRepresentable & Equatable>(_ plain: T) throws -> T {
    let value = plain.dbusValue
    #expect(value.type == T.dbusType, "\(T.self) converted to \(value.type), not \(T.dbusType)")
    try value.validate()
    return try T(dbusValue: value)
}

/// Whether `plain` comes back equal from a round trip through `Value`.
func survives<T: DBusRepresentable & Equatable>(_ plain: T) throws -> Bool {
    try roundTrip(plain) == plain
}

/// One round-trip check, named for the test report.
struct ConversionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let check: @Sendable () throws -> Bool
    var testDescription: String { name }
}

@Suite("Conversions between Swift and D-Bus values")
struct ValueConversionTests {
    static let roundTripCases: [ConversionCase] = [
        ConversionCase(name: "String") { try survives("héllo wörld") },
        ConversionCase(name: "empty String") { try survives("") },
        ConversionCase(name: "Bool") { try survives(true) },
        ConversionCase(name: "UInt8") { try survives(UInt8.max) },
        ConversionCase(name: "Int16") { try survives(Int16.min) },
        ConversionCase(name: "UInt16") { try survives(UInt16.max) },
        ConversionCase(name: "Int32") { try survives(Int32.min) },
        ConversionCase(name: "UInt32") { try survives(UInt32.max) },
        ConversionCase(name: "Int64") { try survives(Int64.min) },
        ConversionCase(name: "UInt64") { try survives(UInt64.max) },
        ConversionCase(name: "Int") { try survives(Int.min) },
        ConversionCase(name: "Double") { try survives(-1.5e300) },
        ConversionCase(name: "ObjectPath") { try survives(ObjectPath("/a/b")) },
        ConversionCase(name: "Signature") { try survives(Signature("a{sv}")) },
        ConversionCase(name: "Value") { try survives(Value.int32(7)) },
        ConversionCase(name: "[String]") { try survives(["a", "b", ""]) },
        ConversionCase(name: "[[Int32]]") { try survives([[1, 2], [], [3]] as [[Int32]]) },
        ConversionCase(name: "[UInt8] empty") { try survives([UInt8]()) },
        ConversionCase(name: "[String: Int32]") { try survives(["a": 1, "b": 2] as [String: Int32]) },
        ConversionCase(name: "[String: Value] (a{sv})") {
            try survives([
                "Name": .string("Music"),
                "Count": .uint32(3),
                "Nested": .variant(.variant(.array(.int32, [.int32(1)]))),
                "Map": .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("k"), .variant(.boolean(true)))]),
            ] as [String: Value])
        },
        ConversionCase(name: "[ObjectPath: [String: [String: Value]]] (GetManagedObjects)") {
            try survives(["/a": ["org.example.I": ["P": .int32(1)]], "/a/b": [:]] as [ObjectPath: [String: [String: Value]]])
        },
        ConversionCase(name: "[Value] (av) with nested variants") {
            try survives([.int32(1), .variant(.string("x")), .array(.variant, [.variant(.byte(1))])] as [Value])
        },
        ConversionCase(name: "[[String: Value]]") { try survives([["a": .int64(1)], [:]] as [[String: Value]]) },
    ]

    @Test("plain Swift values round-trip through Value", arguments: roundTripCases)
    func roundTrips(_ testCase: ConversionCase) throws {
        #expect(try testCase.check(), "\(testCase.name) came back different")
    }

    @Test(
        "D-Bus types of Swift types",
        arguments: [
            (String.dbusType, "s"), (Bool.dbusType, "b"), (UInt8.dbusType, "y"), (Int16.dbusType, "n"),
            (UInt16.dbusType, "q"), (Int32.dbusType, "i"), (UInt32.dbusType, "u"), (Int64.dbusType, "x"),
            (UInt64.dbusType, "t"), (Int.dbusType, "x"), (Double.dbusType, "d"), (ObjectPath.dbusType, "o"),
            (Signature.dbusType, "g"), (Value.dbusType, "v"), ([String].dbusType, "as"), ([Value].dbusType, "av"),
            ([[Int32]].dbusType, "aai"), ([String: Value].dbusType, "a{sv}"),
            ([String: [String: Value]].dbusType, "a{sa{sv}}"),
            ([ObjectPath: [String: [String: Value]]].dbusType, "a{oa{sa{sv}}}"),
        ])
    func dbusTypes(_ type: DBusType, _ signature: String) {
        #expect(type.signature == signature)
    }

    @Test("a Value converts as a variant, unwrapping exactly one level")
    func valueAsVariant() throws {
        #expect(Value.int32(7).dbusValue == .variant(.int32(7)))
        #expect(try Value(dbusValue: .variant(.variant(.int32(7)))) == .variant(.int32(7)))
        #expect(throws: DBusValueError.typeMismatch(expected: .variant, actual: .int32(7), at: .root)) {
            try Value(dbusValue: .int32(7))
        }
        let properties: [String: Value] = ["a": .int32(1)]
        #expect(
            properties.dbusValue
                == .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("a"), .variant(.int32(1)))]))
    }

    @Test("Value(_:) converts any representable value")
    func valueInit() throws {
        #expect(Value("x") == .string("x"))
        #expect(Value(Int32(3)) == .int32(3))
        #expect(Value(3) == .int64(3))
        #expect(Value(["a", "b"]) == .array(.string, [.string("a"), .string("b")]))
        #expect(try Value.array(.int32, [.int32(1)]).decoded(as: [Int32].self) == [1])
    }

    @Test("conversions are strict and name the value at fault")
    func strictErrors() {
        #expect(throws: DBusValueError.typeMismatch(expected: .string, actual: .int32(7), at: .root)) {
            try String(dbusValue: .int32(7))
        }
        do {
            _ = try String(dbusValue: .int32(7))
            Issue.record("int32 converted to String")
        } catch {
            #expect("\(error)" == #"expected "s" but got "i" (int32 7)"#)
        }
        #expect(throws: DBusValueError.typeMismatch(expected: .int64, actual: .int32(7), at: .root)) {
            try Int64(dbusValue: .int32(7))
        }
        let wrongElements = Value.array(.int64, [.int64(1)])
        #expect(throws: DBusValueError.typeMismatch(expected: .array(.int32), actual: wrongElements, at: .root)) {
            try [Int32](dbusValue: wrongElements)
        }
        // An inconsistent value: the declared type says "as", element 1 is an int32.
        #expect(throws: DBusValueError.typeMismatch(expected: .string, actual: .int32(7), at: path(.element(1)))) {
            try [String](dbusValue: .array(.string, [.string("a"), .int32(7)]))
        }
        let nested = Value.dictionary(
            key: .string, value: .array(.int32),
            [DictionaryEntry(.string("k"), .array(.int32, [.int32(1), .string("x")]))])
        #expect(
            throws: DBusValueError.typeMismatch(expected: .int32, actual: .string("x"), at: path(.value(0), .element(1)))
        ) {
            try [String: [Int32]](dbusValue: nested)
        }
        let duplicate = Value.dictionary(
            key: .string, value: .int32,
            [DictionaryEntry(.string("a"), .int32(1)), DictionaryEntry(.string("a"), .int32(2))])
        #expect(throws: DBusValueError.duplicateKey(.string("a"), at: path(.key(1)))) {
            try [String: Int32](dbusValue: duplicate)
        }
    }

    @Test("a dictionary with a non-basic key type fails validation and conversion")
    func nonBasicKeys() {
        let value = [[Int32(1)]: "one"].dbusValue
        #expect(throws: DBusValueError.nonBasicKeyType(.array(.int32), at: .root)) { try value.validate() }
        #expect(throws: DBusValueError.nonBasicKeyType(.array(.int32), at: .root)) {
            try [[Int32]: String](dbusValue: value)
        }
    }

    @Test("typed accessors look through variants")
    func accessors() {
        let value = Value.variant(.variant(.string("x")))
        #expect(value.unwrappedVariant == .string("x"))
        #expect(value.string == "x")
        #expect(Value.boolean(true).bool == true)
        #expect(Value.string("x").bool == nil)
        #expect(Value.double(2.5).double == 2.5)
        #expect(Value.int32(1).double == nil)
        #expect(Value.objectPath("/a").objectPath == "/a")
        #expect(Value.array(.int32, [.int32(1)]).array == [.int32(1)])
        #expect(Value.structure([.int32(1)]).structure == [.int32(1)])
        let dictionary = Value.variant(
            .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("a"), .variant(.int32(1)))]))
        #expect(dictionary.dictionary == [.string("a"): .variant(.int32(1))])
        #expect(dictionary.dictionary?[.string("a")]?.int64 == 1)
        #expect(Value.string("x").dictionary == nil)
    }

    @Test(
        "int64 and uint64 accept every integer case that fits",
        arguments: [
            (Value.byte(255), 255 as Int64?, 255 as UInt64?),
            (.int16(-2), -2, nil), (.uint16(65535), 65535, 65535),
            (.int32(.min), Int64(Int32.min), nil), (.uint32(.max), Int64(UInt32.max), UInt64(UInt32.max)),
            (.int64(.min), .min, nil), (.int64(5), 5, 5),
            (.uint64(.max), nil, .max), (.uint64(UInt64(Int64.max)), .max, UInt64(Int64.max)),
            (.variant(.int32(-1)), -1, nil),
            (.double(1), nil, nil), (.boolean(true), nil, nil), (.string("1"), nil, nil),
        ])
    func integers(_ value: Value, _ int64: Int64?, _ uint64: UInt64?) {
        #expect(value.int64 == int64)
        #expect(value.uint64 == uint64)
    }
}
