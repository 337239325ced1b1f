import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// The daemon's life: restarts, persistence, hot-add and -remove, activation,
/// --replace, SIGTERM and losing the bus.
@Suite struct LifecycleTests {
    static func items(_ harness: BrokerHarness, locale: String = "C") async throws -> [ItemJSON] {
        let reply = try BusctlReply(try await harness.call("GetItems", "sa{sv}", ["org.example.swift", "1", "locale", "s", locale]))
        return (reply.data.first as? [Any] ?? []).compactMap(ItemJSON.init)
    }

    static func appIDs(_ harness: BrokerHarness) async throws -> [String] {
        let reply = try BusctlReply(try await harness.call("ListApplications"))
        return (reply.data.first as? [[Any]] ?? []).compactMap { $0.first as? String }
    }

    @Test func dynamicItemsSurviveARestartAndAreListedBeforeLoading() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        _ = try BusctlReply(try await harness.call("Perform", "ssa{sv}", [
            "org.example.swift", "echo-items", "1", "activation-token", "s", "kept"]))
        // Killed, as in a crash: no will-resign replaces the items.
        try await harness.restart(killing: true)
        let items = try await Self.items(harness)
        #expect(items.filter { $0.string("origin") == "dynamic" }.map { $0.string("type") } == ["echo-items", "arguments"])
        #expect(items.last?.string("title") == "kept")
        let loaded = try await harness.busctl(["get-property", BrokerHarness.busName,
                                               "/org/quickactions/Broker1/apps/org_2eexample_2eswift",
                                               "org.quickactions.Application1", "Loaded"])
        #expect(loaded.stdout.contains("b false"))
    }

    @Test func sigtermCallsWillResignSavesItsItemsAndExitsCleanly() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        _ = try BusctlReply(try await harness.call("Perform", "ssa{sv}", ["org.example.swift", "hello", "0"]))
        harness.process.signal(SIGTERM)
        #expect(harness.process.waitForExit(timeout: .seconds(15)) == 0, "\(harness.log)")
        #expect(harness.log.contains("stopped"))
        #expect(!harness.log.contains("another broker took"), "its own ReleaseName is no replacement: \(harness.log)")
        try await harness.restart()
        let items = try await Self.items(harness)
        #expect(items.last?.string("type") == "resigned")
        #expect(items.last?.string("origin") == "dynamic")
        #expect(items.last?.string("icon") == "emblem-favorite")
    }

    @Test func bundlesAddedEditedAndRemovedArePickedUpWithoutARestart() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let client = try Connection(.address(harness.bus.address))
        let events = Outcomes()
        let rootSignals = try await client.subscribe(MatchRule(path: "/org/quickactions/Broker1")) { message in
            events.record(message.member?.rawValue ?? "")
        }
        /// Whether `member` arrives within ten seconds (bounded: a lost signal fails, never hangs).
        func next(_ member: String) async -> Bool {
            await eventually { events.names.contains(member) }
        }

        try Fixtures.cApp.write(into: harness.pluginDirectory)
        #expect(await next("InterfacesAdded"))
        #expect(await next("ApplicationsChanged"))
        #expect(try await Self.appIDs(harness) == ["org.example.c", "org.example.swift"])

        // An edited manifest shows at once.
        var edited = Fixtures.swiftApp
        edited.items[0] = TestBundle.item("hello", "Hello again")
        try edited.write(into: harness.pluginDirectory)
        #expect(await eventually { (try? await Self.items(harness).first?.string("title")) == "Hello again" })

        // A removed app disappears from the API; its stored items stay on disk
        // (issue 13: only the retention rule or ForgetApplication removes them).
        _ = try BusctlReply(try await harness.call("Perform", "ssa{sv}", ["org.example.swift", "echo-items", "0"]))
        let stored = harness.stateDirectory.appendingPathComponent("org.example.swift.items")
        #expect(FileManager.default.fileExists(atPath: stored.path))
        try FileManager.default.removeItem(at: harness.pluginDirectory.appendingPathComponent("org.example.swift.bundle"))
        #expect(await next("InterfacesRemoved"))
        #expect(try await Self.appIDs(harness) == ["org.example.c"])
        let bytes = try Data(contentsOf: stored)
        let gone = try await harness.call("GetItems", "sa{sv}", ["org.example.swift", "0"])
        #expect(gone.status != 0)
        try edited.write(into: harness.pluginDirectory)
        #expect(await eventually { (try? await Self.appIDs(harness)) == ["org.example.c", "org.example.swift"] })
        let dynamic = try await Self.items(harness).filter { $0.string("origin") == "dynamic" }
        #expect(dynamic.map { $0.string("type") } == ["echo-items", "arguments"], "the stored items come back with the bundle")
        #expect(try Data(contentsOf: stored) == bytes)
        rootSignals.cancel()
    }

    @Test func reloadPicksUpChangesWhenAsked() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp], arguments: [])
        try Fixtures.cApp.write(into: harness.pluginDirectory)
        _ = try await harness.call("Reload")
        #expect(try await Self.appIDs(harness) == ["org.example.c", "org.example.swift"])
    }

    @Test func aSecondBrokerExitsUnlessItReplacesTheFirst() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        let refused = try await Command.run(PackagePaths.executable("quickactionsd").path, harness.arguments,
                                            environment: harness.bus.environment(), timeout: .seconds(30))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("already owned"), "\(refused)")
        #expect(refused.stderr.contains("--replace"))

        let replacement = try ManagedProcess(PackagePaths.executable("quickactionsd").path, harness.arguments + ["--replace"],
                                             environment: harness.bus.environment(), directory: harness.directory,
                                             name: "replacement")
        defer { replacement.stop() }
        #expect(harness.process.waitForExit(timeout: .seconds(15)) == 0, "\(harness.log)")
        #expect(harness.log.contains("another broker took"))
        let status = try await harness.busctl(["status", BrokerHarness.busName])
        #expect(status.stdout.contains("PID=\(replacement.pid ?? -1)"), "\(status)")
    }

    @Test func losingTheBusEndsTheBrokerWithAFailureStatus() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        harness.bus.stop()
        #expect(harness.process.waitForExit(timeout: .seconds(15)) == 1, "\(harness.log)")
        #expect(harness.log.contains("lost the bus"), "\(harness.log)")
    }

    @Test func aCallToTheNameStartsTheBrokerByActivation() async throws {
        let broker = try await ActivatableBroker(bundles: [Fixtures.swiftApp])
        defer { broker.stop() }
        let before = try await Command.run("busctl", ["--address=\(broker.bus.address)", "status", BrokerHarness.busName])
        #expect(before.status != 0, "nothing owns the name before the first call")
        let reply = try BusctlReply(try await broker.call("ListApplications"))
        #expect((reply.data.first as? [[Any]])?.first?.first as? String == "org.example.swift")
    }

    @Test func introspectionMatchesTheDocumentedContract() async throws {
        let harness = try await BrokerHarness(bundles: [Fixtures.swiftApp])
        for (path, file, interface) in [
            ("/org/quickactions/Broker1", "org.quickactions.Broker1.xml", "org.quickactions.Broker1"),
            ("/org/quickactions/Broker1/apps/org_2eexample_2eswift", "org.quickactions.Application1.xml",
             "org.quickactions.Application1"),
        ] {
            let live = try await Command.run("gdbus", ["introspect", "--address", harness.bus.address, "--dest",
                                                       BrokerHarness.busName, "--object-path", path, "--xml"])
            #expect(live.status == 0, "\(live)")
            let documented = try String(contentsOf: PackagePaths.root.appendingPathComponent("dbus/\(file)"), encoding: .utf8)
            let liveMembers = try IntrospectionSummary(xml: live.stdout).members(of: interface)
            let documentedMembers = try IntrospectionSummary(xml: documented).members(of: interface)
            #expect(!documentedMembers.isEmpty)
            #expect(liveMembers == documentedMembers)
        }
        let tree = try await harness.busctl(["tree", BrokerHarness.busName])
        #expect(tree.stdout.contains("/org/quickactions/Broker1/apps/org_2eexample_2eswift"), "\(tree)")
        let managed = try BusctlReply(try await harness.busctl([
            "--json=short", "call", BrokerHarness.busName, "/org/quickactions/Broker1",
            "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"]))
        let objects = managed.data.first as? [String: Any]
        let app = objects?["/org/quickactions/Broker1/apps/org_2eexample_2eswift"] as? [String: Any]
        let properties = app?["org.quickactions.Application1"] as? [String: Any]
        #expect((properties?["Id"] as? [String: Any])?["data"] as? String == "org.example.swift")
        #expect((properties?["Version"] as? [String: Any])?["data"] as? String == "2.1")
    }
}
