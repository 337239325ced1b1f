import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// get_dynamic_items (ABI 1.1) and the SDK's `host.shortcutItems` getter:
/// a plugin reads back, at init, the dynamic items the broker stored before
/// it restarted.
@Suite struct StoredItemsReadBackTests {
    static let cApp = TestBundle(
        appID: "org.example.c", library: "QATestCPlugin", name: "C Example",
        items: [TestBundle.item("items-ok", "Set items"), TestBundle.item("stored", "Stored")])

    static let swiftApp = TestBundle(
        appID: "org.example.swift", library: "QATestSwiftPlugin", name: "Swift Example",
        items: [TestBundle.item("echo-items", "Echo"), TestBundle.item("stored", "Stored")])

    static func message(_ client: Connection, _ app: String, _ type: String) async throws -> String {
        let (success, result) = try await PerformTests.perform(client, app, type)
        #expect(success, "\(type): \(result)")
        return result["message"]?.string ?? ""
    }

    @Test(arguments: [
        ("org.example.c", "items-ok", "stored at init: 0:", "stored at init: 2: c.first(-),c.second(-)"),
        ("org.example.swift", "echo-items", "stored at init: ", "stored at init: echo-items(-),arguments(-)"),
    ])
    func aRestartedPluginReadsItsStoredItemsBackAtInit(
        _ app: String, _ setter: String, _ before: String, _ after: String
    ) async throws {
        let harness = try await BrokerHarness(bundles: [Self.cApp, Self.swiftApp])
        // The C plugin's second item has the icon file icons/second.png, which must exist.
        let icons = harness.pluginDirectory.appendingPathComponent("org.example.c.bundle/icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        try Data().write(to: icons.appendingPathComponent("second.png"))
        var client = try Connection(.address(harness.bus.address))
        #expect(try await Self.message(client, app, "stored") == before, "nothing stored yet")
        _ = try await Self.message(client, app, setter)
        client.close()

        // Killed, so will-resign (which sets "resigned") does not replace the list first.
        try await harness.restart(killing: true)
        client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let read = try await Self.message(client, app, "stored")
        #expect(read == after, "log: \(harness.log)")
    }
}
