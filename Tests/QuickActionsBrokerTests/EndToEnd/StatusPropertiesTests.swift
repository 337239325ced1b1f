import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// The read-only status properties (quickactions status reads them), as
/// busctl and a D-Bus client see them.
@Suite struct StatusPropertiesTests {
    static let properties: InterfaceName = "org.freedesktop.DBus.Properties"

    static func get(_ client: Connection, _ path: ObjectPath, _ interface: String, _ name: String) async throws -> Value {
        let reply = try await client.call(destination: PerformTests.broker, path: path, interface: properties,
                                          member: "Get", [.string(interface), .string(name)])
        return try #require(reply.first).unwrappedVariant
    }

    @Test func theRootHasThePIDStartTimeAndThePluginFoldersInSearchOrder() async throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        let scratch = try TemporaryDirectory.make(prefix: "qa-status")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let missing = scratch.appendingPathComponent("not-there").path
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp], arguments: ["--plugins", missing])
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let root = PerformTests.root
        let interface = "org.quickactions.Broker1"
        let pid = try #require(harness.process.pid)
        #expect(try await Self.get(client, root, interface, "PID") == .uint32(UInt32(pid)))
        let start = try #require(try await Self.get(client, root, interface, "StartTime").uint64)
        let after = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        #expect(start >= before - 1_000_000 && start <= after, "StartTime \(start) not within \(before)...\(after)")
        #expect(try await Self.get(client, root, interface, "PluginDirectories")
            == .array(.string, [.string(harness.pluginDirectory.path), .string(missing)]))
        #expect(try await Self.get(client, root, interface, "MissingPluginDirectories") == .array(.string, [.string(missing)]))
        // busctl, as a user would read one.
        let busctl = try await harness.busctl(["get-property", BrokerHarness.busName, BrokerHarness.rootPath,
                                               BrokerHarness.interface, "PID"])
        #expect(busctl.stdout == "u \(pid)\n", "\(busctl)")
    }

    @Test func aFailedLoadSetsLastLoadErrorWithPropertiesChanged() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp, Fixtures.brokenApp])
        let client = try Connection(.address(harness.bus.address))
        defer { client.close() }
        let broken: ObjectPath = "/org/quickactions/Broker1/apps/org_2eexample_2ebroken"
        let swift: ObjectPath = "/org/quickactions/Broker1/apps/org_2eexample_2eswift"
        let app = "org.quickactions.Application1"
        let changes = AsyncStream<String>.makeStream()
        let subscription = try await client.subscribe(
            MatchRule(path: broken, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        ) { message in
            guard let values = try? message.arguments(), values.count == 3 else { return }
            let changed = values[1].dictionary?.keys.compactMap(\.string) ?? []
            let invalidated = values[2].array?.compactMap(\.string) ?? []
            for name in changed + invalidated { changes.continuation.yield(name) }
        }
        defer { subscription.cancel() }
        #expect(try await Self.get(client, broken, app, "LastLoadError") == .string(""))
        #expect(try await Self.get(client, broken, app, "Quarantined") == .boolean(false))
        #expect(try await Self.get(client, broken, app, "QuarantineReason") == .string(""))
        #expect(try await Self.get(client, broken, app, "BundlePath")
            == .string(harness.pluginDirectory.appendingPathComponent("org.example.broken.bundle").path))

        await #expect(throws: DBusError.self) { _ = try await PerformTests.perform(client, "org.example.broken", "hello") }
        var iterator = changes.stream.makeAsyncIterator()
        var seen: [String] = []
        while !seen.contains("LastLoadError"), let next = await iterator.next() { seen.append(next) }
        let error = try #require(try await Self.get(client, broken, app, "LastLoadError").string)
        #expect(!error.isEmpty)
        #expect(harness.log.contains(error), "the property is what the log says: \(error)")

        // A plugin that loads: no error, and it runs in a host process (HostPID its pid), or in
        // the broker (HostPID 0) when this lane loads plugins in process.
        #expect(try await PerformTests.perform(client, "org.example.swift", "hello").success)
        #expect(try await Self.get(client, swift, app, "LastLoadError") == .string(""))
        #expect(try await Self.get(client, swift, app, "Loaded") == .boolean(true))
        guard case .uint32(let hostPID) = try await Self.get(client, swift, app, "HostPID") else {
            Issue.record("HostPID is not a u")
            return
        }
        if TestPluginHost.mode == "in-process" {
            #expect(hostPID == 0)
        } else {
            #expect(hostPID > 0 && hostPID != UInt32(harness.process.pid ?? 0))
        }
    }
}
