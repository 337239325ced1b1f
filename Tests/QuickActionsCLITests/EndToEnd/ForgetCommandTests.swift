import Foundation
import QuickActionsBundles
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

/// `forget --usage` and the frecency order `pick` offers items in.
@Suite("forget --usage and usage ranking, end to end")
struct ForgetUsageCommandTests {
    static func offered(_ harness: BrokerHarness) async throws -> [String] {
        let offered = harness.directory.appendingPathComponent("offered-\(UUID().uuidString).txt")
        // The picker chooses nothing: only what was offered matters here.
        let result = try await CLIProcess.run(["pick", "--picker", "cat > '\(offered.path)'"], harness)
        #expect(result.status == 1, "\(result)")
        return try String(contentsOf: offered, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("pick offers the most used items first, across apps; forget --usage restores display order")
    func pickRanksAndForgetClears() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        defer { harness.stop() }
        let display = try await Self.offered(harness)
        #expect(display.first == "C Example: Succeed", "\(display)")
        for _ in 0..<2 { #expect(try await CLIProcess.run(["invoke", "org.example.swift", "never", "--timeout", "0.2"], harness).status == 4) }
        #expect(try await CLIProcess.run(["invoke", "org.example.swift", "hello"], harness).status == 0)
        let ranked = try await Self.offered(harness)
        #expect(ranked.first == "Swift Example: Hello — Say hello", "a performed item comes first: \(ranked)")
        #expect(Set(ranked) == Set(display))

        let wrongApp = try await CLIProcess.run(["forget", "--usage", "org.example.c"], harness)
        #expect(wrongApp.status == 0 && wrongApp.stdout == "forgot the usage of 0 item(s) of org.example.c\n", "\(wrongApp)")
        let forgotten = try await CLIProcess.run(["forget", "--usage", "org.example.swift", "--json"], harness)
        #expect(forgotten.status == 0 && forgotten.stdout == "{\"forgotten\":1}\n", "\(forgotten)")
        #expect(try await Self.offered(harness) == display)
        let all = try await CLIProcess.run(["forget", "--usage"], harness)
        #expect(all.stdout == "forgot the usage of 0 item(s) of every app\n", "\(all)")
    }

    @Test("forget with neither an app nor --usage is a usage error; an unknown app exits 3 naming it")
    func forgetErrors() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        defer { harness.stop() }
        let bare = try await CLIProcess.run(["forget"], harness)
        #expect(bare.status == 2 && bare.stderr.contains("--usage"), "\(bare)")
        let unknown = try await CLIProcess.run(["forget", "--usage", "org.example.nothing"], harness)
        #expect(unknown.status == 3 && unknown.stderr.contains("org.example.nothing"), "\(unknown)")
    }
}
