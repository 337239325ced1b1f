import Foundation
import QuickActionsTestSupport
import Testing

/// `--json` failures: a JSON error object on stdout beside the line on stderr.
@Suite("--json errors, end to end")
struct JSONErrorTests {
    /// stdout as `{"error": {"name", "message"}}`.
    static func error(_ result: CommandResult) throws -> (name: String, message: String) {
        let object = try #require(try CLIProcess.json(result) as? [String: Any], "stdout: \(result.stdout)")
        let error = try #require(object["error"] as? [String: Any], "no error object: \(result.stdout)")
        return (try #require(error["name"] as? String), try #require(error["message"] as? String))
    }

    @Test("a failure with --json prints {\"error\": {name, message}} on stdout and the line on stderr", arguments: [
        (["list", "org.example.nosuch", "--json"], 3, "org.quickactions.Error.UnknownApplication"),
        (["--json", "invoke", "org.example.c", "nosuch"], 3, "not-found"),
        (["list", "--json", "--limit", "many"], 2, "usage"),
        (["--json", "list", "--bogus"], 2, "usage"),
        (["pick", "--json", "--picker", "false"], 1, "cancelled"),
    ] as [([String], Int32, String)])
    func failures(_ arguments: [String], _ status: Int32, _ name: String) async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(arguments, harness)
        #expect(result.status == status, "\(result)")
        let error = try Self.error(result)
        #expect(error.name == name)
        #expect(!error.message.isEmpty)
        let line = try #require(result.stderrLines.last.map(String.init), "nothing on stderr")
        #expect(line.contains(error.message), "stderr \(line) lacks \(error.message)")
    }

    @Test("an unreachable broker with --json is exit 5 with the bus's error name")
    func unreachable() async throws {
        let harness = try await BrokerHarness()
        harness.process.stop()
        let result = try await CLIProcess.run(["--json", "apps"], harness)
        #expect(result.status == 5, "\(result)")
        let error = try Self.error(result)
        #expect(error.name.hasPrefix("org.freedesktop.DBus.Error."), "\(error)")
    }

    @Test("an empty list with --json prints [] and exits 0", arguments: [["apps", "--json"], ["list", "--json"]])
    func emptyList(_ arguments: [String]) async throws {
        let harness = try await BrokerHarness()
        let result = try await CLIProcess.run(arguments, harness)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "[]\n")
    }
}
