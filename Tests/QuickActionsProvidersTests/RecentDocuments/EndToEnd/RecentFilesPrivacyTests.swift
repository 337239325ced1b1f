import DBus
import Foundation
import QuickActionsTestSupport
import Testing

@testable import QuickActionsProviders

/// A settings portal in python3's dbus on a private bus: `org.freedesktop.portal.Settings`
/// with `ReadOne` (or only `Read`, as portals before version 2, its value in two variants).
/// A test changes the setting by writing `true` or `false` to a control file (ManagedProcess
/// gives the child no standard input); the portal then emits `SettingChanged`.
enum FakePortal {
    static let script = #"""
        import os, sys
        import dbus, dbus.service
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib

        address, control, initial, with_read_one = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "readone"
        IFACE = "org.freedesktop.portal.Settings"
        NS, KEY = "org.gnome.desktop.privacy", "remember-recent-files"

        class Settings(dbus.service.Object):
            def __init__(self, bus):
                super().__init__(bus, "/org/freedesktop/portal/desktop")
                self.value = initial == "true"

            def lookup(self, namespace, key):
                if namespace != NS or key != KEY:
                    raise dbus.exceptions.DBusException("no such key", name="org.freedesktop.portal.Error.NotFound")
                return dbus.Boolean(self.value, variant_level=1)

            @dbus.service.method(IFACE, in_signature="ss", out_signature="v")
            def Read(self, namespace, key):
                # The old Read wraps the value in a second variant.
                return dbus.Boolean(self.lookup(namespace, key), variant_level=2)

            @dbus.service.signal(IFACE, signature="ssv")
            def SettingChanged(self, namespace, key, value):
                pass

        if with_read_one:
            def ReadOne(self, namespace, key):
                return self.lookup(namespace, key)
            Settings.ReadOne = dbus.service.method(IFACE, in_signature="ss", out_signature="v")(ReadOne)
            # dbus.service collects methods when the class is made: make it again with ReadOne.
            Settings = type("Settings", (Settings,), {"ReadOne": Settings.ReadOne})

        DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(address)
        settings = Settings(bus)
        name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus, do_not_queue=True)
        last = [None]

        def poll():
            try:
                text = open(control).read().strip()
            except OSError:
                return True
            if text and text != last[0]:
                last[0] = text
                settings.value = text == "true"
                settings.SettingChanged(NS, KEY, dbus.Boolean(settings.value, variant_level=1))
            return True

        GLib.timeout_add(20, poll)
        print("ready", flush=True)
        GLib.MainLoop().run()
        """#

    /// Starts the portal on `bus` and waits until it owns its name.
    static func start(on bus: TestBus, remember: Bool, readOne: Bool = true) async throws -> (ManagedProcess, URL) {
        let control = bus.directory.appendingPathComponent("portal-control")
        let process = try ManagedProcess(
            "/usr/bin/python3", ["-c", script, bus.address, control.path, remember ? "true" : "false", readOne ? "readone" : "read"],
            environment: bus.environment(), directory: bus.directory, name: "fake-portal")
        let ready = await eventually { process.standardOutput.contains("ready") || !process.isRunning }
        guard ready, process.isRunning else {
            throw TestSupportError("the fake portal did not start: \(process.standardError)")
        }
        return (process, control)
    }
}

@Suite("Recent documents privacy")
struct RecentFilesPrivacyTests {
    /// A provider with one document on `bus`'s connection.
    static func fixture(bus: TestBus) async throws -> (RecentFixture, Connection) {
        let fixture = try RecentFixture()
        let connection = try Connection(.address(bus.address))
        let uri = try fixture.document("a.txt")
        try await GLibBookmarkFile.write([
            .init(uri: uri, mime: "text/plain", applications: [.init(name: "gedit", exec: "gedit %u", modified: 1_700_000_000)]),
        ], to: fixture.xbel)
        return (fixture, connection)
    }

    static func provider(_ fixture: RecentFixture, _ connection: Connection) -> RecentDocumentsProvider {
        RecentDocumentsProvider(
            applications: fixture.apps, launcher: fixture.launcher, connection: connection,
            settings: .init(settleDelay: .milliseconds(50), portalTimeout: .seconds(5), log: fixture.logs.log),
            environment: ["HOME": fixture.home, "XDG_DATA_HOME": fixture.dataHome],
            icons: MimeIcons(dataDirectories: [], available: { _ in false }))
    }

    @Test("offers nothing while the portal says not to remember recent files, and follows SettingChanged",
          arguments: [true, false])
    func followsPortal(readOne: Bool) async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let (portal, control) = try await FakePortal.start(on: bus, remember: false, readOne: readOne)
        defer { portal.stop() }
        let (fixture, connection) = try await Self.fixture(bus: bus)
        defer { connection.close() }
        let provider = Self.provider(fixture, connection)
        defer { provider.stop() }
        let published = Published()
        provider.start(publish: published.publish)
        #expect(await eventually { published.latest == [] }, "logs: \(fixture.logs.all)")
        #expect(published.titles("org.gnome.gedit") == [])
        try "true".write(to: control, atomically: true, encoding: .utf8)
        #expect(await eventually { published.titles("org.gnome.gedit") == ["a.txt"] }, "logs: \(fixture.logs.all)")
        try "false".write(to: control, atomically: true, encoding: .utf8)
        #expect(await eventually { published.latest == [] }, "logs: \(fixture.logs.all)")
    }

    @Test("remembers when the portal allows it")
    func portalAllows() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let (portal, _) = try await FakePortal.start(on: bus, remember: true)
        defer { portal.stop() }
        let (fixture, connection) = try await Self.fixture(bus: bus)
        defer { connection.close() }
        let provider = Self.provider(fixture, connection)
        defer { provider.stop() }
        let published = Published()
        provider.start(publish: published.publish)
        #expect(await eventually { published.titles("org.gnome.gedit") == ["a.txt"] })
        #expect(published.count == 1, "nothing was published before the portal answered")
    }

    @Test("remembers when no portal runs")
    func noPortal() async throws {
        let bus = try await TestBus()
        defer { bus.stop() }
        let (fixture, connection) = try await Self.fixture(bus: bus)
        defer { connection.close() }
        let provider = Self.provider(fixture, connection)
        defer { provider.stop() }
        let published = Published()
        provider.start(publish: published.publish)
        #expect(await eventually { published.titles("org.gnome.gedit") == ["a.txt"] }, "logs: \(fixture.logs.all)")
        #expect(fixture.logs.all.contains { $0.contains("not read") && $0.contains("remembered") })
    }
}
