import Foundation
import QuickActionsCLI
import QuickActionsTestSupport
import Testing

/// `quickactions status`: the broker's process and folders, each app's state.
@Suite("status, end to end")
struct StatusCommandTests {
    @Test("status --json: pid, version, uptime, folders in order with the missing one, and each app's state")
    func json() async throws {
        let scratch = try TemporaryDirectory.make(prefix: "qa-cli-status")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let missing = scratch.appendingPathComponent("absent").path
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp, CLIFixtures.brokenApp],
                                              arguments: ["--plugins", missing])
        #expect(try await CLIProcess.run(["invoke", "org.example.c", "succeed"], harness).status == 0)
        #expect(try await CLIProcess.run(["invoke", "org.example.broken", "hello"], harness).status == 4)

        let result = try await CLIProcess.run(["status", "--json"], harness)
        #expect(result.status == 0, "\(result)")
        let status = try #require(try CLIProcess.json(result) as? [String: Any])
        #expect(status["pid"] as? Int == harness.process.pid.map(Int.init))
        #expect(status["version"] as? String == QuickActionsCLI.version)
        #expect((status["uptime-seconds"] as? Int).map { $0 >= 0 } == true)
        let folders = try #require(status["plugin-directories"] as? [[String: Any]])
        #expect(folders.map { $0["path"] as? String } == [harness.pluginDirectory.path, missing])
        #expect(folders.map { $0["missing"] as? Bool } == [false, true])
        let apps = try #require(status["apps"] as? [[String: Any]])
        #expect(apps.map { $0["id"] as? String } == ["org.example.broken", "org.example.c"])
        let broken = apps[0], loaded = apps[1]
        #expect(broken["loaded"] as? Bool == false)
        #expect((broken["last-load-error"] as? String)?.isEmpty == false, "\(broken)")
        #expect(broken["bundle-path"] as? String
            == harness.pluginDirectory.appendingPathComponent("org.example.broken.bundle").path)
        #expect(loaded["loaded"] as? Bool == true)
        // Loaded in a host process of its own: its pid; in this lane's in-process mode, none.
        if TestPluginHost.mode == "in-process" {
            #expect(loaded["host-pid"] as? Int ?? 0 == 0, "\(loaded)")
        } else {
            #expect((loaded["host-pid"] as? Int ?? 0) > 0)
        }
        #expect(loaded["quarantined"] as? Bool == false)
        #expect(loaded["quarantine-reason"] as? String == "")
        #expect(loaded["last-load-error"] as? String == "")
    }

    @Test("status on a terminal-less stdout lists the same in lines")
    func text() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.brokenApp], arguments: ["--plugins", "/nonexistent/qa"])
        #expect(try await CLIProcess.run(["invoke", "org.example.broken", "hello"], harness).status == 4)
        let result = try await CLIProcess.run(["status"], harness)
        #expect(result.status == 0, "\(result)")
        let pid = try #require(harness.process.pid)
        #expect(result.stdout.contains("pid \(pid) on the session bus, version \(QuickActionsCLI.version)"), "\(result)")
        #expect(result.stdout.contains("  1. \(harness.pluginDirectory.path)\n"))
        #expect(result.stdout.contains("  2. /nonexistent/qa (missing)\n"))
        #expect(result.stdout.contains("    loaded:          no\n"))
        #expect(!result.stdout.contains("last load error: none"), "the broken app's error is shown")
    }
}
