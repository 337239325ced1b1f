@testable import DBus
import Testing
@testable import QuickActionsBroker

/// Perform's typed result and the replies kept for repeated messages
/// (PerformReply.swift), through real libdbus messages (no bus). What the
/// clients see is checked end to end in PerformReplyClientTests.
@Suite struct PerformReplyUnitTests {
    static func message() throws -> Message {
        try Message.methodCall(destination: nil, path: "/t", interface: "org.quickactions.T", member: "M")
    }

    /// The reply as the `Value` model wrote it before results were typed.
    static func modelResult(message: String?, activation: String) -> Value {
        var entries: [DictionaryEntry] = []
        if let message { entries.append(DictionaryEntry(.string("message"), .variant(.string(message)))) }
        entries.append(DictionaryEntry(.string("activation"), .variant(.string(activation))))
        return .dictionary(key: .string, value: .variant, entries)
    }

    @Test(arguments: [
        (nil, false), (nil, true), ("Performed at once", false), ("grüße ✓ \"quoted\"", true), ("", false),
    ] as [(String?, Bool)])
    func theTypedResultIsTheModelsBytes(message: String?, launched: Bool) throws {
        let typed = try Self.message()
        var writer = MessageWriter(typed)
        try writer.write(true)
        try writer.write(PerformResult(message: message, launched: launched))
        let model = try Self.message()
        try model.append([.boolean(true), Self.modelResult(message: message, activation: launched ? "launch" : "resume")])
        #expect(try typed.marshalled() == model.marshalled())
        var reader = MessageReader(typed)
        _ = try reader.read(Bool.self)
        #expect(try reader.read(PerformResult.self) == PerformResult(message: message, launched: launched))
    }

    @Test(arguments: [
        ("no activation", [("message", Value.string("m"))]),
        ("activation not a string", [("activation", Value.uint32(1))]),
        ("unknown activation", [("activation", Value.string("wake"))]),
        ("message not a string", [("activation", Value.string("resume")), ("message", Value.boolean(true))]),
    ] as [(String, [(String, Value)])])
    func aResultThatIsNotPerformsIsRefused(_ label: String, _ entries: [(String, Value)]) throws {
        let value = Value.dictionary(key: .string, value: .variant,
                                     entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
        #expect(throws: DBusValueError.self, "\(label)") { try PerformResult(dbusValue: value) }
    }

    @Test func unknownResultKeysAreIgnoredAsClientsIgnoreThem() throws {
        let value = Value.dictionary(key: .string, value: .variant, [
            DictionaryEntry(.string("future"), .variant(.int32(1))),
            DictionaryEntry(.string("activation"), .variant(.string("launch"))),
        ])
        #expect(try PerformResult(dbusValue: value) == PerformResult(message: nil, launched: true))
    }

    @Test func aMessageIsEncodedOnceWhenItComesASecondTimeAndThenKept() throws {
        let cache = PerformReplyCache()
        let result = PerformResult(message: "Performed at once", launched: false)
        #expect(cache.reply(success: true, result: result) == nil)
        let second = try #require(cache.reply(success: true, result: result))
        let third = try #require(cache.reply(success: true, result: result))
        #expect(second === third)
        // Its body is what the typed encoding writes.
        let direct = try PreparedReply(encoding: true, result)
        #expect(try second.template.marshalled() == direct.template.marshalled())
        // Success, activation and message are all part of the key.
        #expect(cache.reply(success: false, result: result) == nil)
        #expect(cache.reply(success: true, result: PerformResult(message: "Performed at once", launched: true)) == nil)
        #expect(cache.reply(success: true, result: PerformResult(message: "Other", launched: false)) == nil)
    }

    @Test func theCacheStaysBoundedAndSkipsLongMessages() throws {
        let cache = PerformReplyCache()
        let long = PerformResult(message: String(repeating: "x", count: PerformReplyCache.maximumMessageBytes + 1),
                                 launched: false)
        #expect(cache.reply(success: true, result: long) == nil)
        #expect(cache.reply(success: true, result: long) == nil)
        for index in 0..<(3 * PerformReplyCache.capacity) {
            let result = PerformResult(message: "message \(index)", launched: false)
            _ = cache.reply(success: true, result: result)
            _ = cache.reply(success: true, result: result)
            #expect(cache.count <= PerformReplyCache.capacity)
        }
    }

    @Test func ofTwoBadOptionsTheFirstInSortedOrderIsNamed() throws {
        let options: [String: Value] = ["timeout-ms": .int32(1), "limit": .string("x"), "locale": .uint32(3)]
        #expect {
            try CallOptions(options)
        } throws: { error in
            (error as? DBusError)?.message.contains("\"limit\"") == true
        }
    }
}
