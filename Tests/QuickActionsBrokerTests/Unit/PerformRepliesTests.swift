import DBus
import QuickActionsAPI
import QuickActionsHostProtocol
import Testing

/// The plugin host's Perform answers, each outcome encoded once (PerformReplies, in
/// QuickActionsHostProtocol, which has no test target of its own).
@Suite struct PerformRepliesTests {
    @Test("an outcome's values are (success, {message}) as Host1.Perform declares", arguments: [
        (true, "done" as String?), (false, "not allowed"), (true, nil), (false, nil),
    ])
    func values(success: Bool, message: String?) {
        let values = PerformReplies.values(.init(success: success, message: message))
        #expect(values.count == 2)
        #expect(values.first == .boolean(success))
        let expected: [DictionaryEntry] = message.map {
            [DictionaryEntry(.string(BrokerAPI.ResultKey.message), .variant(.string($0)))]
        } ?? []
        #expect(values.last == .dictionary(key: .string, value: .variant, expected))
    }

    @Test("the same outcome is encoded once; another outcome is another reply")
    func cachedPerOutcome() throws {
        let replies = PerformReplies()
        let done = try #require(replies.prepared(.init(success: true, message: "done")))
        #expect(replies.prepared(.init(success: true, message: "done")) === done)
        let failed = try #require(replies.prepared(.init(success: false, message: "done")))
        #expect(failed !== done)
        let plain = try #require(replies.prepared(.init(success: true, message: nil)))
        #expect(plain !== done)
        #expect(replies.count == 3)
    }

    @Test("long messages and ones libdbus cannot carry are not cached")
    func notCached() {
        let replies = PerformReplies()
        let long = String(repeating: "x", count: PerformReplies.longestCached + 1)
        #expect(replies.prepared(.init(success: true, message: long)) == nil)
        #expect(replies.prepared(.init(success: true, message: "a\u{0}b")) == nil)
        #expect(replies.count == 0)
    }

    @Test("the cache stays within its capacity")
    func bounded() {
        let replies = PerformReplies()
        for index in 0..<(PerformReplies.capacity * 2 + 1) {
            #expect(replies.prepared(.init(success: true, message: "message \(index)")) != nil)
            #expect(replies.count <= PerformReplies.capacity)
        }
    }
}
