@testable import DBus
import Testing

/// `MessageWriter.appendVariantDictionary` and `PreparedReply(encoding:)`:
/// what they write straight into a message is byte for byte what the
/// `Value` model's encoding of the same a{sv} writes.
@Suite struct VariantDictionaryWriterTests {
    static func message() throws -> Message {
        try Message.methodCall(destination: nil, path: "/t", interface: "org.quickactions.T", member: "M")
    }

    /// Entries as the writer appends them and as the `Value` model holds them.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let entries: [(String, Value)]
        let write: @Sendable (inout VariantDictionaryWriter) throws(DBusError) -> Void
    }

    static let cases: [Case] = [
        Case(description: "empty", entries: []) { _ throws(DBusError) in },
        Case(description: "one string", entries: [("activation", .string("resume"))]) { entries throws(DBusError) in
            try entries.append("activation", "resume")
        },
        Case(description: "two strings in order",
             entries: [("message", .string("Performed at once")), ("activation", .string("launch"))]) {
            entries throws(DBusError) in
            try entries.append("message", "Performed at once")
            try entries.append("activation", "launch")
        },
        Case(description: "typed values",
             entries: [("n", .uint32(7)), ("ok", .boolean(false)), ("names", .array(.string, [.string("a")])),
                       ("text", .string("grüße ✓"))]) { entries throws(DBusError) in
            try entries.append("n", UInt32(7))
            try entries.append("ok", false)
            try entries.append("names", ["a"])
            try entries.append("text", "grüße ✓" as String)
        },
    ]

    static func value(_ entries: [(String, Value)]) -> Value {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    @Test(arguments: cases)
    func writesTheSameBytesAsTheValueModel(_ testCase: Case) throws {
        let typed = try Self.message()
        var writer = MessageWriter(typed)
        try writer.write(true)
        try writer.appendVariantDictionary(testCase.write)
        let model = try Self.message()
        try model.append([.boolean(true), Self.value(testCase.entries)])
        #expect(try typed.marshalled() == model.marshalled())
        #expect(try typed.arguments() == [.boolean(true), Self.value(testCase.entries)])
    }

    @Test func aStringWithANULAbandonsTheDictionaryAndSaysWhy() throws {
        let message = try Self.message()
        var writer = MessageWriter(message)
        #expect {
            try writer.appendVariantDictionary { entries throws(DBusError) in
                try entries.append("activation", "resume")
                try entries.append("message", "a\u{0}b")
            }
        } throws: { error in
            (error as? DBusError)?.message.contains("NUL") == true
        }
        // Nothing of the abandoned dictionary is in the body.
        #expect(try message.arguments() == [])
    }

    @Test func aPreparedTypedReplyHasTheTypesAndBodyOfItsValues() throws {
        let typed = try PreparedReply(encoding: true, ["activation": Value.string("resume")])
        let model = try PreparedReply([.boolean(true), Self.value([("activation", .string("resume"))])])
        #expect(typed.types == model.types)
        #expect(try WireEncodingTests.body(of: typed.template) == WireEncodingTests.body(of: model.template))
    }
}
