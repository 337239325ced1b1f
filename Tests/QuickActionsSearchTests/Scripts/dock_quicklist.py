#!/usr/bin/python3
"""Behaves as a dock does (Dash to Dock, Ubuntu Dock) and only reads: listens for
com.canonical.Unity.LauncherEntry.Update, owns com.canonical.Unity (after which the bridge
sends every Update again), and once APP_URI has a quicklist reads its labels with libdbusmenu's
own client (Dbusmenu.Client, gir1.2-dbusmenu-glib-0.4), waiting until they include EXPECTED.
Runs on the session bus (DBUS_SESSION_BUS_ADDRESS: the test bus). Prints one JSON document:
{"labels": [...], "updates": [[uri, quicklist path], ...]}.

    dock_quicklist.py APP_URI EXPECTED
"""
import json
import sys

import gi
gi.require_version("Dbusmenu", "0.4")
gi.require_version("Gio", "2.0")
from gi.repository import Dbusmenu, Gio, GLib

app_uri, expected = sys.argv[1], sys.argv[2]
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
loop = GLib.MainLoop()
updates = []
state = {"client": None}


def fail(message):
    print(json.dumps({"error": message, "updates": updates}))
    sys.exit(1)


def on_update(connection, sender, path, interface, member, parameters):
    uri, properties = parameters.unpack()
    quicklist = str(properties.get("quicklist", ""))
    updates.append([uri, quicklist])
    if uri == app_uri and quicklist not in ("", "/"):
        state["client"] = Dbusmenu.Client.new(sender, quicklist)
        loop.quit()


bus.signal_subscribe(None, "com.canonical.Unity.LauncherEntry", "Update", None, None,
                     Gio.DBusSignalFlags.NONE, on_update)
GLib.timeout_add(200, lambda: Gio.bus_own_name_on_connection(
    bus, "com.canonical.Unity", Gio.BusNameOwnerFlags.NONE, None, None) and False)
GLib.timeout_add_seconds(30, lambda: fail("no quicklist for %s" % app_uri))
loop.run()
client = state["client"]


def labels():
    root = client.get_root()
    return [item.property_get("label") for item in root.get_children()] if root is not None else []


def check(*_):
    if expected in labels():
        loop.quit()
    return True


client.connect("layout-updated", check)
client.connect("root-changed", check)
GLib.timeout_add(50, check)
loop.run()
print(json.dumps({"labels": labels(), "updates": updates}))
