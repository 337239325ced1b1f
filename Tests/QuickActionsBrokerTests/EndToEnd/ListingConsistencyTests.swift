import DBus
import Foundation
import QuickActionsTestSupport
import Testing

/// GetManagedObjects while an app keeps publishing dynamic items (the Churn
/// test plugin sets version after version), read by python3's dbus as a
/// launcher would: each listing shows one complete version, listings never
/// go back, and no listing is older than a PropertiesChanged(Items) that
/// arrived before it. A quiet app's entry decodes in busctl, GDBus and
/// python3's dbus exactly as Properties.GetAll gives its properties.
@Suite struct ListingConsistencyTests {
    static let churn = TestBundle(
        appID: "org.example.churn", library: "QATestChurn", name: "Churn",
        items: [TestBundle.item("churn", "Churn"), TestBundle.item("nest", "Nest")])
    static let quiet = TestBundle(
        appID: "org.example.quiet", library: "QATestSwiftPlugin", name: "Quiet",
        items: [TestBundle.item("hello", "Hello"), TestBundle.item("echo-items", "Echo")])
    static let root = "/org/quickactions/Broker1"
    static let churnPath = "/org/quickactions/Broker1/apps/org_2eexample_2echurn"
    static let quietPath = "/org/quickactions/Broker1/apps/org_2eexample_2equiet"

    /// Loops GetManagedObjects (each sent when the last is answered, at least
    /// `wanted` and until three versions were listed) while
    /// recording PropertiesChanged(Items) of the churning app, in arrival
    /// order; prints one JSON object with what it saw and every problem.
    static let script = """
        import dbus, json, sys
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        path, wanted = sys.argv[2], int(sys.argv[3])
        manager = dbus.Interface(bus.get_object('org.quickactions.Broker1', '/org/quickactions/Broker1'),
                                 'org.freedesktop.DBus.ObjectManager')
        loop = GLib.MainLoop()
        state = {'announced': -1, 'listed': -1, 'listings': 0, 'signals': 0, 'versions': set(), 'problems': []}

        def version(items):
            # The one version of a list's dynamic items, or a problem.
            dynamic = [i for i in items if str(i.get('origin')) == 'dynamic']
            if not dynamic:
                return None
            infos = [i['user-info'] for i in dynamic]
            versions = {int(info['version']) for info in infos}
            if len(versions) != 1:
                state['problems'].append('one list mixes versions %s' % sorted(versions))
                return None
            v = versions.pop()
            if [int(info['index']) for info in infos] != list(range(1 + v % 5)):
                state['problems'].append('version %d is incomplete or out of order' % v)
            return v

        def changed(interface, properties, invalidated):
            if 'Items' in properties:
                v = version(properties['Items'])
                if v is not None:
                    state['signals'] += 1
                    state['announced'] = max(state['announced'], v)

        def listed(objects):
            state['listings'] += 1
            items = objects[path]['org.quickactions.Application1']['Items']
            v = version(items)
            if v is not None:
                state['versions'].add(v)
                if v < state['listed']:
                    state['problems'].append('listing at version %d after one at %d' % (v, state['listed']))
                if v < state['announced']:
                    state['problems'].append('listing at version %d after PropertiesChanged of version %d'
                                             % (v, state['announced']))
                state['listed'] = max(state['listed'], v)
            # At least `wanted` listings, and on until the app was seen to change a few times
            # (a slow start, under a sanitizer, must not leave the check without changes).
            if state['listings'] >= wanted and (len(state['versions']) >= 3 or state['listings'] >= 5000):
                loop.quit()
            else:
                ask()

        def failed(error):
            state['problems'].append('GetManagedObjects failed: %s' % error)
            loop.quit()

        def ask():
            manager.GetManagedObjects(reply_handler=listed, error_handler=failed, timeout=60)

        bus.add_signal_receiver(changed, 'PropertiesChanged', 'org.freedesktop.DBus.Properties', None, path)
        ask()
        GLib.timeout_add_seconds(120, loop.quit)
        loop.run()
        state['versions'] = len(state['versions'])
        print(json.dumps(state))
        """

    @Test func listingsStayConsistentWhileAnAppKeepsPublishing() async throws {
        let harness = try await BrokerHarness(bundles: [Self.churn, Self.quiet])
        let started = try await harness.call("Perform", "ssa{sv}", ["org.example.churn", "churn", "0"])
        #expect(started.status == 0, "\(started)")
        let python = try await Command.run(
            "/usr/bin/python3", ["-c", Self.script, harness.bus.address, Self.churnPath, "40"], timeout: .seconds(150))
        #expect(python.status == 0, "\(python)")
        let seen = try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(seen["problems"] as? [String] == [], "\(python.stdout)")
        #expect((seen["listings"] as? Int ?? 0) >= 40, "\(python.stdout)")
        // The app really changed while it was listed, and its changes were announced.
        #expect((seen["versions"] as? Int ?? 0) > 1, "\(python.stdout)")
        #expect((seen["signals"] as? Int ?? 0) > 0, "\(python.stdout)")
    }

    /// The quiet app's GetManagedObjects entry and its Properties.GetAll,
    /// each decoded by python3's dbus, GDBus (through gi) and busctl.
    static let decodeScript = """
        import dbus, json, subprocess, sys
        import gi
        gi.require_version('Gio', '2.0')
        from gi.repository import Gio, GLib
        address, path = sys.argv[1], sys.argv[2]
        interface = 'org.quickactions.Application1'
        bus = dbus.bus.BusConnection(address)
        root = bus.get_object('org.quickactions.Broker1', '/org/quickactions/Broker1')
        listed = dbus.Interface(root, 'org.freedesktop.DBus.ObjectManager').GetManagedObjects()[path][interface]
        every = bus.get_object('org.quickactions.Broker1', path).GetAll(
            interface, dbus_interface='org.freedesktop.DBus.Properties')
        plain = lambda value: json.loads(json.dumps(value))
        out = {'python': [plain(listed), plain(every)]}
        gio = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        def call(object_path, iface, member, args):
            return gio.call_sync('org.quickactions.Broker1', object_path, iface, member, args, None,
                                 Gio.DBusCallFlags.NONE, 60000, None).unpack()
        objects = call('/org/quickactions/Broker1', 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects', None)[0]
        gall = call(path, 'org.freedesktop.DBus.Properties', 'GetAll', GLib.Variant('(s)', (interface,)))[0]
        out['gdbus'] = [plain(objects[path][interface]), plain(gall)]
        def busctl(*args):
            text = subprocess.run(['busctl', '--address=' + address, '--json=short', 'call',
                                   'org.quickactions.Broker1'] + list(args), check=True, capture_output=True).stdout
            return json.loads(text)['data'][0]
        managed = busctl('/org/quickactions/Broker1', 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects')
        out['busctl'] = [managed[path][interface], busctl(path, 'org.freedesktop.DBus.Properties', 'GetAll', 's', interface)]
        print(json.dumps(out, sort_keys=True))
        """

    @Test func eachClientDecodesAListedAppAsItsProperties() async throws {
        let harness = try await BrokerHarness(bundles: [Self.quiet])
        let python = try await Command.run(
            "/usr/bin/python3", ["-c", Self.decodeScript, harness.bus.address, Self.quietPath], timeout: .seconds(60))
        #expect(python.status == 0, "\(python)")
        let decoded = try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: [Any]] ?? [:]
        #expect(decoded.keys.sorted() == ["busctl", "gdbus", "python"], "\(python.stdout)")
        for (client, pair) in decoded {
            guard pair.count == 2, let listed = pair[0] as? NSDictionary, let all = pair[1] as? NSDictionary else {
                Issue.record("\(client): \(pair)")
                continue
            }
            #expect(listed == all, "\(client): GetManagedObjects lists \(listed), GetAll gives \(all)")
            #expect(listed.count == 14, "\(client): \(listed.allKeys)")
        }
    }
}
