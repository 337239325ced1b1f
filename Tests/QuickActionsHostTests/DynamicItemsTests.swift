import Foundation
import QuickActionsModel
import Testing

@testable import QuickActionsHost

/// Dynamic items set by plugins, from any thread, arrive intact; malformed
/// or hostile lists are refused with a message naming the value, and never
/// reach the broker.
@Suite struct DynamicItemsTests {
    static let everyType: UserInfo = [
        "string": .string("Grüße, 世界"),
        "empty": .string(""),
        "true": .bool(true),
        "false": .bool(false),
        "min": .int(.min),
        "max": .int(.max),
        "double": .double(-0.125),
        "bytes": .bytes([0, 1, 0x7F, 0x80, 0xFF]),
        "no bytes": .bytes([]),
        "array": .array([.int(1), .string("two"), .array([.bool(false)]), .dictionary(["k": .double(3)])]),
        "dict": .dictionary(["nested": .dictionary(["deeper": .array([])]), "empty": .dictionary([:])]),
    ]

    @Test func aSwiftPluginSettingItemsFromAnotherThreadDeliversEveryValueIntact() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let item = ShortcutItem(
            type: "echo-items", title: "Écho", subtitle: "sub", icon: .type(.play), userInfo: Self.everyType)
        let request = PerformRequest(
            item: item, resolvedIcon: "media-playback-start", arguments: Self.everyType, activationToken: "token-1")
        let result = await outcome(of: plugin, request)
        #expect(result == PerformOutcome(success: true, message: "set 2 items"))
        // The request went host → C → Swift, the items Swift → C → host.
        let expected = [
            item,
            ShortcutItem(type: "arguments", title: "token-1", subtitle: "media-playback-start", userInfo: Self.everyType),
        ]
        #expect(recorder.lists == [expected])
    }

    @Test(arguments: [ShortcutIcon.symbol("heart"), .file("icons/a.png"), .type(.taskCompleted)])
    func everyIconKindSurvivesBothDirections(_ icon: ShortcutIcon) async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        try bundle.addIcon("icons/a.png")
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let item = ShortcutItem(type: "echo-items", title: "T", icon: icon)
        _ = await outcome(of: plugin, PerformRequest(item: item))
        #expect(recorder.lists.first?.first == item)
    }

    @Test func theBrokersRejectionReachesTheSwiftPluginAndNothingIsStored() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let recorder = Recorder(reject: { items in "\(items.count) items, at most 1" })
        let plugin = try load(bundle, recorder: recorder)
        let result = await outcome(of: plugin, request("echo-items"))
        #expect(result == PerformOutcome(success: false, message: "shortcut items rejected: 2 items, at most 1"))
        #expect(recorder.lists.isEmpty)
    }

    @Test func aCPluginDeliversEveryValueType() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        try bundle.addIcon("icons/second.png")
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let result = await outcome(of: plugin, request("items-ok"))
        #expect(result == PerformOutcome(success: true, message: "status=0: "))
        let expected = [
            ShortcutItem(
                type: "c.first", title: "First", subtitle: "From C", icon: .type(.play),
                userInfo: [
                    "string": .string("Grüße"), "bool": .bool(true), "int": .int(.min), "double": .double(2.5),
                    "bytes": .bytes([0, 1, 2, 255]), "array": .array([.int(1), .string("two")]),
                    "dict": .dictionary(["inner": .bool(false)]),
                ]),
            ShortcutItem(type: "c.second", title: "Second", icon: .file("icons/second.png")),
        ]
        #expect(recorder.lists == [expected])
    }

    @Test func anEmptyListClearsAndAnItemFromANewerMinorIsRead() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        #expect(await outcome(of: plugin, request("items-future-struct")) == PerformOutcome(success: true, message: "status=0: "))
        #expect(await outcome(of: plugin, request("items-clear")) == PerformOutcome(success: true, message: "status=0: "))
        #expect(recorder.lists == [[ShortcutItem(type: "c.item", title: "Item")], []])
    }

    struct HostileCase: Sendable, CustomStringConvertible {
        var name: String
        var message: String
        var description: String { name }
    }

    static let hostile: [HostileCase] = [
        HostileCase(name: "null-type", message: "item 0: type is NULL"),
        HostileCase(name: "null-item", message: "item 1 is NULL"),
        HostileCase(name: "null-list", message: "items is NULL but count is 3"),
        HostileCase(name: "bad-utf8", message: "item 0 (\"c.item\"): title is not valid UTF-8"),
        HostileCase(name: "small-struct", message: "item 0: struct_size 8 is smaller than ABI 1.0's qa_item (64 bytes)"),
        HostileCase(name: "unknown-icon", message: "item 0 (\"c.item\"): icon: unknown icon type \"UIApplicationShortcutIconTypeNope\""),
        HostileCase(name: "bad-kind", message: "item 0 (\"c.item\"): user info[\"b\"]: unknown value kind 99"),
        HostileCase(name: "null-string", message: "item 0 (\"c.item\"): user info[\"b\"] is NULL"),
        HostileCase(name: "dup-key", message: "item 0 (\"c.item\"): user info: duplicate key \"a\""),
        HostileCase(name: "deep", message: "nested deeper than the ABI's bound of 64 levels"),
        HostileCase(name: "cycle", message: "nested deeper than the ABI's bound of 64 levels"),
        HostileCase(name: "fan-out", message: "more than the ABI's bound of 100000 values"),
    ]

    @Test(arguments: hostile)
    func malformedItemsAreRefusedWithTheValueAtFault(_ hostile: HostileCase) async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let result = try #require(await outcome(of: plugin, request("items-\(hostile.name)")))
        #expect(!result.success)
        #expect(result.message?.hasPrefix("status=1: ") == true, "\(result)")
        #expect(result.message?.contains(hostile.message) == true, "expected \"\(hostile.message)\" in \(result)")
        #expect(recorder.lists.isEmpty)
        #expect(recorder.loaderLogs(containing: "invalid items").count == 1)
    }

    @Test func aRejectionFromTheBrokerReachesTheCPluginAsRejected() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.cPlugin)
        defer { bundle.remove() }
        try bundle.addIcon("icons/second.png")
        let recorder = Recorder(reject: { _ in "item 0 (\"c.first\"): title is too long" })
        let plugin = try load(bundle, recorder: recorder)
        let result = await outcome(of: plugin, request("items-ok"))
        #expect(result == PerformOutcome(success: false, message: "status=2: item 0 (\"c.first\"): title is too long"))
    }

    @Test("a dynamic item's bad icon file is refused (QA_STATUS_INVALID) naming it, and nothing is stored",
          arguments: [
            (ShortcutIcon.file("icons/none.png"), "No such file or directory"),
            (.file("../outside.png"), "has a '..' component"),
            (.file("/etc/hostname"), "is an absolute path"),
            (.file("link.png"), "outside the bundle"),
          ])
    func aBadIconFileIsRefused(_ icon: ShortcutIcon, _ reason: String) async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        try FileManager.default.createSymbolicLink(
            at: bundle.bundle.appendingPathComponent("link.png"), withDestinationURL: URL(fileURLWithPath: "/etc/hostname"))
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        let result = try #require(
            await outcome(of: plugin, PerformRequest(item: ShortcutItem(type: "echo-items", title: "T", icon: icon))))
        #expect(result.success == false, "\(result)")
        #expect(result.message?.contains("item 0 (type \"echo-items\")") == true, "\(result)")
        #expect(result.message?.contains(reason) == true, "\(result)")
        #expect(recorder.lists.isEmpty)
    }

    @Test func concurrentListsFromManyThreadsEachArriveWhole() async throws {
        let bundle = try TestBundle(plugin: TestPlugins.swiftPlugin)
        defer { bundle.remove() }
        let recorder = Recorder()
        let plugin = try load(bundle, recorder: recorder)
        // Each request makes the plugin set a list from a thread of its own.
        await withTaskGroup(of: PerformOutcome?.self) { group in
            for index in 0..<20 {
                let item = ShortcutItem(type: "echo-items", title: "T\(index)", userInfo: ["i": .int(Int64(index))])
                group.addTask { await outcome(of: plugin, PerformRequest(item: item, arguments: ["i": .int(Int64(index))])) }
            }
        }
        #expect(recorder.lists.count == 20)
        for list in recorder.lists {
            #expect(list.count == 2)
            #expect(list.first?.userInfo == list.last?.userInfo)
            if case .int(let index)? = list.first?.userInfo["i"] {
                #expect(list.first?.title == "T\(index)")
            } else {
                Issue.record("list without its index: \(list)")
            }
        }
    }
}
