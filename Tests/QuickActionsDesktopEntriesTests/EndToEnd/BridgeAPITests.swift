import DBus
import Foundation
import Locking
import QuickActionsDesktopEntries
import QuickActionsTestSupport
import Testing

/// The bridge as a library: what it tells the search bridge (which entry serves an app, and
/// whether it carries the items) and its change callback, against a real broker whose own
/// bridge is off.
@Suite struct BridgeAPITests {
    @Test func tellsWhichEntryServesEachAppAndCallsBackWhenThatChanges() async throws {
        let root = try TemporaryDirectory.make(prefix: "qa-bridge")
        defer { try? FileManager.default.removeItem(at: root) }
        let system = root.appendingPathComponent("system/applications")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try DesktopBroker.original(name: "Titles").write(to: system.appendingPathComponent("org.example.TitlesApp.desktop"), atomically: true, encoding: .utf8)
        try DesktopBroker.original(name: "Swift", extra: "DBusActivatable=true")
            .write(to: system.appendingPathComponent("org.example.swift.desktop"), atomically: true, encoding: .utf8)
        let swiftApp = TestBundle(appID: "org.example.swift", library: "QATestSwiftPlugin", items: [TestBundle.item("hello", "Hello")])
        let harness = try await BrokerHarness(
            bundles: [DesktopBroker.titlesBundle(desktopEntry: "org.example.TitlesApp"), swiftApp], arguments: ["--no-desktop-entries"])
        defer { harness.stop() }

        let directories = DataDirectories(home: root.appendingPathComponent("home").path, system: [root.appendingPathComponent("system").path])
        let messages = Locked<[String]>([])
        let bridge = try DesktopEntryBridge(configuration: BridgeConfiguration(
            bus: .address(harness.bus.address), directories: directories, command: "true",
            log: { message in messages.withLock { $0.append(message) } }))
        let changes = Locked(0)
        bridge.onChange { changes.withLock { $0 += 1 } }
        try await bridge.start()
        defer { bridge.stop() }

        try await Self.waitUntil("the first sync") { changes.withLock { $0 } >= 1 }
        #expect(try #require(bridge.desktopEntry(forApp: DesktopBroker.titles)) == ("org.example.TitlesApp.desktop", true))
        #expect(try #require(bridge.desktopEntry(forApp: "org.example.swift")) == ("org.example.swift.desktop", false))
        #expect(bridge.desktopEntry(forApp: "org.example.unknown") == nil)
        #expect(messages.withLock { $0 }.contains { $0.contains("DBusActivatable=true") })

        // The original goes: the copy goes, the answer changes, the callback says so.
        let before = changes.withLock { $0 }
        try FileManager.default.removeItem(at: system.appendingPathComponent("org.example.TitlesApp.desktop"))
        try await Self.waitUntil("the change callback") { changes.withLock { $0 } > before }
        #expect(try #require(bridge.desktopEntry(forApp: DesktopBroker.titles)) == ("org.example.TitlesApp.desktop", false))
        #expect(!FileManager.default.fileExists(atPath: directories.userApplications + "/org.example.TitlesApp.desktop"))

        // A restarted broker is followed: its items changes still reach the entry.
        try DesktopBroker.original(name: "Titles").write(to: system.appendingPathComponent("org.example.TitlesApp.desktop"), atomically: true, encoding: .utf8)
        try await harness.restart()
        let json = String(decoding: try JSONEncoder().encode(["After restart"]), as: UTF8.self)
        let set = try await harness.call("Perform", "ssa{sv}", [DesktopBroker.titles, "set", "1", "arguments", "a{sv}", "1", "titles", "s", json])
        #expect(set.status == 0, "\(set)")
        let copy = directories.userApplications + "/org.example.TitlesApp.desktop"
        // The copy is written before the round that wrote it updates the answers, so the
        // answer is waited for too, not read the moment the file appears.
        try await Self.waitUntil("the entry after the restart") {
            ((try? String(contentsOfFile: copy, encoding: .utf8)) ?? "").contains("Name=After restart")
                && bridge.desktopEntry(forApp: DesktopBroker.titles).map { $0 == ("org.example.TitlesApp.desktop", true) } == true
        }
    }

    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestSupportError("timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

@Suite struct BridgeConfigurationTests {
    @Test(arguments: [("0", true), ("false", true), ("OFF", true), ("no", true), ("1", false), ("", false), ("yes", false)])
    func theEnvironmentSwitch(value: String, off: Bool) {
        #expect(BridgeConfiguration.isDisabled(environment: ["QUICKACTIONS_DESKTOP_ENTRIES": value]) == off)
    }

    @Test func withoutTheVariableItIsOn() {
        #expect(BridgeConfiguration.isDisabled(environment: [:]) == false)
    }

    @Test func theCommandIsTheOverrideElseBesideTheExecutableElsePath() {
        #expect(BridgeConfiguration.defaultCommand(environment: ["QUICKACTIONS_CLI": "/opt/qa/bin/quickactions"]) == "/opt/qa/bin/quickactions")
        // The test runner is in the build folder, beside the built quickactions.
        let beside = BridgeConfiguration.defaultCommand(environment: [:])
        #expect(beside == PackagePaths.executable("quickactions").path)
        #expect(BridgeConfiguration.defaultCommand(environment: ["QUICKACTIONS_CLI": "/a=b/quickactions"]) == beside,
                "a program with '=' cannot be named in Exec")
    }
}
