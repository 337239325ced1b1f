import Foundation
import QuickActionsTestSupport
import Testing

/// D-Bus activation of org.quickactions.Search1, as a desktop shell's first call does it: one
/// quickactionsd starts and owns both the broker's name and the bridges'.
@Suite struct ActivationTests {
    static func pid(of name: String, bus: TestBus) async throws -> Int? {
        let result = try await Command.run("busctl", ["--address=\(bus.address)", "--json=short", "call", "org.freedesktop.DBus",
                                                      "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "GetConnectionUnixProcessID", "s", name])
        let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["data"] as? [Any])?.first as? Int
    }

    @Test func aShellsFirstCallStartsOneQuickactionsdForBothNames() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let plugins = bus.directory.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try TestApps.cApp.write(into: plugins)
        let exec = "/usr/bin/env SWIFT_BACKTRACE=enable=no \(PackagePaths.executable("quickactionsd").path) "
            + "--plugins \(plugins.path) --state-dir \(bus.directory.appendingPathComponent("state").path)"
        // As make install puts them: the same Exec for both names.
        for name in ["org.quickactions.Broker1", SearchBroker.search] {
            try "[D-BUS Service]\nName=\(name)\nExec=\(exec)\n"
                .write(to: bus.serviceDirectory.appendingPathComponent("\(name).service"), atomically: true, encoding: .utf8)
        }
        #expect(try await Self.pid(of: SearchBroker.search, bus: bus) == nil, "nothing runs before the first call")
        let matched = try await Command.run("gdbus", ["call", "--address", bus.address, "--dest", SearchBroker.search,
                                                      "--object-path", SearchBroker.krunnerPath, "--method",
                                                      "org.kde.krunner1.Match", "succ"], timeout: .seconds(60))
        #expect(matched.status == 0 && matched.stdout.contains("'org.example.c/succeed', 'Succeed'"), "\(matched)")
        let search = try await Self.pid(of: SearchBroker.search, bus: bus)
        let broker = try await Self.pid(of: "org.quickactions.Broker1", bus: bus)
        #expect(search != nil && search == broker, "one process owns both names: \(String(describing: search)) \(String(describing: broker))")
        // A later call to the broker's name starts nothing new.
        let listed = try await Command.run("busctl", ["--address=\(bus.address)", "call", "org.quickactions.Broker1",
                                                      "/org/quickactions/Broker1", "org.quickactions.Broker1", "ListApplications"])
        #expect(listed.status == 0, "\(listed)")
        #expect(try await Self.pid(of: "org.quickactions.Broker1", bus: bus) == broker)
        if let broker { kill(pid_t(broker), SIGTERM) }
    }
}
