import DBus
import QuickActionsAPI
import Foundation
import QuickActionsTestSupport
import Testing

/// Listing through busctl: apps, items in display order, locale and limit.
@Suite struct ListingTests {
    @Test func listApplicationsIsSortedAndNeedsNoPlugin() async throws {
        let broker = try await BrokerHarness(bundles: [Fixtures.swiftApp, Fixtures.cApp])
        let reply = try BusctlReply(try await broker.call("ListApplications"))
        #expect(reply.type == "a(sss)")
        let apps = reply.data.first as? [[Any]] ?? []
        #expect(apps.map { $0.first as? String } == ["org.example.c", "org.example.swift"])
        #expect(apps.last?[1] as? String == "Swift Example")
        // Listing loaded nothing.
        let loaded = try await broker.busctl(["get-property", BrokerHarness.busName,
                                              "/org/quickactions/Broker1/apps/org_2eexample_2eswift",
                                              "org.quickactions.Application1", "Loaded"])
        #expect(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "b false", "\(loaded)")
        #expect(!broker.log.contains("loaded org.example"))
    }

    @Test func getItemsGivesStaticItemsInManifestOrderWithEveryField() async throws {
        let broker = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let reply = try BusctlReply(try await broker.call("GetItems", "sa{sv}", ["org.example.swift", "0"]))
        #expect(reply.type == "aa{sv}")
        let items = (reply.data.first as? [Any] ?? []).compactMap(ItemJSON.init)
        #expect(items.map { $0.string("type") } == ["hello", "echo-items", "launch-handled", "never", "twice"])
        let hello = try #require(items.first)
        #expect(hello.string("title") == "Hello")
        #expect(hello.string("subtitle") == "Say hello")
        #expect(hello.string("icon") == "document-edit")
        #expect(hello.string("origin") == "static")
        let info = try #require(hello.userInfo)
        #expect((info["count"] as? [String: Any])?["type"] as? String == "x")
        #expect((info["ratio"] as? [String: Any])?["type"] as? String == "d")
        #expect((info["flag"] as? [String: Any])?["type"] as? String == "b")
        #expect((info["name"] as? [String: Any])?["data"] as? String == "x")
        #expect(items[1].string("subtitle") == nil)
    }

    @Test func localeOptionLocalisesTitlesAndLimitCutsTheList() async throws {
        let broker = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let german = try BusctlReply(try await broker.call(
            "GetItems", "sa{sv}", ["org.example.swift", "2", "locale", "s", "de_AT.UTF-8", "limit", "u", "1"]))
        let items = (german.data.first as? [Any] ?? []).compactMap(ItemJSON.init)
        #expect(items.count == 1)
        #expect(items.first?.string("title") == "Hallo")
        #expect(items.first?.string("subtitle") == "Sag hallo")
        let all = try BusctlReply(try await broker.call("GetAllItems", "a{sv}", ["1", "locale", "s", "fr"]))
        #expect(all.type == "a(saa{sv})")
        let groups = all.data.first as? [[Any]] ?? []
        #expect(groups.map { $0.first as? String } == ["org.example.swift"])
        let french = ((groups.first?[1] as? [Any]) ?? []).compactMap(ItemJSON.init)
        #expect(french.first?.string("title") == "Hello")
    }

    struct BadCall: Sendable, CustomTestStringConvertible {
        let member: MemberName
        let arguments: [Value]
        let error: ErrorName
        let mentions: String
        var testDescription: String { "\(member.rawValue) \(arguments) → \(error.rawValue)" }
    }

    static let noOptions = Value.dictionary(key: .string, value: .variant, [])
    static func options(_ entries: [(String, Value)]) -> Value {
        .dictionary(key: .string, value: .variant, entries.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    static let badCalls: [BadCall] = [
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.nothing"), noOptions],
                error: BrokerAPI.ErrorNames.unknownApplication, mentions: "org.example.nothing"),
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.swift"), options([("limit", .string("3"))])],
                error: .invalidArgs, mentions: "limit"),
        BadCall(member: BrokerAPI.Member.getItems, arguments: [.string("org.example.swift")], error: .invalidArgs, mentions: "sa{sv}"),
        BadCall(member: BrokerAPI.Member.getAllItems, arguments: [options([("locale", .uint32(3))])], error: .invalidArgs, mentions: "locale"),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.swift"), .string("nope"), noOptions],
                error: BrokerAPI.ErrorNames.unknownItem, mentions: "nope"),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string(""), .string("hello"), noOptions],
                error: BrokerAPI.ErrorNames.unknownApplication, mentions: "\"\""),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string(String(repeating: "a", count: 256)), .string("hello"), noOptions],
                error: BrokerAPI.ErrorNames.unknownApplication, mentions: "aaaa"),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.swift"), .string("hello"), options([("timeout-ms", .uint32(0))])],
                error: .invalidArgs, mentions: "timeout-ms"),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.swift"), .string("hello"),
                                               options([("timeout-ms", .int32(5))])],
                error: .invalidArgs, mentions: "timeout-ms"),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.swift"), .string("hello"),
                                               options([("arguments", options([("where", .objectPath("/x"))]))])],
                error: .invalidArgs, mentions: "arguments.where"),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.swift"), .string("hello"),
                                               options([("arguments", .string("x"))])],
                error: .invalidArgs, mentions: "arguments"),
        BadCall(member: BrokerAPI.Member.perform, arguments: [.string("org.example.swift"), .string("hello"),
                                               options([("activation-token", .boolean(true))])],
                error: .invalidArgs, mentions: "activation-token"),
        BadCall(member: "Nope", arguments: [], error: .unknownMethod, mentions: "Nope"),
    ]

    @Test(arguments: badCalls)
    func badInputGetsANamedError(_ bad: BadCall) async throws {
        let broker = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let client = try Connection(.address(broker.bus.address))
        do {
            let reply = try await client.call(destination: BrokerAPI.busName, path: BrokerAPI.rootPath,
                                              interface: BrokerAPI.interface, member: bad.member, bad.arguments)
            Issue.record("expected \(bad.error.rawValue), got \(reply)")
        } catch {
            #expect(error.name == bad.error)
            #expect(error.message.contains(bad.mentions), "\(error.message)")
        }
        let list = try await broker.call("ListApplications")
        #expect(list.status == 0, "the broker still serves after a bad call: \(list)")
    }
}
