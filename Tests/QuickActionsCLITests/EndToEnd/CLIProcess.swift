import Foundation
import QuickActionsTestSupport
import Testing

/// Runs the built `quickactions` as a real process, as users and launchers do.
enum CLIProcess {
    static var path: String { PackagePaths.executable("quickactions").path }

    /// An environment whose session bus is the harness's, without anything
    /// from the developer's desktop that would change the output (display,
    /// width, colour, activation tokens).
    static func environment(_ harness: BrokerHarness?, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = harness?.bus.environment() ?? ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "COLUMNS", "NO_COLOR", "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"] {
            environment.removeValue(forKey: key)
        }
        environment["LANG"] = "C.UTF-8"
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// `quickactions <arguments>` on the harness's bus.
    static func run(
        _ arguments: [String], _ harness: BrokerHarness?, environment extra: [String: String] = [:],
        input: String? = nil, timeout: Duration = .seconds(60)
    ) async throws -> CommandResult {
        try await Command.run(path, arguments, environment: environment(harness, extra), input: input, timeout: timeout)
    }

    /// Runs `arguments` inside `script`, so stdout and stderr are a terminal
    /// (a pty); returns everything the terminal showed. Nil without `script`.
    static func runOnTerminal(
        _ arguments: [String], _ harness: BrokerHarness, environment extra: [String: String] = [:]
    ) async throws -> CommandResult? {
        guard Command.exists("script") else { return nil }
        let line = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        return try await Command.run("script", ["-qec", line, "/dev/null"], environment: environment(harness, extra))
    }

    /// Parses stdout as one JSON document.
    static func json(_ result: CommandResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }
}

/// The apps the CLI tests run against, on the project's test plugins.
enum CLIFixtures {
    /// Tests/Plugins/SwiftPlugin: completes from another thread; `echo-items`
    /// sets its dynamic items to what it was given; `never` never completes.
    static let swiftApp = TestBundle(
        appID: "org.example.swift", library: "QATestSwiftPlugin", name: "Swift Example", version: "2.1",
        items: [
            TestBundle.item("hello", "Hello", subtitle: "Say hello", iconType: "UIApplicationShortcutIconTypeCompose",
                            userInfo: ["count": 3, "ratio": 0.5, "flag": true, "name": "x"]),
            TestBundle.item("echo-items", "Echo"),
            TestBundle.item("never", "Never completes"),
        ],
        strings: ["de": "\"Hello\" = \"Hallo\";\n\"Say hello\" = \"Sag hallo\";\n"])

    /// Tests/Plugins/CPlugin: `succeed` and `fail`.
    static let cApp = TestBundle(
        appID: "org.example.c", library: "QATestCPlugin", name: "C Example", version: "1.0",
        items: [TestBundle.item("succeed", "Succeed"), TestBundle.item("fail", "Fail")])

    /// A plugin whose init fails.
    static let brokenApp = TestBundle(
        appID: "org.example.broken", library: "QATestInitFails", name: "Broken",
        items: [TestBundle.item("hello", "Never loads")])
}

extension CommandResult {
    /// stderr's lines.
    var stderrLines: [Substring] { stderr.split(separator: "\n") }
}
