#!/usr/bin/python3
"""Behaves as a dock does (Dash to Dock, Ubuntu Dock): listens for
com.canonical.Unity.LauncherEntry.Update, owns com.canonical.Unity (after which the bridge
sends every Update again), reads the quicklist of APP_URI with libdbusmenu's own client
(Dbusmenu.Client, gir1.2-dbusmenu-glib-0.4), sends "clicked" to the item labelled CLICK, then
makes the contacts plugin add a favorite and waits for the menu to show it. Runs on the
session bus (DBUS_SESSION_BUS_ADDRESS: the test bus). Prints one JSON document.

    dock_client.py APP_URI CLICK NEW_FAVORITE
"""
import json
import sys

import gi
gi.require_version("Dbusmenu", "0.4")
gi.require_version("Gio", "2.0")
from gi.repository import Dbusmenu, Gio, GLib

app_uri, click, new_favorite = sys.argv[1], sys.argv[2], sys.argv[3]
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
loop = GLib.MainLoop()
updates = []
state = {"client": None}
result = {"updates_before_owning": 0}


def fail(message):
    print(json.dumps({"error": message, "updates": [u[1] for u in updates]}))
    sys.exit(1)


def on_update(connection, sender, path, interface, member, parameters):
    uri, properties = parameters.unpack()
    updates.append((sender, uri, properties.get("quicklist")))
    if uri == app_uri and state["client"] is None and properties.get("quicklist", "/") != "/":
        state["client"] = Dbusmenu.Client.new(sender, properties["quicklist"])
        loop.quit()


bus.signal_subscribe(None, "com.canonical.Unity.LauncherEntry", "Update", None, None,
                     Gio.DBusSignalFlags.NONE, on_update)


def own():
    result["updates_before_owning"] = len(updates)
    Gio.bus_own_name_on_connection(bus, "com.canonical.Unity", Gio.BusNameOwnerFlags.NONE, None, None)
    return False


GLib.timeout_add(200, own)
GLib.timeout_add_seconds(20, lambda: fail("no Update for %s" % app_uri))
loop.run()
client = state["client"]


def children():
    root = client.get_root()
    return root.get_children() if root is not None else []


def wait_for(condition, what):
    """Runs the loop until condition() holds (checked on every menu change and every 50 ms)."""
    if condition():
        return
    def check(*_):
        if condition():
            loop.quit()
        return True
    timeout = GLib.timeout_add_seconds(20, lambda: fail("timed out waiting for " + what))
    handlers = [client.connect("layout-updated", check), client.connect("root-changed", check)]
    poll = GLib.timeout_add(50, check)
    loop.run()
    for handler in handlers:
        client.disconnect(handler)
    GLib.source_remove(poll)
    GLib.source_remove(timeout)


wait_for(lambda: len(children()) > 0, "the menu's items")
result["labels"] = [item.property_get("label") for item in children()]
result["properties"] = [item.properties_list() for item in children()]
# The menu as served, read directly (what a dock that shows icons reads).
direct = bus.call_sync(client.props.dbus_name, client.props.dbus_object, "com.canonical.dbusmenu", "GetLayout",
                       GLib.Variant("(iias)", (0, -1, [])), None, Gio.DBusCallFlags.NONE, 5000, None)
result["direct"] = str(direct)
target = [item for item in children() if item.property_get("label") == click]
if not target:
    fail("no item labelled %s in %s" % (click, result["labels"]))
target[0].handle_event("clicked", GLib.Variant("i", 0), 0)
# libdbusmenu may send the Event from the main loop: let it run, then flush the connection.
while GLib.MainContext.default().iteration(False):
    pass
bus.flush_sync(None)

# The plugin adds a favorite: the broker says ItemsChanged, the bridge LayoutUpdated.
arguments = GLib.Variant("a{sv}", {"contact": GLib.Variant("s", new_favorite), "favorite": GLib.Variant("b", True)})
bus.call_sync("org.quickactions.Broker1", "/org/quickactions/Broker1", "org.quickactions.Broker1", "Perform",
              GLib.Variant("(ssa{sv})", ("com.example.contacts", "ShareAction", {"arguments": arguments})),
              None, Gio.DBusCallFlags.NONE, 30000, None)
wait_for(lambda: new_favorite in [item.property_get("label") for item in children()], "the new favorite")
result["labels_after"] = [item.property_get("label") for item in children()]
result["updates"] = [u[1] for u in updates]
result["quicklists"] = sorted(set(str(u[2]) for u in updates if u[1] == app_uri))
print(json.dumps(result))
