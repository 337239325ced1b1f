import DBus
import Testing

/// Typed arguments against the `Value` model, through real libdbus messages
/// (no bus): what `MessageWriter` writes reads back as the same `Value`s,
/// and what `MessageReader` reads from a body built from `Value`s is the
/// same Swift value.
@Suite struct DBusArgumentTests {
    static func message() throws -> Message {
        try Message.methodCall(destination: nil, path: "/t", interface: "org.quickactions.T", member: "M")
    }

    /// One Swift value, its D-Bus type and its value in the `Value` model.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let type: DBusType
        let value: Value
        /// Writes the Swift value into a message.
        let write: @Sendable (inout MessageWriter) throws -> Void
        /// Reads the Swift value from a message and returns it as a `Value`.
        let read: @Sendable (inout MessageReader) throws -> Value
        let staticType: DBusType

        init<T: DBusArgument>(_ swift: T, _ value: Value) {
            description = "\(T.self)"
            type = value.type
            self.value = value
            staticType = T.dbusType
            write = { writer in try writer.write(swift) }
            read = { reader in try reader.read(T.self).dbusValue }
        }
    }

    static let cases: [Case] = [
        Case(UInt8(255), .byte(255)),
        Case(true, .boolean(true)),
        Case(Int16.min, .int16(.min)),
        Case(UInt16.max, .uint16(.max)),
        Case(Int32.min, .int32(.min)),
        Case(UInt32.max, .uint32(.max)),
        Case(Int64.min, .int64(.min)),
        Case(UInt64.max, .uint64(.max)),
        Case(Int(-5), .int64(-5)),
        Case(-1.5, .double(-1.5)),
        Case("grüße ✓", .string("grüße ✓")),
        Case("", .string("")),
        Case(ObjectPath.root, .objectPath("/")),
        Case(Signature("a{sv}(ii)"), .signature("a{sv}(ii)")),
        Case(Value.uint32(7), .variant(.uint32(7))),
        Case(Value.variant(.array(.int64, [.int64(1)])), .variant(.variant(.array(.int64, [.int64(1)])))),
        Case([UInt8]([0, 1, 255]), .array(.byte, [.byte(0), .byte(1), .byte(255)])),
        Case([UInt8](), .array(.byte, [])),
        Case(["x", ""], .array(.string, [.string("x"), .string("")])),
        Case([[Int32]]([[1], []]), .array(.array(.int32), [.array(.int32, [.int32(1)]), .array(.int32, [])])),
        Case(["k": Value.string("v")], .dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("k"), .variant(.string("v"))),
        ])),
        Case([String: Value](), .dictionary(key: .string, value: .variant, [])),
        Case([Int32(3): ["a"]], .dictionary(key: .int32, value: .array(.string), [
            DictionaryEntry(.int32(3), .array(.string, [.string("a")])),
        ])),
        Case(DBusStruct(Int32(42), "answer"), .structure([.int32(42), .string("answer")])),
        Case(DBusStruct("one"), .structure([.string("one")])),
        Case([DBusStruct("app", [["title": Value.string("Call")]])], .array(
            .structure([.string, .array(.dictionary(key: .string, value: .variant))]), [
                .structure([.string("app"), .array(.dictionary(key: .string, value: .variant), [
                    .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("title"), .variant(.string("Call")))]),
                ])]),
            ])),
    ]

    @Test(arguments: cases)
    func whatTheWriterWritesReadsBackAsTheSameValue(_ testCase: Case) throws {
        #expect(testCase.staticType == testCase.type)
        let message = try Self.message()
        var writer = MessageWriter(message)
        try testCase.write(&writer)
        #expect(message.signature == testCase.type.signature)
        #expect(try message.arguments() == [testCase.value])
    }

    @Test(arguments: cases)
    func whatTheReaderReadsIsWhatWasSent(_ testCase: Case) throws {
        let message = try Self.message()
        try message.append(testCase.value)
        var reader = MessageReader(message)
        #expect(try testCase.read(&reader) == testCase.value)
        #expect(reader.isAtEnd)
    }

    struct Mismatch: Sendable, CustomStringConvertible {
        let sent: Value
        let read: @Sendable (inout MessageReader) throws -> Void
        let expected: String
        var description: String { "\(sent.type.signature) read as \(expected)" }
    }

    static let mismatches: [Mismatch] = [
        Mismatch(sent: .int32(1), read: { _ = try $0.read(String.self) }, expected: "s"),
        Mismatch(sent: .string("x"), read: { _ = try $0.read(UInt32.self) }, expected: "u"),
        Mismatch(sent: .array(.int32, []), read: { _ = try $0.read([String].self) }, expected: "as"),
        Mismatch(sent: .array(.string, [.string("a")]), read: { _ = try $0.read([String: Value].self) }, expected: "a{sv}"),
        Mismatch(sent: .dictionary(key: .string, value: .string, [DictionaryEntry(.string("a"), .string("b"))]),
                 read: { _ = try $0.read([String: Value].self) }, expected: "v"),
        Mismatch(sent: .structure([.int32(1)]), read: { _ = try $0.read(DBusStruct<Int32, String>.self) }, expected: "s"),
        Mismatch(sent: .structure([.int32(1), .int32(2)]), read: { _ = try $0.read(DBusStruct<Int32>.self) },
                 expected: "(i)"),
        Mismatch(sent: .boolean(true), read: { _ = try $0.read(Value.self) }, expected: "v"),
    ]

    @Test(arguments: mismatches)
    func aValueOfAnotherTypeIsRefusedNamingTheExpectedType(_ mismatch: Mismatch) throws {
        let message = try Self.message()
        try message.append(mismatch.sent)
        var reader = MessageReader(message)
        let error = #expect(throws: DBusError.self) { try mismatch.read(&reader) }
        #expect(error?.name == .invalidArgs)
        #expect(error?.message.contains("\"\(mismatch.expected)\"") == true, "\(String(describing: error))")
    }

    @Test func readingPastTheLastArgumentSaysSo() throws {
        let message = try Self.message()
        var reader = MessageReader(message)
        #expect(reader.isAtEnd)
        let error = #expect(throws: DBusError.self) { _ = try reader.read(String.self) }
        #expect(error?.message.contains("end of the arguments") == true, "\(String(describing: error))")
    }

    @Test func aStringWithANulIsRefusedBeforeLibdbusSeesIt() throws {
        let message = try Self.message()
        var writer = MessageWriter(message)
        let error = #expect(throws: DBusError.self) { try writer.write(["fine", "bad\0string"]) }
        #expect(error?.name == .invalidArgs)
        #expect(error?.message.contains("bad") == true, "\(String(describing: error))")
        // The half-written array was abandoned: the message can still be written and read.
        try writer.write("after")
        #expect(try message.arguments() == [.string("after")])
    }

    @Test func aVariantNestedTooDeeplyInsideTypedContainersIsRefused() throws {
        var deep = Value.string("bottom")
        for _ in 0..<61 { deep = .variant(deep) }
        // 61 variants + the element's own variant + two arrays = 64 containers: allowed.
        let fits = try Self.message()
        var writer = MessageWriter(fits)
        try writer.write([[deep]])
        #expect(try fits.arguments().count == 1)
        // One more is 65, past libdbus's limit: refused, libdbus never sees it.
        let tooDeep = try Self.message()
        var second = MessageWriter(tooDeep)
        let error = #expect(throws: DBusError.self) { try second.write([[Value.variant(deep)]]) }
        #expect(error?.name == .invalidArgs)
    }
}
