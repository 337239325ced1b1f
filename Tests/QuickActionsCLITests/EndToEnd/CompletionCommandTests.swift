import Foundation
import QuickActionsTestSupport
import Testing

/// The completion scripts loaded into real shells, completing from a real broker.
@Suite("completion, end to end")
struct CompletionCommandTests {
    /// Sources the bash script and completes `line` as bash would, printing COMPREPLY.
    static let bashDriver = """
        source <(quickactions completion bash)
        complete -p quickactions >/dev/null || exit 9
        COMP_LINE=$1
        COMP_POINT=${#COMP_LINE}
        read -ra COMP_WORDS <<< "$COMP_LINE"
        if [[ $COMP_LINE == *" " ]]; then COMP_WORDS+=(""); fi
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMPREPLY=()
        _quickactions_complete
        printf '%s\\n' "${COMPREPLY[@]}"
        """

    func bashComplete(_ line: String, _ harness: BrokerHarness?, environment: [String: String] = [:]) async throws
        -> [String]
    {
        var extra = environment
        extra["PATH"] = PackagePaths.products.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await Command.run(
            "bash", ["-c", Self.bashDriver, "driver", line], environment: CLIProcess.environment(harness, extra))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test("__complete prints app ids and unique item types, and nothing on stderr on error")
    func hiddenCommand() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        let apps = try await CLIProcess.run(["__complete", "apps"], harness)
        #expect(apps.status == 0)
        #expect(apps.stdout == "org.example.c\norg.example.swift\n")
        #expect(try await CLIProcess.run(["invoke", "org.example.swift", "echo-items"], harness).status == 0)
        let types = try await CLIProcess.run(["__complete", "types", "org.example.swift"], harness)
        #expect(types.stdout == "hello\necho-items\nnever\narguments\n")
        let unknown = try await CLIProcess.run(["__complete", "types", "org.example.nope"], harness)
        #expect(unknown.status == 3)
        #expect(unknown.stdout.isEmpty && unknown.stderr.isEmpty)
    }

    @Test("bash completes commands, options and shells without a broker", arguments: [
        ("quickactions ", ["apps", "completion", "forget", "help", "invoke", "list", "pick", "status", "watch"]),
        ("quickactions li", ["list"]),
        ("quickactions --", ["--address", "--help", "--session", "--system", "--version"]),
        ("quickactions list --l", ["--limit", "--locale"]),
        ("quickactions invoke a b --ti", ["--timeout"]),
        ("quickactions completion ", ["bash", "fish", "zsh"]),
        ("quickactions help w", ["watch"]),
        ("quickactions list --locale ", []),
    ])
    func bashStatic(_ line: String, _ expected: [String]) async throws {
        #expect(try await bashComplete(line, nil, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/qa"])
            == expected)
    }

    @Test("bash completes app ids and item types from the broker, on the bus the line names")
    func bashFromBroker() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.swiftApp, CLIFixtures.cApp])
        #expect(try await bashComplete("quickactions invoke ", harness) == ["org.example.c", "org.example.swift"])
        #expect(try await bashComplete("quickactions list org.example.s", harness) == ["org.example.swift"])
        #expect(try await bashComplete("quickactions invoke org.example.swift ", harness) == ["echo-items", "hello", "never"])
        #expect(try await bashComplete("quickactions invoke --timeout 3 org.example.c s", harness) == ["succeed"])
        // With no session bus in the environment, --address on the line is what reaches the broker.
        let elsewhere = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/qa"]
        #expect(try await bashComplete("quickactions invoke org.example.c ", harness, environment: elsewhere) == [])
        #expect(try await bashComplete(
            "quickactions --address \(harness.bus.address) invoke org.example.c ", harness, environment: elsewhere)
            == ["fail", "succeed"])
    }

    @Test("zsh loads its script and registers the completion (when zsh is installed)")
    func zsh() async throws {
        guard Command.exists("zsh") else { return }
        let result = try await Command.run("zsh", ["-c", """
            autoload -U compinit && compinit -u -D
            source <(\(CLIProcess.path) completion zsh)
            [[ ${_comps[quickactions]} == _quickactions ]] || { echo "not registered" >&2; exit 1; }
            """], environment: CLIProcess.environment(nil))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("fish loads its script and completes commands and app ids (when fish is installed)")
    func fish() async throws {
        guard Command.exists("fish") else { return }
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        var extra = ["PATH": PackagePaths.products.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
        extra["HOME"] = harness.directory.path
        let result = try await Command.run("fish", ["--no-config", "-c", """
            quickactions completion fish | source
            complete -C 'quickactions '
            complete -C 'quickactions invoke '
            """], environment: CLIProcess.environment(harness, extra))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("apps"))
        #expect(result.stdout.contains("org.example.c"))
    }
}
