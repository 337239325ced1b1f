import DBus
import Foundation
import Locking
import QuickActionsTestSupport
import Testing

/// A plugin that breaks the ABI's return-promptly rule and blocks in perform
/// holds up only itself: it blocks its own host process, its own later calls
/// wait their turn there, and every other app is served meanwhile. This is the
/// plugin-host mode's promise (issue 14), so the suite pins it; a trusted
/// in-process plugin that blocks holds up the broker, as the guide says.
@Suite struct BlockingPluginTests {
    static let blocker = "org.example.blocker"
    static let bystander = "org.example.bystander"

    @Test func aPluginBlockingInPerformHoldsUpOnlyItself() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast(Self.blocker), Apps.fast(Self.bystander)],
                                              arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        // Load both plugins, then resume each once: from here on their
        // performs may run on the bus thread.
        for app in [Self.blocker, Self.bystander] {
            for _ in 0..<2 {
                #expect(try await client.perform(app, "fast").success)
            }
        }

        let release = harness.directory.appendingPathComponent("release-blocker")
        let marker = URL(fileURLWithPath: release.path + ".blocking")
        let token = BrokerClient.options([("activation-token", .string(release.path))])
        async let blocked = client.perform(Self.blocker, "block", token)
        #expect(await eventually { FileManager.default.fileExists(atPath: marker.path) },
                "the plugin reached its blocking perform")

        // The plugin's own next call is queued behind the blocked one.
        let queued = Locked<Bool>(false)
        let queuedCall = Task {
            let answer = try await client.perform(Self.blocker, "fast")
            queued.withLock { $0 = true }
            return answer
        }
        // Everything else is served while the plugin blocks.
        for round in 0..<3 {
            let other = try await client.perform(Self.bystander, "fast")
            #expect(other.success, "round \(round)")
            #expect(other.result["message"] == .string("fast fast -"), "round \(round)")
            #expect(try await client.applicationIDs().contains(Self.blocker), "round \(round)")
        }
        #expect(!FileManager.default.fileExists(atPath: release.path))
        #expect(!queued.withLock { $0 }, "the blocked plugin's next call ran beside its blocked perform")

        #expect(FileManager.default.createFile(atPath: release.path, contents: Data()))
        let unblocked = try await blocked
        #expect(unblocked.success)
        #expect(unblocked.result["message"] == .string("unblocked"))
        #expect(try await queuedCall.value.success)
        #expect(harness.log.contains("calls into \(Self.blocker) are queued on the plugin's own thread"),
                "the broker says the plugin lost its bus-thread calls: \(harness.log)")

        // Both apps keep working, and a plugin whose queued calls keep within
        // the budget again gets them on the host's loop thread again: one slow
        // call (or a preempted one on a busy machine) does not cost it the
        // fast path for the rest of the host's life.
        let again = "calls into \(Self.blocker) in a row kept within"
        var calls = 0
        while !harness.log.contains(again), calls < 400 {
            #expect(try await client.perform(Self.blocker, "fast").success)
            calls += 1
        }
        #expect(harness.log.contains(again), "after \(calls) fast calls: \(harness.log.suffix(2000))")
        // Sixteen calm queued calls in a row; the one queued behind the blocked perform may be the first.
        #expect(calls >= 15, "no fewer than the calm calls it takes")
        #expect(try await client.perform(Self.bystander, "fast").success)
        #expect(try await client.waitForPending(0) == 0)
    }
}
