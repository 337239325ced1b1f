import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// Plugins run in the broker (`--plugin-host in-process`): perform is called on the bus
/// thread and a completion inside it replies from there, while completions from other
/// threads, later ones, second ones and missing ones keep their rules.
@Suite struct InProcessPerformTests {
    /// The C test plugin with the items that stash a completion and call it late.
    static let cApp = TestBundle(
        appID: "org.example.c", library: "QATestCPlugin", name: "C Example",
        items: [TestBundle.item("succeed", "Succeed"), TestBundle.item("never", "Never"),
                TestBundle.item("complete-stashed", "Complete stashed")])

    static func harness() async throws -> BrokerHarness {
        try await BrokerHarness(bundles: [Fixtures.swiftApp, cApp], arguments: ["--plugin-host", "in-process"])
    }

    @Test func aCompletionFromAnotherThreadAnswersAsOneInsidePerformDoes() async throws {
        let harness = try await Self.harness()
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        // "hello" completes from a thread of its own, "succeed" inside perform.
        let launched = try await PerformTests.perform(client, "org.example.swift", "hello")
        #expect(launched.result["activation"] == .string("launch"))
        #expect(launched.result["message"] == .string("calls=launch:hello,perform:hello"))
        for round in 1...3 {
            let resumed = try await PerformTests.perform(client, "org.example.swift", "hello")
            #expect(resumed.success)
            #expect(resumed.result["activation"] == .string("resume"), "round \(round)")
            let inline = try await PerformTests.perform(client, "org.example.c", "succeed")
            #expect(inline.result["message"] == .string("C performed succeed: Succeed"), "round \(round)")
        }
        let loaded = try await harness.busctl(["get-property", BrokerHarness.busName,
                                               "/org/quickactions/Broker1/apps/org_2eexample_2eswift",
                                               "org.quickactions.Application1", "Loaded"])
        #expect(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "b true")
    }

    @Test func aMissingCompletionTimesOutAndItsLateCallIsDropped() async throws {
        let harness = try await Self.harness()
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        _ = try await PerformTests.perform(client, "org.example.c", "succeed")
        await #expect {
            _ = try await PerformTests.perform(client, "org.example.c", "never",
                                               PerformTests.options([("timeout-ms", .uint32(300))]))
        } throws: { error in
            let error = error as? DBusError
            return error?.name == "org.quickactions.Error.Timeout" && error?.message.contains("300 ms") == true
        }
        // The stashed completion, called now, finds nobody waiting; this call gets its own answer.
        let late = try await PerformTests.perform(client, "org.example.c", "complete-stashed")
        #expect(late.result["message"] == .string("flushed"))
        let twice = try await PerformTests.perform(client, "org.example.swift", "twice")
        #expect(twice.result["message"] == .string("first"))
        #expect(await eventually { harness.log.contains("called again") }, "\(harness.log)")
        let pending = try await harness.busctl(["get-property", BrokerHarness.busName, BrokerHarness.rootPath,
                                                BrokerHarness.interface, "PendingPerforms"])
        #expect(pending.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "u 0")
    }
}
