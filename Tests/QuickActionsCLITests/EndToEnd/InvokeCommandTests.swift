import Foundation
import QuickActionsTestSupport
import Testing

/// `invoke` against a real broker: each exit code, typed arguments, JSON, the spinner.
@Suite("invoke, end to end")
struct InvokeCommandTests {
    @Test("success exits 0 and prints the plugin's message alone; --json gives the reply field by field")
    func success() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let first = try await CLIProcess.run(["invoke", "org.example.swift", "hello"], harness)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "calls=launch:hello,perform:hello\n")
        #expect(first.stderr.isEmpty)

        let second = try await CLIProcess.run(["invoke", "org.example.swift", "hello", "--json"], harness)
        #expect(second.status == 0, "\(second)")
        let reply = try #require(try CLIProcess.json(second) as? [String: Any])
        #expect(reply["success"] as? Bool == true)
        #expect(reply["app-id"] as? String == "org.example.swift")
        #expect(reply["type"] as? String == "hello")
        let result = try #require(reply["result"] as? [String: Any])
        #expect(result["activation"] as? String == "resume")
        #expect(result["message"] as? String == "calls=launch:hello,perform:hello,perform:hello")
    }

    @Test("the plugin's failure exits 1 with one line on stderr; --json still prints the reply")
    func pluginFailure() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let text = try await CLIProcess.run(["invoke", "org.example.c", "fail"], harness)
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.isEmpty)
        #expect(text.stderrLines.count == 1)
        #expect(text.stderr.hasPrefix("quickactions: 'fail' of app 'org.example.c' failed: "))

        let json = try await CLIProcess.run(["invoke", "org.example.c", "fail", "--json"], harness)
        #expect(json.status == 1, "\(json)")
        let reply = try #require(try CLIProcess.json(json) as? [String: Any])
        #expect(reply["success"] as? Bool == false)
        #expect((reply["result"] as? [String: Any])?["message"] is String)
    }

    @Test("an unknown app or item exits 3 naming it", arguments: [
        ["org.example.nope", "succeed"], ["org.example.c", "nope"],
    ])
    func unknown(_ target: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["invoke"] + target, harness)
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("nope"))
    }

    @Test("a plugin that cannot load exits 4 with the loader's reason")
    func pluginFailedToLoad() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.brokenApp])
        let result = try await CLIProcess.run(["invoke", "org.example.broken", "hello"], harness)
        #expect(result.status == 4, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
    }

    @Test("--timeout: a plugin that never completes exits 4 once the time is up")
    func timeout() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let started = ContinuousClock.now
        let result = try await CLIProcess.run(["invoke", "org.example.swift", "never", "--timeout", "0.5"], harness)
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("500 ms"), "the broker's message names the timeout: \(result.stderr)")
        #expect(elapsed < .seconds(10))
    }

    @Test("typed --arg values and the activation token reach the plugin with their D-Bus types")
    func typedArguments() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let result = try await CLIProcess.run([
            "invoke", "org.example.swift", "echo-items", "--arg", "s=42", "--arg", "n:int=-42",
            "--arg", "on:bool=true", "--arg", "x:double=1.5", "--arg", "eq=a=b", "--activation-token", "token-7",
        ], harness)
        #expect(result.status == 0, "\(result)")

        // As busctl (a real client) sees them: exact D-Bus types.
        let reply = try await harness.call("GetItems", "sa{sv}", ["org.example.swift", "0"])
        #expect(reply.status == 0, "\(reply)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any])
        let items = try #require((object["data"] as? [Any])?.first as? [[String: Any]])
        let echoed = try #require(items.first { ($0["type"] as? [String: Any])?["data"] as? String == "arguments" })
        #expect((echoed["title"] as? [String: Any])?["data"] as? String == "token-7")
        let info = try #require((echoed["user-info"] as? [String: Any])?["data"] as? [String: Any])
        func typed(_ key: String) -> (String?, Any?) {
            let field = info[key] as? [String: Any]
            return (field?["type"] as? String, field?["data"])
        }
        #expect(typed("s").0 == "s")
        #expect(typed("s").1 as? String == "42")
        #expect(typed("n").0 == "x")
        #expect(typed("n").1 as? Int == -42)
        #expect(typed("on").0 == "b")
        #expect(typed("on").1 as? Bool == true)
        #expect(typed("x").0 == "d")
        #expect(typed("x").1 as? Double == 1.5)
        #expect(typed("eq").1 as? String == "a=b")

        // And as `list --json` shows them.
        let listed = try await CLIProcess.run(["list", "org.example.swift", "--json"], harness)
        let groups = try #require(try CLIProcess.json(listed) as? [[String: Any]])
        let arguments = try #require((groups.first?["items"] as? [[String: Any]])?.first { $0["type"] as? String == "arguments" })
        #expect(arguments["origin"] as? String == "dynamic")
        let userInfo = try #require(arguments["user-info"] as? [String: Any])
        #expect(userInfo["n"] as? Int == -42)
        #expect(userInfo["on"] as? Bool == true)
        #expect(userInfo["s"] as? String == "42")
    }

    @Test("the activation token defaults to $XDG_ACTIVATION_TOKEN")
    func tokenFromEnvironment() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let result = try await CLIProcess.run(
            ["invoke", "org.example.swift", "echo-items"], harness, environment: ["XDG_ACTIVATION_TOKEN": "from-env"])
        #expect(result.status == 0, "\(result)")
        let listed = try await CLIProcess.run(["list", "org.example.swift", "--json"], harness)
        let groups = try #require(try CLIProcess.json(listed) as? [[String: Any]])
        let titles = (groups.first?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
        #expect(titles.contains("from-env"))
    }

    @Test("a bad --arg is a usage error (exit 2) and nothing is performed")
    func badArgument() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        let result = try await CLIProcess.run(["invoke", "org.example.swift", "hello", "--arg", "n:int=many"], harness)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "quickactions: invoke: --arg 'n:int=many': 'many' is not an integer "
            + "(a 64-bit signed whole number) (see 'quickactions invoke --help')\n")
        let apps = try #require(try CLIProcess.json(try await CLIProcess.run(["apps", "--json"], harness)) as? [[String: Any]])
        #expect(apps.first?["loaded"] as? Bool == false)
    }

    @Test("on a terminal a call over a second shows a spinner, erased before the result; a quick one shows none")
    func spinner() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp])
        guard let slow = try await CLIProcess.runOnTerminal(
            ["invoke", "org.example.swift", "never", "--timeout", "1.6"], harness) else { return }
        #expect(slow.status == 4, "\(slow)")
        let screen = slow.stdout
        #expect(screen.contains("\r⠋ org.example.swift Never completes…") || screen.contains("\r| org.example.swift Never completes…"),
                "a spinner frame: \(screen.debugDescription)")
        let erase = try #require(screen.range(of: "\r\u{1B}[2K"), "the spinner is erased: \(screen.debugDescription)")
        let message = try #require(screen.range(of: "quickactions: "))
        #expect(erase.upperBound <= message.lowerBound, "erased before the error is printed")

        let quick = try #require(try await CLIProcess.runOnTerminal(["invoke", "org.example.swift", "hello"], harness))
        #expect(quick.status == 0, "\(quick)")
        #expect(!quick.stdout.contains("⠋") && !quick.stdout.contains("\u{1B}[2K"), "\(quick.stdout.debugDescription)")
        #expect(quick.stdout.contains("perform:hello"))
    }
}
