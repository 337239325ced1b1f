import Foundation
import Glibc
import QuickActionsTestSupport
import Testing

/// `watch` as a running process, seeing changes made while it runs.
@Suite("watch, end to end")
struct WatchCommandTests {
    /// Starts `quickactions watch <options>` and waits until it says it is watching.
    func startWatch(_ harness: BrokerHarness, _ options: [String]) async throws -> ManagedProcess {
        let watch = try ManagedProcess(
            CLIProcess.path, ["watch"] + options, environment: CLIProcess.environment(harness),
            directory: harness.directory, name: "watch-\(UUID().uuidString)")
        let ready = await eventually { watch.standardError.contains("watching the broker") || !watch.isRunning }
        #expect(ready && watch.isRunning, "watch did not start: \(watch.standardError)")
        return watch
    }

    /// The JSON objects `watch --json` printed so far, one per line.
    func events(_ watch: ManagedProcess) -> [[String: Any]] {
        watch.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("watch --json prints ItemsChanged with the app's new items after an invoke made while it runs; SIGINT ends it with 0")
    func itemsChanged() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let watch = try await startWatch(harness, ["--json"])
        defer { watch.stop() }
        let invoked = try await CLIProcess.run(
            ["invoke", "org.example.swift", "echo-items", "--activation-token", "seen"], harness)
        #expect(invoked.status == 0, "\(invoked)")
        let seen = await eventually {
            events(watch).contains { $0["signal"] as? String == "ItemsChanged" }
        }
        #expect(seen, "stdout: \(watch.standardOutput)")
        let event = try #require(events(watch).first { $0["signal"] as? String == "ItemsChanged" })
        #expect(event["app-id"] as? String == "org.example.swift")
        let items = try #require(event["items"] as? [[String: Any]])
        #expect(items.map { $0["type"] as? String }.contains("arguments"))
        #expect(items.first { $0["type"] as? String == "arguments" }?["title"] as? String == "seen")
        #expect(items.first { $0["type"] as? String == "arguments" }?["origin"] as? String == "dynamic")
        // Every stdout line is one JSON object.
        let lines = watch.standardOutput.split(separator: "\n")
        #expect(lines.count == events(watch).count)

        watch.signal(SIGINT)
        #expect(watch.waitForExit(timeout: .seconds(10)) == 0, "stderr: \(watch.standardError)")
    }

    @Test("watch --json sees an app added and removed (ApplicationsChanged, ItemsChanged, removed); SIGTERM ends it with 0")
    func applicationsChanged() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let watch = try await startWatch(harness, ["--json"])
        defer { watch.stop() }
        let bundle = try CLIFixtures.swiftApp.write(into: harness.pluginDirectory)
        let added = await eventually {
            events(watch).contains {
                $0["signal"] as? String == "ApplicationsChanged"
                    && (($0["applications"] as? [[String: Any]])?.contains { $0["id"] as? String == "org.example.swift" } ?? false)
            }
        }
        #expect(added, "stdout: \(watch.standardOutput)")
        let appeared = await eventually {
            events(watch).contains { $0["signal"] as? String == "ItemsChanged" && $0["app-id"] as? String == "org.example.swift"
                && ($0["items"] as? [Any])?.count == 3 }
        }
        #expect(appeared, "stdout: \(watch.standardOutput)")

        try FileManager.default.removeItem(at: bundle)
        let removed = await eventually {
            events(watch).contains { $0["app-id"] as? String == "org.example.swift" && $0["removed"] as? Bool == true }
        }
        #expect(removed, "stdout: \(watch.standardOutput)")

        watch.signal(SIGTERM)
        #expect(watch.waitForExit(timeout: .seconds(10)) == 0, "stderr: \(watch.standardError)")
    }

    @Test("watch without --json prints a line per change and the items")
    func textOutput() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let watch = try await startWatch(harness, [])
        defer { watch.stop() }
        #expect(try await CLIProcess.run(["invoke", "org.example.swift", "echo-items"], harness).status == 0)
        let seen = await eventually { watch.standardOutput.contains("ItemsChanged org.example.swift: 5 items") }
        #expect(seen, "stdout: \(watch.standardOutput)")
        #expect(await eventually { watch.standardOutput.contains("(no token)") })
        #expect(!watch.standardOutput.contains("\u{1B}"))
        watch.signal(SIGINT)
        #expect(watch.waitForExit(timeout: .seconds(10)) == 0)
    }

    @Test("watch exits 5 when the bus goes away")
    func busLost() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let watch = try await startWatch(harness, ["--json"])
        defer { watch.stop() }
        harness.bus.stop()
        #expect(watch.waitForExit(timeout: .seconds(15)) == 5, "stderr: \(watch.standardError)")
        #expect(watch.standardError.contains("lost the session bus"))
    }
}
