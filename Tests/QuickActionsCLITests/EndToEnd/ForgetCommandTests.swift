import Foundation
import QuickActionsModel
import QuickActionsTestSupport
import Testing

/// `forget` against a real broker: removes an uninstalled app's stored items,
/// refuses an installed one, and says when there is nothing to forget.
@Suite("forget, end to end")
struct ForgetCommandTests {
    @Test("forget removes an uninstalled app's stored items; an installed app is exit 1, nothing stored exit 3")
    func forget() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        defer { harness.stop() }
        let gone = "org.example.gone"
        let file = harness.stateDirectory.appendingPathComponent("\(gone).items")
        try Data(try DynamicItemCoder.encode([ShortcutItem(type: "a", title: "A"), ShortcutItem(type: "b", title: "B"),
                                              ShortcutItem(type: "c", title: "C")])).write(to: file)

        let installed = try await CLIProcess.run(["forget", CLIFixtures.swiftApp.appID], harness)
        #expect(installed.status == 1, "\(installed)")
        #expect(installed.stderr.contains("org.example.swift is installed"), "\(installed)")

        let json = try await CLIProcess.run(["forget", gone, "--json"], harness)
        #expect(json.status == 0, "\(json)")
        let object = try #require(try CLIProcess.json(json) as? [String: Any])
        #expect(object["app-id"] as? String == gone)
        #expect(object["removed-items"] as? Int == 3)
        #expect(!FileManager.default.fileExists(atPath: file.path))

        let again = try await CLIProcess.run(["forget", gone], harness)
        #expect(again.status == 3, "\(again)")
        #expect(again.stderr.contains("no stored items or record of \"\(gone)\""), "\(again)")
        #expect(again.stdout.isEmpty)

        let usage = try await CLIProcess.run(["forget"], harness)
        #expect(usage.status == 2, "\(usage)")
    }
}
