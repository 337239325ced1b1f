import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// Usage ranking end to end: successful Performs reorder `order: "frecency"` listings, the
/// history survives a restart, ForgetUsage clears it, and bad options are refused.
@Suite struct UsageRankingTests {
    typealias Options = [(String, Value)]

    static func types(_ harness: BrokerHarness, _ app: String, order: String?) async throws -> [String] {
        var arguments = [app]
        arguments += order.map { ["1", "order", "s", $0] } ?? ["0"]
        let reply = try BusctlReply(try await harness.call("GetItems", "sa{sv}", arguments))
        return ((reply.data.first as? [Any]) ?? []).compactMap { ItemJSON($0)?.string("type") }
    }

    static func perform(_ harness: BrokerHarness, _ app: String, _ type: String) async throws -> Bool {
        let reply = try BusctlReply(try await harness.call("Perform", "ssa{sv}", [app, type, "0"]))
        return reply.data.first as? Bool ?? false
    }

    @Test func performsRankItemsAndTheRankingSurvivesARestart() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.cApp, Fixtures.swiftApp])
        defer { harness.stop() }
        let display = ["hello", "echo-items", "launch-handled", "never", "twice"]
        #expect(try await Self.types(harness, "org.example.swift", order: nil) == display)
        #expect(try await Self.types(harness, "org.example.swift", order: "frecency") == display,
                "nothing used yet: display order")
        for type in ["launch-handled", "hello", "launch-handled"] {
            #expect(try await Self.perform(harness, "org.example.swift", type))
        }
        let ranked = ["launch-handled", "hello", "echo-items", "never", "twice"]
        #expect(try await Self.types(harness, "org.example.swift", order: "frecency") == ranked)
        #expect(try await Self.types(harness, "org.example.swift", order: "display") == display)

        // A failed Perform is not a use.
        for _ in 0..<3 { #expect(try await Self.perform(harness, "org.example.c", "fail") == false) }
        #expect(try await Self.perform(harness, "org.example.c", "succeed"))
        #expect(try await Self.types(harness, "org.example.c", order: "frecency") == ["succeed", "fail"])

        // Stopping makes the plugin resign, which sets one dynamic item: never used, it comes last.
        try await harness.restart()
        #expect(try await Self.types(harness, "org.example.swift", order: "frecency") == ranked + ["resigned"],
                "lost across the restart")
        let file = harness.stateDirectory.appendingPathComponent("usage.json")
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(stored?["version"] as? Int == 1)

        // GetAllItems ranks within each app and carries the score; apps stay sorted by id.
        let all = try BusctlReply(try await harness.call("GetAllItems", "a{sv}", ["1", "order", "s", "frecency"]))
        let groups = (all.data.first as? [[Any]]) ?? []
        #expect(groups.map { $0.first as? String } == ["org.example.c", "org.example.swift"])
        let swiftItems = ((groups.last?.last as? [Any]) ?? []).compactMap(ItemJSON.init)
        #expect(swiftItems.compactMap { $0.string("type") } == ranked + ["resigned"])
        let scores = swiftItems.map { ($0.fields["frecency"] as? [String: Any])?["data"] as? Double ?? -1 }
        #expect(scores[0] > 1.9 && scores[0] <= 2 && scores[1] > 0.9 && scores[1] <= 1 && scores[2] == 0, "\(scores)")

        let limited = try BusctlReply(try await harness.call("GetItems", "sa{sv}",
                                                             ["org.example.swift", "2", "order", "s", "frecency", "limit", "u", "1"]))
        #expect(((limited.data.first as? [Any]) ?? []).compactMap { ItemJSON($0)?.string("type") } == ["launch-handled"])
    }

    @Test func usesCountPerItemIDNotPerType() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        defer { harness.stop() }
        let app = "org.example.swift"
        // echo-items publishes a dynamic item of its own type: two items, one type, two ids.
        #expect(try await Self.perform(harness, app, "echo-items"))
        let listed = try BusctlReply(try await harness.call("GetItems", "sa{sv}", [app, "0"]))
        let items = ((listed.data.first as? [Any]) ?? []).compactMap(ItemJSON.init)
        let echoes = items.filter { $0.string("type") == "echo-items" }
        try #require(echoes.count == 2, "\(items.map(\.fields))")
        let dynamicID = try #require(echoes.last?.string("id"))
        #expect(dynamicID != echoes.first?.string("id"))
        for _ in 0..<2 {
            let reply = try BusctlReply(try await harness.call("Perform", "ssa{sv}", [app, "echo-items", "1", "item-id", "s", dynamicID]))
            #expect(reply.data.first as? Bool == true)
        }
        let ranked = try BusctlReply(try await harness.call("GetItems", "sa{sv}", [app, "1", "order", "s", "frecency"]))
        let order = ((ranked.data.first as? [Any]) ?? []).compactMap(ItemJSON.init)
        #expect(order.first?.string("id") == dynamicID, "\(order.map(\.fields))")
        let staticScore = order.first { $0.string("id") == "echo-items" }.flatMap { ($0.fields["frecency"] as? [String: Any])?["data"] as? Double }
        // The first echo-items Perform named the type alone: it ran (and counted for) the static item.
        #expect(staticScore.map { $0 > 0.9 && $0 <= 1 } == true, "\(String(describing: staticScore))")
    }

    @Test func forgetUsageClearsOneAppOrAll() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.cApp, Fixtures.swiftApp])
        defer { harness.stop() }
        #expect(try await Self.perform(harness, "org.example.swift", "twice"))
        #expect(try await Self.perform(harness, "org.example.c", "succeed"))
        let cleared = try BusctlReply(try await harness.call("ForgetUsage", "s", ["org.example.swift"]))
        #expect(cleared.data.first as? Int == 1)
        #expect(try await Self.types(harness, "org.example.swift", order: "frecency").first == "hello")
        #expect(try await Self.types(harness, "org.example.c", order: "frecency").first == "succeed")
        let unknown = try await harness.call("ForgetUsage", "s", ["org.example.nothing"])
        #expect(unknown.stderr.contains("org.example.nothing"), "\(unknown)")
        let invalid = try await harness.call("ForgetUsage", "s", ["not an id"])
        #expect(invalid.status != 0 && invalid.stderr.contains("not an id"), "\(invalid)")
        let all = try BusctlReply(try await harness.call("ForgetUsage", "s", [""]))
        #expect(all.data.first as? Int == 1)
        try await harness.restart()
        for app in ["org.example.c", "org.example.swift"] {
            #expect(try await Self.types(harness, app, order: "frecency") == Self.types(harness, app, order: nil))
        }
        let stored = try String(contentsOf: harness.stateDirectory.appendingPathComponent("usage.json"), encoding: .utf8)
        #expect(stored.contains("\"apps\":{}"), "\(stored)")
    }

    @Test(arguments: [("s", "recent", "\"recent\""), ("u", "1", "\"order\" must have type \"s\"")])
    func aBadOrderIsRefusedNamingIt(type: String, value: String, named: String) async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.cApp])
        defer { harness.stop() }
        for (member, signature, prefix) in [("GetItems", "sa{sv}", ["org.example.c"]), ("GetAllItems", "a{sv}", [])] {
            let result = try await harness.call(member, signature, prefix + ["1", "order", type, value])
            #expect(result.status != 0)
            #expect(result.stderr.contains(named), "\(member): \(result)")
        }
    }
}
