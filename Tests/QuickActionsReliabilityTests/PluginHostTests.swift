import DBus
import Foundation
import Glibc
import Locking
import QuickActionsTestSupport
import Testing

/// Each app's plugin in a host process of its own (issue 14): a crash, a blocked plugin or a
/// library overwritten in place costs only that app; the broker keeps its PID and its name;
/// quarantine counts only deaths of hosts; hosts end when idle, when the broker stops or dies.
@Suite struct PluginHostTests {
    static let crasher = "org.example.crasher"

    static func crashApp(_ appID: String = crasher) -> TestBundle {
        TestBundle(appID: appID, library: "QATestCrashPlugin", name: "Crash",
                   items: [TestBundle.item("crash", "Crash"), TestBundle.item("alive", "Alive")])
    }

    /// The process ids of the broker's plugin hosts, from /proc (children running quickactions-host).
    static func hosts(of broker: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            let ppid = status.split(separator: "\n").first { $0.hasPrefix("PPid:") }?.split(separator: "\t").last
            let name = status.split(separator: "\n").first { $0.hasPrefix("Name:") } ?? ""
            return ppid.map(String.init) == String(broker) && name.contains("quickactions-ho")
        }
    }

    /// How a host that dereferenced NULL ended: by SIGSEGV; under a sanitizer, which catches the
    /// signal and reports it, by the sanitizer's exit status.
    static var segfault: String {
        ProcessInfo.processInfo.environment["QUICKACTIONS_SANITIZER"] == nil ? "signal 11 (SIGSEGV)" : "exited with status"
    }

    static func isAlive(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return !status.contains("State:\tZ")
    }

    @Test func aSegfaultInPerformFailsOnlyThatAppsCallsWithPluginCrashed() async throws {
        let harness = try await BrokerHarness(bundles: [Self.crashApp(), Apps.fast("org.example.one"), Apps.fast("org.example.two")],
                                              arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        let brokerPID = try #require(harness.process.pid)
        #expect(try await client.perform(Self.crasher, "alive").success)
        // Two other apps have calls pending while the crasher crashes.
        let held = (0..<4).map { index in
            Task { try await client.perform(index % 2 == 0 ? "org.example.one" : "org.example.two", "hold") }
        }
        #expect(try await client.waitForPending(4) == 4)
        let crashed = await #expect(throws: DBusError.self) { try await client.perform(Self.crasher, "crash") }
        #expect(crashed?.name.rawValue == "org.quickactions.Error.PluginCrashed", "\(String(describing: crashed))")
        #expect(crashed?.message.contains(Self.crasher) == true)
        #expect(crashed?.message.contains(Self.segfault) == true, "\(String(describing: crashed))")
        #expect(crashed?.message.contains("libQATestCrashPlugin.so") == true)
        // The others complete normally, the broker is the same process and still owns its name.
        for app in ["org.example.one", "org.example.two"] {
            #expect(try await client.perform(app, "release").success)
        }
        for call in held { #expect(try await call.value.success) }
        #expect(harness.process.pid == brokerPID && harness.process.isRunning)
        #expect(try await client.applicationIDs().count == 3)
        // The next Perform starts a new host: a launch.
        let again = try await client.perform(Self.crasher, "alive")
        #expect(again.result["activation"] == .string("launch"))
        #expect(harness.log.contains(Self.segfault), "\(harness.log)")
    }

    @Test func threeCrashesQuarantineUntilTheLibraryIsReplaced() async throws {
        let harness = try await BrokerHarness(bundles: [Self.crashApp()], arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        for round in 1...3 {
            let error = await #expect(throws: DBusError.self) { try await client.perform(Self.crasher, "crash") }
            #expect(error?.name.rawValue == "org.quickactions.Error.PluginCrashed", "round \(round)")
        }
        let refused = await #expect(throws: DBusError.self) { try await client.perform(Self.crasher, "alive") }
        #expect(refused?.name.rawValue == "org.quickactions.Error.PluginFailed")
        #expect(refused?.message.contains("quarantined") == true && refused?.message.contains("replace") == true,
                "\(String(describing: refused))")
        // Replacing the file (a new inode, as `install` does) lifts it.
        let library = harness.pluginDirectory.appendingPathComponent("\(Self.crasher).bundle/libQATestCrashPlugin.so")
        let copy = library.deletingLastPathComponent().appendingPathComponent("new.so")
        try FileManager.default.copyItem(at: library, to: copy)
        _ = rename(copy.path, library.path)
        _ = try await client.call("Reload")
        #expect(try await client.perform(Self.crasher, "alive").success)
    }

    @Test func aKilledBrokerNeverCountsAgainstAPlugin() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.busy")], arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        for _ in 0..<3 {
            let client = try BrokerClient(harness)
            _ = try await client.perform("org.example.busy", "fast")
            // Calls in flight while the broker is killed from outside.
            for _ in 0..<20 {
                client.connection.call(try BrokerClient.performMessage("org.example.busy", "hold"), timeout: .seconds(30)) { _ in }
            }
            _ = try await client.waitForPending(20)
            try await harness.restart(killing: true)
        }
        let client = try BrokerClient(harness)
        let answer = try await client.perform("org.example.busy", "fast")
        #expect(answer.success)
        #expect(!harness.log.contains("quarantined until"), "\(harness.log)")
    }

    @Test func twoBundlesSharingAHardLinkedLibraryBothWork() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.first"), Apps.fast("org.example.second")], arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let first = harness.pluginDirectory.appendingPathComponent("org.example.first.bundle/libQATestFast.so")
        let second = harness.pluginDirectory.appendingPathComponent("org.example.second.bundle/libQATestFast.so")
        try FileManager.default.removeItem(at: second)
        #expect(link(first.path, second.path) == 0)
        let client = try BrokerClient(harness)
        _ = try await client.call("Reload")
        for app in ["org.example.first", "org.example.second", "org.example.first", "org.example.second"] {
            let answer = try await client.perform(app, "fast")
            #expect(answer.success, "\(app)")
        }
        let brokerPID = try #require(harness.process.pid)
        #expect(Self.hosts(of: brokerPID).count == 2)
    }

    @Test func aLibraryOverwrittenInPlaceCostsOnlyItsApp() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.swift, Apps.fast("org.example.bystander")], arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        #expect(try await client.perform("org.example.swift", "hello").success)
        #expect(try await client.perform("org.example.bystander", "fast").success)
        let library = harness.pluginDirectory.appendingPathComponent("org.example.swift.bundle/libQATestSwiftPlugin.so")
        let other = harness.pluginDirectory.appendingPathComponent("org.example.bystander.bundle/libQATestFast.so")
        // `cp` over the mapped file: the same inode, new bytes under the running host.
        let result = try await Command.run("cp", [other.path, library.path])
        #expect(result.status == 0)
        for _ in 0..<3 {
            _ = try? await client.perform("org.example.swift", "hello")
        }
        #expect(harness.process.isRunning)
        #expect(try await client.perform("org.example.bystander", "fast").success)
        #expect(try await client.applicationIDs().count == 2)
    }

    @Test func anIdleHostEndsAndTheNextPerformIsALaunch() async throws {
        // Long enough for two calls in a row even under a sanitizer.
        let idle = 2 * Scale.timeScale
        let harness = try await BrokerHarness(bundles: [Apps.c], arguments: TestPluginHost.hostsOnly + ["--host-idle-seconds", "\(idle)"])
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        let brokerPID = try #require(harness.process.pid)
        #expect(try await client.perform("org.example.c", "succeed").result["activation"] == .string("launch"))
        #expect(try await client.perform("org.example.c", "succeed").result["activation"] == .string("resume"))
        #expect(Self.hosts(of: brokerPID).count == 1)
        #expect(await eventually(.seconds(Int64(idle) + 30)) { Self.hosts(of: brokerPID).isEmpty },
                "the idle host ended: \(harness.log)")
        #expect(harness.log.contains("had no calls for \(idle) s"))
        #expect(try await client.perform("org.example.c", "succeed").result["activation"] == .string("launch"))
    }

    @Test func stoppingTheBrokerStopsBusyHostsWithinTheBound() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.fast("org.example.busy"), Apps.c], arguments: TestPluginHost.hostsOnly)
        let client = try BrokerClient(harness)
        let brokerPID = try #require(harness.process.pid)
        _ = try await client.perform("org.example.busy", "fast")
        _ = try await client.perform("org.example.c", "succeed")
        for _ in 0..<10 {
            client.connection.call(try BrokerClient.performMessage("org.example.busy", "never"), timeout: .seconds(30)) { _ in }
        }
        _ = try await client.waitForPending(10)
        let hosts = Self.hosts(of: brokerPID)
        #expect(hosts.count == 2)
        let started = ContinuousClock.now
        harness.process.signal(SIGTERM)
        harness.process.waitForExit()
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(harness.process.exitStatus == 0)
        #expect(await eventually { hosts.allSatisfy { !Self.isAlive($0) } })
        #expect(harness.log.contains("fast: will-resign"), "\(harness.log)")
        harness.stop()
    }

    @Test func anAppWhoseBundleGoesAwayHasItsHostStopped() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.c, Apps.fast("org.example.stays")], arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        let brokerPID = try #require(harness.process.pid)
        _ = try await client.perform("org.example.c", "succeed")
        _ = try await client.perform("org.example.stays", "fast")
        #expect(Self.hosts(of: brokerPID).count == 2)
        try FileManager.default.removeItem(at: harness.pluginDirectory.appendingPathComponent("org.example.c.bundle"))
        _ = try await client.call("Reload")
        #expect(await eventually { Self.hosts(of: brokerPID).count == 1 }, "\(harness.log)")
        #expect(try await client.perform("org.example.stays", "fast").success)
    }

    @Test func aHostWhoseBrokerIsKilledEnds() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.c], arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        _ = try await client.perform("org.example.c", "succeed")
        let brokerPID = try #require(harness.process.pid)
        let hosts = Self.hosts(of: brokerPID)
        #expect(hosts.count == 1)
        harness.process.signal(SIGKILL)
        harness.process.waitForExit()
        #expect(await eventually { hosts.allSatisfy { !Self.isAlive($0) } }, "orphaned hosts: \(hosts)")
    }

    @Test func aKilledBrokersSocketFolderIsRemovedByTheNextBroker() async throws {
        let runtime = try TemporaryDirectory.make(prefix: "qa-runtime")
        defer { try? FileManager.default.removeItem(at: runtime) }
        #expect(chmod(runtime.path, 0o700) == 0)
        let harness = try await BrokerHarness(bundles: [Apps.c], arguments: TestPluginHost.hostsOnly,
                                              environment: ["XDG_RUNTIME_DIR": runtime.path])
        defer { harness.stop() }
        var client = try BrokerClient(harness)
        #expect(try await client.perform("org.example.c", "succeed").success)
        let killed = try #require(harness.process.pid)
        let folders = { (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? [] }
        let abandoned = folders().filter { $0.hasPrefix("quickactions-hosts-\(killed)-") }
        #expect(abandoned.count == 1, "\(folders())")
        // Beside it: a folder of a process that still runs (this one), and a dead broker's
        // folder holding something that is not a socket. Both must stay.
        let live = runtime.appendingPathComponent("quickactions-hosts-\(getpid())-live")
        let foreign = runtime.appendingPathComponent("quickactions-hosts-\(killed)-other")
        for folder in [live, foreign] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        }
        #expect(FileManager.default.createFile(atPath: foreign.appendingPathComponent("notes").path, contents: Data("x".utf8)))

        try await harness.restart(killing: true)
        client = try BrokerClient(harness)
        #expect(try await client.perform("org.example.c", "succeed").success)
        let now = folders()
        #expect(!now.contains { abandoned.contains($0) }, "\(now)")
        #expect(now.contains(live.lastPathComponent) && now.contains(foreign.lastPathComponent), "\(now)")
        let successor = try #require(harness.process.pid)
        #expect(now.filter { $0.hasPrefix("quickactions-hosts-\(successor)-") }.count == 1, "\(now)")
        // It says what it removed, and only that.
        let removals = harness.log.split(separator: "\n").filter { $0.contains("host socket folder of a broker that is gone") }
        #expect(removals.count == abandoned.count, "\(harness.log)")
        for name in abandoned {
            #expect(removals.contains { $0.contains(runtime.appendingPathComponent(name).path) }, "\(harness.log)")
        }
    }

    /// The launcher (socket folder, peer server, spawner thread) is made when the broker starts
    /// serving, so the first launch does not pay for it; a broker with every plugin in process
    /// makes none.
    @Test(arguments: [TestPluginHost.hostsOnly, ["--plugin-host", "in-process"]])
    func theSocketFolderIsMadeAtStartOnlyWhenPluginsRunInHosts(arguments: [String]) async throws {
        let runtime = try TemporaryDirectory.make(prefix: "qa-runtime")
        defer { try? FileManager.default.removeItem(at: runtime) }
        #expect(chmod(runtime.path, 0o700) == 0)
        let harness = try await BrokerHarness(bundles: [Apps.c], arguments: arguments,
                                              environment: ["XDG_RUNTIME_DIR": runtime.path])
        defer { harness.stop() }
        let pid = try #require(harness.process.pid)
        let folders = {
            ((try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? [])
                .filter { $0.hasPrefix("quickactions-hosts-\(pid)-") }
        }
        if arguments == TestPluginHost.hostsOnly {
            #expect(await eventually { folders().count == 1 }, "\(folders())")
        } else {
            // Served (a call answered) and still no folder.
            let client = try BrokerClient(harness)
            #expect(try await client.perform("org.example.c", "succeed").success)
            #expect(folders().isEmpty, "\(folders())")
        }
    }

    @Test func aHostInheritsNoDescriptorButItsOwnAndTheEnvironmentItNeeds() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.c], arguments: TestPluginHost.hostsOnly,
                                              environment: ["NOTIFY_SOCKET": "/nonexistent", "MY_SETTING": "kept"])
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        _ = try await client.perform("org.example.c", "succeed")
        let brokerPID = try #require(harness.process.pid)
        let host = try #require(Self.hosts(of: brokerPID).first)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(host)/fd").compactMap { Int($0) }.sorted()
        // stdin, stdout, stderr and its own: the connection's socket, epoll and eventfd, and the
        // plugin library it checked and loaded through its descriptor.
        let extra = descriptors.filter { $0 > 2 }.map { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(host)/fd/\(fd)")) ?? "?"
        }
        #expect(extra.allSatisfy { $0.hasPrefix("socket:") || $0.hasPrefix("anon_inode:") || $0.hasSuffix("/libQATestCPlugin.so") },
                "\(extra)")
        #expect(extra.count <= 4, "\(extra)")
        let environment = try String(contentsOfFile: "/proc/\(host)/environ", encoding: .utf8).split(separator: "\0")
        #expect(environment.contains("MY_SETTING=kept"))
        #expect(environment.contains("SWIFT_BACKTRACE=enable=no"))
        #expect(!environment.contains { $0.hasPrefix("NOTIFY_SOCKET=") })
    }

    @Test func aHostsStandardErrorReachesTheBrokersLogWithTheAppID() async throws {
        let harness = try await BrokerHarness(bundles: [Apps.c], arguments: TestPluginHost.hostsOnly)
        defer { harness.stop() }
        let client = try BrokerClient(harness)
        _ = try await client.perform("org.example.c", "succeed")
        // The C plugin logs "c-plugin: init" through the host table; the loader's line about
        // loading comes from the host process too.
        #expect(await eventually { harness.log.contains("org.example.c: c-plugin: init") }, "\(harness.log)")
        #expect(harness.log.contains("in its plugin host, pid"))
    }
}
