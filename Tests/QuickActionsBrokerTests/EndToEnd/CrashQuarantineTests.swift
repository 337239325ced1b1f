import DBus
import Foundation
import Glibc
import QuickActionsTestSupport
import Testing

/// A plugin that crashes the broker: D-Bus activation brings the broker
/// back, stored items survive, and after three crashes the plugin is
/// quarantined until its library changes.
@Suite struct CrashQuarantineTests {
    static let crashApp = TestBundle(
        appID: "org.example.crash", library: "QATestCrashPlugin", name: "Crashes",
        items: [TestBundle.item("crash", "Crash"), TestBundle.item("hello", "Hello")])

    @Test func aCrashingPluginIsQuarantinedAfterThreeCrashes() async throws {
        let broker = try await ActivatableBroker(bundles: [Fixtures.swiftApp, Self.crashApp])
        defer { broker.stop() }
        let crashBundle = broker.pluginDirectory.appendingPathComponent("\(Self.crashApp.appID).bundle")
        func call(_ arguments: [String]) async throws -> CommandResult {
            try await broker.call(arguments[0], arguments.count > 1 ? arguments[1] : "", Array(arguments.dropFirst(2)))
        }

        let stored = try BusctlReply(try await call(["Perform", "ssa{sv}", "org.example.swift", "echo-items", "0"]))
        #expect(stored.data.first as? Bool == true)

        for attempt in 1...3 {
            let crashed = try await call(["Perform", "ssa{sv}", "org.example.crash", "crash", "0"])
            #expect(crashed.status != 0, "attempt \(attempt): \(crashed)")
        }
        let refused = try await call(["Perform", "ssa{sv}", "org.example.crash", "hello", "0"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("quarantined"), "\(refused)")
        #expect(refused.stderr.contains("3 times"))
        // The status properties say so.
        func property(_ name: String) async throws -> String {
            try await Command.run("busctl", [
                "--address=\(broker.bus.address)", "get-property", BrokerHarness.busName,
                "/org/quickactions/Broker1/apps/org_2eexample_2ecrash", "org.quickactions.Application1", name,
            ]).stdout
        }
        #expect(try await property("Quarantined") == "b true\n")
        #expect(try await property("QuarantineReason").contains("crashed the broker 3 times"))

        // Stored dynamic items came through every crash.
        let items = try BusctlReply(try await call(["GetItems", "sa{sv}", "org.example.swift", "0"]))
        let dynamic = (items.data.first as? [Any] ?? []).compactMap(ItemJSON.init).filter { $0.string("origin") == "dynamic" }
        #expect(dynamic.map { $0.string("type") } == ["echo-items", "arguments"])

        // A new library file lifts the quarantine, announced with PropertiesChanged.
        let client = try Connection(.address(broker.bus.address))
        defer { client.close() }
        let announced = ChangedNames()
        let subscription = try await client.subscribe(MatchRule(
            path: "/org/quickactions/Broker1/apps/org_2eexample_2ecrash", interface: "org.freedesktop.DBus.Properties",
            member: "PropertiesChanged")
        ) { message in
            guard let values = try? message.arguments(), values.count == 3 else { return }
            announced.add((values[1].dictionary?.keys.compactMap(\.string) ?? []) + (values[2].array?.compactMap(\.string) ?? []))
        }
        defer { subscription.cancel() }
        let library = crashBundle.appendingPathComponent(Self.crashApp.executable)
        let copy = crashBundle.appendingPathComponent("replacement.so")
        try FileManager.default.copyItem(at: library, to: copy)
        #expect(rename(copy.path, library.path) == 0)
        _ = try await call(["Reload"])
        #expect(await eventually { announced.names.contains("Quarantined") }, "no PropertiesChanged: \(announced.names)")
        #expect(announced.names.contains("QuarantineReason"))
        let alive = try BusctlReply(try await call(["Perform", "ssa{sv}", "org.example.crash", "hello", "0"]))
        #expect(alive.data.first as? Bool == true)
        #expect(try await property("Quarantined") == "b false\n")
        #expect(try await property("QuarantineReason") == "s \"\"\n")
    }
}

/// Property names seen in PropertiesChanged, from the client's loop thread.
final class ChangedNames: @unchecked Sendable {
    // @unchecked Sendable: `seen` is only touched under `lock`.
    private let lock = NSLock()
    private var seen: [String] = []

    func add(_ names: [String]) {
        lock.lock()
        defer { lock.unlock() }
        seen += names
    }

    var names: [String] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
