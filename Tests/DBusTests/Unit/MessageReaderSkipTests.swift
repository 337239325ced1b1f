import DBus
import Testing

/// An `a{sv}` entry of `value` under `key`.
private func variantEntry(_ key: String, _ value: Value) -> DictionaryEntry {
    DictionaryEntry(.string(key), .variant(value))
}

/// A dictionary's entries and the value a reader should find in them (nil: none).
struct ReaderCase: Sendable, CustomStringConvertible {
    let description: String
    let entries: [DictionaryEntry]
    let expected: Value?
}

/// `MessageReader.skip()` and `leadingEntry(named:)`: reading only part of a body.
@Suite struct MessageReaderSkipTests {
    static func entry(_ key: String, _ value: Value) -> DictionaryEntry { variantEntry(key, value) }
    typealias Case = ReaderCase

    static let cases: [Case] = [
        Case(description: "the key first", entries: [entry("key", .uint64(7)), entry("other", .string("x"))],
             expected: .uint64(7)),
        Case(description: "the key alone, a string", entries: [entry("key", .string("seven"))], expected: .string("seven")),
        Case(description: "the key first, a nested array",
             entries: [entry("key", .array(.variant, [.variant(.int32(1))]))], expected: .array(.variant, [.variant(.int32(1))])),
        Case(description: "the key first, nested variants", entries: [entry("key", .variant(.uint64(9)))],
             expected: .uint64(9)),
        Case(description: "the key second", entries: [entry("other", .string("x")), entry("key", .uint64(7))],
             expected: nil),
        Case(description: "a longer key first", entries: [entry("keys", .uint64(7))], expected: nil),
        Case(description: "empty", entries: [], expected: nil),
    ]

    @Test("the first entry's contents only when its key matches; the reader ends past the dictionary",
          arguments: cases)
    func leadingEntry(_ test: Case) throws {
        let message = try Message.methodCall(destination: nil, path: "/t", interface: "org.quickactions.T", member: "M")
        try message.append([
            .dictionary(key: .string, value: .variant, [Self.entry("item", .string("skipped"))]),
            .dictionary(key: .string, value: .variant, test.entries),
            .boolean(true),
        ])
        var reader = MessageReader(message)
        try reader.skip()
        #expect(try reader.leadingEntry(named: "key") == test.expected)
        #expect(try reader.read(Bool.self) == true)
        #expect(reader.isAtEnd)
        #expect(throws: DBusError.self) { try reader.skip() }
    }

    @Test("a value that is not a{sv} is refused, naming the types")
    func wrongType() throws {
        let message = try Message.methodCall(destination: nil, path: "/t", interface: "org.quickactions.T", member: "M")
        try message.append([.array(.string, [.string("a")])])
        var reader = MessageReader(message)
        let error = try #require(throws: DBusError.self) { try reader.leadingEntry(named: "key") }
        #expect(error.message.contains("a{sv}"), "\(error.message)")
    }
}

/// `MessageReader.entry(named:)`: one key of an `a{sv}`, the others passed over.
@Suite struct MessageReaderEntryTests {
    static func entry(_ key: String, _ value: Value) -> DictionaryEntry { variantEntry(key, value) }
    typealias Case = ReaderCase

    static let cases: [Case] = [
        Case(description: "alone", entries: [entry("message", .string("done"))], expected: .string("done")),
        Case(description: "after others",
             entries: [entry("other", .array(.variant, [.variant(.int32(1))])), entry("message", .string("done"))],
             expected: .string("done")),
        Case(description: "nested variants, looked through",
             entries: [entry("message", .variant(.string("deep")))], expected: .string("deep")),
        Case(description: "a prefix of the key only", entries: [entry("mess", .string("x"))], expected: nil),
        Case(description: "empty", entries: [], expected: nil),
    ]

    @Test("the value under the key, nil without it; the reader ends past the dictionary", arguments: cases)
    func entry(_ test: Case) throws {
        let message = try Message.methodCall(destination: nil, path: "/t", interface: "org.quickactions.T", member: "M")
        try message.append([.dictionary(key: .string, value: .variant, test.entries), .boolean(false)])
        var reader = MessageReader(message)
        #expect(try reader.entry(named: "message") == test.expected)
        #expect(try reader.read(Bool.self) == false)
        #expect(reader.isAtEnd)
    }
}
