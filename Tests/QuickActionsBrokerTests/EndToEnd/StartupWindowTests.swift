import Foundation
@testable import QuickActionsBroker
import QuickActionsTestSupport
import Testing

/// A bundle that arrives while the broker starts (an installer running at login) is listed
/// without a Reload: the folder watch starts before the initial scan, and what it sees before
/// the broker serves is rescanned once it does.
@Suite struct StartupWindowTests {
    @Test func aBundleWrittenAfterTheInitialScanAndBeforeServingIsListed() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let root = try TemporaryDirectory.make(prefix: "qa-window")
        defer { try? FileManager.default.removeItem(at: root) }
        let plugins = root.appendingPathComponent("plugins")
        let aside = root.appendingPathComponent("aside")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let broker = try Broker(configuration: BrokerConfiguration(
            bus: .address(bus.address), pluginDirectories: [plugins],
            stateDirectory: root.appendingPathComponent("state")))
        #expect(broker.catalog.withLock { $0.sorted.isEmpty })

        // Scanned already, not serving yet: the bundle is made beside the folder and moved in whole.
        let made = try Fixtures.cApp.write(into: aside)
        #expect(rename(made.path, plugins.appendingPathComponent(made.lastPathComponent).path) == 0)
        // Longer than the watch's coalescing delay (150 ms), so it has seen the change before
        // `run()` starts.
        try await Task.sleep(for: .milliseconds(400))

        // run() catches SIGTERM and SIGINT for the broker's stop; in this test process they
        // must stop the tests again afterwards.
        defer {
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, SIG_DFL)
        }
        let running = Task { try await broker.run() }
        let listed = await eventually {
            guard let reply = try? await Command.run("busctl", [
                "--address=\(bus.address)", "--json=short", "call", "--", BrokerHarness.busName,
                BrokerHarness.rootPath, BrokerHarness.interface, "ListApplications",
            ]), let apps = (try? BusctlReply(reply))?.data.first as? [[Any]] else { return false }
            return apps.map { $0.first as? String } == ["org.example.c"]
        }
        #expect(listed)
        broker.shutDown(status: 0)
        #expect(try await running.value == 0)
        broker.close()
    }
}
