import Foundation
import QuickActionsTestSupport
import Testing

/// Exit 5: no broker on the bus, or no bus at all; the message says which and how to start it.
@Suite("Broker and bus not reachable, end to end")
struct ReachabilityTests {
    static let commands: [[String]] = [
        ["apps"], ["list"], ["list", "org.example.c"], ["invoke", "org.example.c", "succeed"],
        ["pick", "--picker", "cat"], ["watch"], ["forget", "--usage"],
    ]

    @Test("every command exits 5 when the broker is not running, saying how to start it", arguments: commands)
    func brokerNotRunning(_ arguments: [String]) async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        harness.process.stop()
        let result = try await CLIProcess.run(arguments, harness, timeout: .seconds(30))
        #expect(result.status == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "quickactions: the broker (org.quickactions.Broker1) is not running on the session bus; "
            + "start it with 'systemctl --user start quickactionsd' or run 'quickactionsd'\n")
    }

    @Test("a failed D-Bus activation is exit 5 with the bus's reason, not \"not running\"", arguments: [
        ("/bin/false", "org.freedesktop.DBus.Error.Spawn.ChildExited"),
        ("/nonexistent/qa-quickactionsd", "org.freedesktop.DBus.Error.Spawn.ExecFailed"),
    ])
    func activationFails(_ exec: String, _ name: String) async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        try """
            [D-BUS Service]
            Name=\(BrokerHarness.busName)
            Exec=\(exec)
            """.write(to: bus.serviceDirectory.appendingPathComponent("\(BrokerHarness.busName).service"),
                      atomically: true, encoding: .utf8)
        let result = try await CLIProcess.run(
            ["apps", "--json"], nil, environment: bus.environment(), timeout: .seconds(60))
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.contains("could not start the broker (org.quickactions.Broker1) by D-Bus activation"),
                "\(result)")
        #expect(result.stderr.contains("(\(name))"), "\(result)")
        #expect(!result.stderr.contains("is not running"), "\(result)")
        let error = try JSONErrorTests.error(result)
        #expect(error.name == name)
    }

    @Test("with --address, the message names that bus and the matching start command")
    func brokerNotRunningAtAddress() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        harness.process.stop()
        let result = try await CLIProcess.run(["--address", harness.bus.address, "apps"], harness)
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.contains("is not running on the bus at \(harness.bus.address); "
            + "start it with 'quickactionsd --address \(harness.bus.address)'"))
    }

    @Test("a bus that cannot be reached exits 5, naming the bus", arguments: [
        (["--address", "unix:path=/nonexistent/qa-cli-bus", "apps"], [:], "cannot connect to the bus at unix:path=/nonexistent/qa-cli-bus: "),
        (["apps"], ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/qa-cli-bus"], "cannot connect to the session bus: "),
    ] as [([String], [String: String], String)])
    func busUnreachable(_ arguments: [String], _ environment: [String: String], _ prefix: String) async throws {
        let result = try await CLIProcess.run(arguments, nil, environment: environment)
        #expect(result.status == 5, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("quickactions: " + prefix), "\(result.stderr)")
        #expect(result.stderrLines.count == 1)
    }

    @Test("--system talks to the system bus: no broker (or no bus) there exits 5 naming it")
    func systemBus() async throws {
        let result = try await CLIProcess.run(["--system", "apps"], nil)
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.contains("system bus"), "\(result.stderr)")
    }
}
