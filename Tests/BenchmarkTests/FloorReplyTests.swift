import Foundation
import QuickActionsTestSupport
import Testing

/// The benchmark's C floor answers Perform with the broker's own reply for a warm plugin, so
/// that a ratio against it compares the responders and not the bytes the bus carries; so does
/// the relay floor, the mark of the broker's apps in plugin hosts. Checked against a real
/// broker running the benchmark's C plugin in a plugin host (its default), through busctl.
@Suite struct FloorReplyTests {
    static let appID = "org.example.benchmessage"

    @Test("the floor's and the relay's replies are the broker's, without a message and with --message", arguments: [
        (floor: "qa-bench-floor", type: "bench.perform", floorArguments: [String]()),
        (floor: "qa-bench-floor", type: "bench.message", floorArguments: ["--message", "Performed at once"]),
        (floor: "qa-bench-relay", type: "bench.perform", floorArguments: [String]()),
        (floor: "qa-bench-relay", type: "bench.message", floorArguments: ["--message", "Performed at once"]),
    ])
    func theFloorSendsTheBrokersReply(floor executable: String, type: String, floorArguments: [String]) async throws {
        let bundle = TestBundle(appID: Self.appID, library: "QABenchPlugin",
                                items: [TestBundle.item(type, "Bench")])
        let harness = try await BrokerHarness(bundles: [bundle], arguments: ["--no-desktop-entries"])
        defer { harness.stop() }
        // The second call: the first one launches the plugin and says so.
        _ = try await harness.call("Perform", "ssa{sv}", [Self.appID, type, "0"])
        let broker = try await harness.call("Perform", "ssa{sv}", [Self.appID, type, "0"])
        #expect(broker.status == 0, "\(broker)")

        let name = "org.quickactions.Bench.FloorUnderTest"
        let floor = try ManagedProcess(
            PackagePaths.executable(executable).path, floorArguments + [harness.bus.address, name],
            environment: harness.bus.environment(), directory: harness.directory, name: "floor")
        defer { floor.stop() }
        var answer: CommandResult?
        _ = try await eventually(.seconds(20)) {
            let result = try await harness.busctl(
                ["--json=short", "call", "--", name, "/org/quickactions/Broker1", "org.quickactions.Broker1",
                 "Perform", "ssa{sv}", Self.appID, type, "0"])
            if result.status == 0 { answer = result }
            return answer != nil
        }
        let reply = try #require(answer, "the floor never answered: \(floor.standardError)")
        #expect(reply.stdout == broker.stdout, "floor \(reply.stdout), broker \(broker.stdout)")
        #expect(reply.stdout.contains("Performed at once") == !floorArguments.isEmpty, "\(reply.stdout)")
    }
}
