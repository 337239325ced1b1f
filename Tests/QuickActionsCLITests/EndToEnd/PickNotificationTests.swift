import Foundation
import QuickActionsTestSupport
import Testing

/// `pick` bound to a key has no terminal: its result is shown as a desktop
/// notification, to a small python3-dbus org.freedesktop.Notifications server
/// on the private bus that records every Notify it gets.
@Suite("pick notifications, end to end")
struct PickNotificationTests {
    static let server = """
        import json, sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.SessionBus()
        record = open(sys.argv[1], "a")

        class Notifications(dbus.service.Object):
            @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
            def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
                record.write(json.dumps({"app": str(app), "summary": str(summary), "body": str(body),
                                         "urgency": int(hints.get("urgency", -1)), "timeout": int(timeout)}) + "\\n")
                record.flush()
                return dbus.UInt32(1)

            @dbus.service.method("org.freedesktop.Notifications", out_signature="as")
            def GetCapabilities(self):
                return ["body"]

        name = dbus.service.BusName("org.freedesktop.Notifications", bus)
        Notifications(bus, "/org/freedesktop/Notifications")
        GLib.MainLoop().run()
        """

    /// A broker with the C test app and, beside it, the recording notification server.
    final class Setup: Sendable {
        let harness: BrokerHarness
        let server: ManagedProcess
        let record: URL

        init() async throws {
            harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
            let script = harness.directory.appendingPathComponent("notifications.py")
            try Self.sourceText.write(to: script, atomically: true, encoding: .utf8)
            record = harness.directory.appendingPathComponent("notifications.jsonl")
            server = try ManagedProcess("/usr/bin/python3", [script.path, record.path],
                                        environment: harness.bus.environment(), directory: harness.directory,
                                        name: "notifications")
            let owned = try await eventually {
                try await harness.busctl(["status", "org.freedesktop.Notifications"]).status == 0
            }
            try #require(owned, "the notification server did not take its name: \(server.standardError)")
        }

        static var sourceText: String { PickNotificationTests.server }

        deinit {
            server.stop()
            harness.stop()
        }

        /// Every notification received so far.
        func notifications() throws -> [[String: Any]] {
            guard let text = try? String(contentsOf: record, encoding: .utf8) else { return [] }
            return try text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
    }

    @Test("without a terminal, success, the plugin's failure and a failing picker each show one notification")
    func outcomes() async throws {
        let setup = try await Setup()
        let ok = try await CLIProcess.run(["pick", "--picker", "grep Succeed"], setup.harness)
        #expect(ok.status == 0, "\(ok)")
        let failed = try await CLIProcess.run(["pick", "--picker", "grep Fail"], setup.harness)
        #expect(failed.status == 1, "\(failed)")
        let broken = try await CLIProcess.run(["pick", "--picker", "exit 3"], setup.harness)
        #expect(broken.status == 2, "\(broken)")
        let cancelled = try await CLIProcess.run(["pick", "--picker", "false"], setup.harness)
        #expect(cancelled.status == 1, "\(cancelled)")

        let shown = try setup.notifications()
        try #require(shown.count == 3, "a cancel shows nothing; got \(shown)")
        #expect(shown[0]["app"] as? String == "quickactions")
        #expect(shown[0]["summary"] as? String == "Succeed")
        #expect(shown[0]["body"] as? String == "C performed succeed: Succeed")
        #expect(shown[0]["urgency"] as? Int == 1)
        #expect(shown[1]["summary"] as? String == "Fail failed")
        #expect((shown[1]["body"] as? String)?.contains("'fail' of app 'org.example.c' failed") == true, "\(shown[1])")
        #expect(shown[1]["urgency"] as? Int == 2)
        #expect(shown[2]["summary"] as? String == "Quick action failed")
        #expect((shown[2]["body"] as? String)?.contains("exit status 3") == true, "\(shown[2])")
    }

    @Test("on a terminal, only --notify shows a notification")
    func terminal() async throws {
        let setup = try await Setup()
        guard let plain = try await CLIProcess.runOnTerminal(["pick", "--picker", "grep Succeed"], setup.harness) else {
            return
        }
        #expect(plain.status == 0, "\(plain)")
        #expect(try setup.notifications().isEmpty)
        let asked = try await CLIProcess.runOnTerminal(["pick", "--notify", "--picker", "grep Succeed"], setup.harness)
        #expect(asked?.status == 0, "\(String(describing: asked))")
        #expect(try setup.notifications().map { $0["summary"] as? String } == ["Succeed"])
    }

    @Test("--notify without a notification service says so on stderr and still performs")
    func noService() async throws {
        let harness = try await BrokerHarness(bundles: [CLIFixtures.cApp])
        let result = try await CLIProcess.run(["pick", "--notify", "--picker", "grep Succeed"], harness)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "C performed succeed: Succeed\n")
        #expect(result.stderr.contains("no notification service"), "\(result)")
    }
}
