import Foundation
import QuickActionsTestSupport
import Testing

/// quickactionsd with a bad `$XDG_CONFIG_HOME/quickactions/quickactionsd.conf` (issue 33)
/// refuses to start: exit status 2 (a usage error) and one stderr line naming the file and
/// the line. It stops before any bus: the address given leads nowhere.
@Suite struct SettingsFileStartTests {
    static let cases: [(String, text: String, line: Int, fragment: String)] = [
        ("bad bool", "[Providers]\nmedia-players=maybe\n", 2, "the value must be true or false"),
        ("unknown group", "# mine\n\n[Weather]\n", 3, "unknown group"),
        ("key before group", "limit=3\n", 1, "a key before any [Group]"),
        ("10 KiB garbage", "[Providers]\n" + String(repeating: "garbage ", count: 1280) + "\n", 2, "expected key=value"),
    ]

    @Test(arguments: cases)
    func aBadSettingsLineStopsTheStartNamingFileAndLine(_ name: String, text: String, line: Int, fragment: String) async throws {
        let config = try TemporaryDirectory.make(prefix: "qa-settings-start")
        defer { try? FileManager.default.removeItem(at: config) }
        let folder = config.appendingPathComponent("quickactions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("quickactionsd.conf")
        try Data(text.utf8).write(to: file)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        environment["HOME"] = config.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(config.path)/no-bus"
        environment.removeValue(forKey: "QUICKACTIONS_PROVIDERS")
        let result = try await Command.run(
            PackagePaths.executable("quickactionsd").path,
            ["--address", "unix:path=\(config.path)/no-bus", "--state-dir", config.appendingPathComponent("state").path],
            environment: environment, timeout: .seconds(30))
        #expect(result.status == 2, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr.prefix(2000))")
        #expect(lines.first?.hasPrefix("quickactionsd: \(file.path):\(line): \(fragment)") == true, "\(result.stderr.prefix(2000))")
        #expect(result.stderr.utf8.count < 500, "a bounded prefix of the line: \(result.stderr.utf8.count) bytes")
        #expect(result.stdout.isEmpty)
    }

    @Test func aGoodSettingsFileWithAFlagOverItStarts() async throws {
        let world = try DesktopWorld(prefix: "qa-settings-good")
        defer { world.remove() }
        let folder = world.configHome.appendingPathComponent("quickactions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("[Providers]\r\nrecent-documents=false\r\n".utf8).write(to: folder.appendingPathComponent("quickactionsd.conf"))
        let harness = try await BrokerHarness(arguments: ["--no-media-players"], environment: world.environment())
        defer { harness.stop() }
        let status = try await harness.busctl(["get-property", BrokerHarness.busName, BrokerHarness.rootPath,
                                               BrokerHarness.interface, "Providers"])
        #expect(status.stdout.contains("desktop-actions") && !status.stdout.contains("recent-documents")
                && !status.stdout.contains("media-players"), "\(status)")
    }
}
