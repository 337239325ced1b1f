import QuickActionsAPI

/// Perform responders written with the D-Bus libraries Python programs use,
/// run as `python3 -c SCRIPT ADDRESS NAME`: what a service written with
/// GDBus (through python3's gi) or dbus-python costs for the same call.
/// Each reads its arguments and replies `(true, {"activation": <"resume">})`,
/// like the C floor.
enum PythonResponders {
    /// GDBus (GLib's Gio) through PyGObject: a registered object whose
    /// method-call handler unpacks the arguments and returns the reply.
    static let gdbus = """
        import sys, gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib
        address, name = sys.argv[1], sys.argv[2]
        node = Gio.DBusNodeInfo.new_for_xml('''<node><interface name="\(BrokerAPI.interface)">
          <method name="\(BrokerAPI.Member.perform)"><arg name="app_id" type="s" direction="in"/><arg name="type" type="s" direction="in"/>
            <arg name="options" type="a{sv}" direction="in"/><arg name="success" type="b" direction="out"/>
            <arg name="result" type="a{sv}" direction="out"/></method></interface></node>''')
        connection = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        def perform(connection, sender, path, interface, method, parameters, invocation):
            app_id, item_type, options = parameters.unpack()
            invocation.return_value(GLib.Variant("(ba{sv})", (True, {"\(BrokerAPI.ResultKey.activation)": GLib.Variant("s", "\(BrokerAPI.Activation.resume)")})))
        connection.register_object("\(BrokerAPI.rootPath)", node.interfaces[0], perform, None, None)
        owned = connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "RequestName", GLib.Variant("(su)", (name, 4)), GLib.VariantType("(u)"),
                                     Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
        if owned != 1:
            sys.exit(f"cannot own {name}: RequestName answered {owned}")
        connection.connect("closed", lambda *args: sys.exit(0))
        GLib.MainLoop().run()
        """

    /// dbus-python on its GLib main loop: a `dbus.service.Object` method.
    static let dbusPython = """
        import sys, dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        address, name = sys.argv[1], sys.argv[2]
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(address)
        class Broker(dbus.service.Object):
            @dbus.service.method("\(BrokerAPI.interface)", in_signature="ssa{sv}", out_signature="ba{sv}")
            def \(BrokerAPI.Member.perform)(self, app_id, item_type, options):
                return True, {"\(BrokerAPI.ResultKey.activation)": dbus.String("\(BrokerAPI.Activation.resume)", variant_level=1)}
        broker = Broker(bus, "\(BrokerAPI.rootPath)")
        owned = dbus.service.BusName(name, bus, do_not_queue=True)
        bus.call_on_disconnection(lambda connection: sys.exit(0))
        GLib.MainLoop().run()
        """
}
