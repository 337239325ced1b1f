import Foundation
import QuickActionsTestSupport
import Testing

/// `pick` driven by scripted pickers and the numbered prompt.
@Suite("pick, end to end")
struct PickCommandTests {
    @Test("a scripted picker gets every item on stdin; the line it prints is performed")
    func scriptedPicker() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        let offered = harness.directory.appendingPathComponent("offered.txt")
        let picker = "tee '\(offered.path)' | grep -F 'Swift Example: Hello'"
        let result = try await CLIProcess.run(["pick", "--picker", picker], harness)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "calls=launch:hello,perform:hello\n")
        let lines = try String(contentsOf: offered, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == [
            "C Example: Succeed", "C Example: Fail", "Swift Example: Hello — Say hello", "Swift Example: Echo",
            "Swift Example: Never completes",
        ])
    }

    @Test("pick --json prints the reply; a failing choice exits 1")
    func pickFailureJSON() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["pick", "--json", "--picker", "grep Fail"], harness)
        #expect(result.status == 1, "\(result)")
        let reply = try #require(try CLIProcess.json(result) as? [String: Any])
        #expect(reply["success"] as? Bool == false)
        #expect(reply["type"] as? String == "fail")
    }

    @Test("without a picker, the numbered prompt lists the items on stderr and reads the number from stdin")
    func numberedPrompt() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["pick"], harness, input: "1\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "C performed succeed: Succeed\n")
        #expect(result.stderr.contains("  1  C Example: Succeed\n"))
        #expect(result.stderr.contains("  2  C Example: Fail\n"))
    }

    @Test("typed --arg values reach the plugin through pick too")
    func pickArguments() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let result = try await CLIProcess.run(
            ["pick", "--picker", "grep Echo", "--arg", "n:int=5", "--activation-token", "picked"], harness)
        #expect(result.status == 0, "\(result)")
        let listed = try await CLIProcess.run(["list", "org.example.swift", "--json"], harness)
        let groups = try #require(try CLIProcess.json(listed) as? [[String: Any]])
        let echoed = try #require((groups.first?["items"] as? [[String: Any]])?.first { $0["type"] as? String == "arguments" })
        #expect(echoed["title"] as? String == "picked")
        #expect((echoed["user-info"] as? [String: Any])?["n"] as? Int == 5)
    }

    @Test("a bad --arg is refused (exit 2) before the picker is shown", arguments: [
        "n:int=five", "noequals", ":bool=true", "x:colour=red",
    ])
    func badArgumentBeforeMenu(_ argument: String) async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let shown = harness.directory.appendingPathComponent("shown")
        let result = try await CLIProcess.run(
            ["pick", "--picker", "touch '\(shown.path)'; head -n 1", "--arg", argument], harness)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("'\(argument)'"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: shown.path), "the picker was shown")
    }

    @Test("choosing nothing exits 1 and performs nothing", arguments: [
        (["--picker", "false"], nil), (["--picker", "cat >/dev/null"], nil), ([], "\n"), ([], "q\n"),
    ] as [([String], String?)])
    func cancelled(_ options: [String], _ input: String?) async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["pick"] + options, harness, input: input)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("nothing chosen"))
        let apps = try #require(try CLIProcess.json(try await CLIProcess.run(["apps", "--json"], harness)) as? [[String: Any]])
        #expect(apps.first?["loaded"] as? Bool == false, "no plugin was loaded")
    }

    @Test("a picker that fails (a status other than 1 or 130) or prints several lines is exit 2 with its status",
          arguments: [
            ("exit 3", "exit status 3"), ("kill -TERM $$", "exit status 143"),
            ("grep 'C Example'", "printed 2 lines"), ("cat", "printed 2 lines"),
          ])
    func failingPicker(_ picker: String, _ expected: String) async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["pick", "--picker", picker], harness)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(expected), "\(result)")
        #expect(!result.stderr.contains("nothing chosen"), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("fzf's Escape (130) is a cancel too: exit 1, nothing performed")
    func cancelledWith130() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["pick", "--picker", "exit 130"], harness)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("nothing chosen"), "\(result)")
    }

    @Test("a picker printing a line that was not offered exits 3; a missing picker or bad number exits 2")
    func wrongChoices() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let unknown = try await CLIProcess.run(["pick", "--picker", "echo Something else"], harness)
        #expect(unknown.status == 3, "\(unknown)")
        #expect(unknown.stderr.contains("'Something else'"))
        let missing = try await CLIProcess.run(["pick", "--picker", "qa-no-such-picker"], harness)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("'qa-no-such-picker'"))
        let number = try await CLIProcess.run(["pick"], harness, input: "7\n")
        #expect(number.status == 2, "\(number)")
        #expect(number.stderr.contains("'7' is not a number from 1 to 2"))
    }
}
