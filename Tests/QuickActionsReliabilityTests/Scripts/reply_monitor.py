#!/usr/bin/python3
"""Watches the broker's answers on the wire, as a bus monitor (BecomeMonitor),
to check that every method call is answered at most once: libdbus on the
client side would silently drop a second reply, so only the wire shows one.

Uses the bus in DBUS_SESSION_BUS_ADDRESS. Prints "ready" once it monitors;
on SIGTERM, once the wire has been quiet for 300 ms, prints one JSON line and exits:
  {"returns": n, "errors": n, "duplicates": n, "error_names": {name: n},
   "destinations": {unique name: n}}
"""
import json
import signal
import sys

import dbus
import dbus.lowlevel
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus(private=True)
owner = bus.get_name_owner("org.quickactions.Broker1")
counts = {"returns": 0, "errors": 0, "duplicates": 0, "error_names": {}, "destinations": {}}
seen = set()


def on_message(_connection, message):
    if message.get_sender() != owner:
        return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
    if isinstance(message, dbus.lowlevel.MethodReturnMessage):
        counts["returns"] += 1
    elif isinstance(message, dbus.lowlevel.ErrorMessage):
        counts["errors"] += 1
        name = message.get_error_name()
        counts["error_names"][name] = counts["error_names"].get(name, 0) + 1
    else:
        return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
    destination = message.get_destination()
    counts["destinations"][destination] = counts["destinations"].get(destination, 0) + 1
    key = (destination, message.get_reply_serial())
    if key in seen:
        counts["duplicates"] += 1
    seen.add(key)
    return dbus.lowlevel.HANDLER_RESULT_HANDLED


bus.add_message_filter(on_message)
bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring",
                  "BecomeMonitor", "asu",
                  ([f"type='method_return',sender='{owner}'", f"type='error',sender='{owner}'"], 0))
loop = GLib.MainLoop()
# On SIGTERM the answers the test's clients already have may still be on their way here: the
# bus daemon writes each to the client and to this monitor separately. So the summary waits
# until the wire has been quiet for QUIET_MS, reading meanwhile, at most LONGEST_MS.
QUIET_MS, LONGEST_MS = 300, 3_000  # ManagedProcess.stop waits 5 s
last_seen = [counts["returns"] + counts["errors"]]
waited = [0]


def settled():
    total = counts["returns"] + counts["errors"]
    waited[0] += QUIET_MS
    if total != last_seen[0] and waited[0] < LONGEST_MS:
        last_seen[0] = total
        return GLib.SOURCE_CONTINUE
    print(json.dumps(counts), flush=True)
    loop.quit()
    return GLib.SOURCE_REMOVE


def finish():
    last_seen[0] = counts["returns"] + counts["errors"]
    GLib.timeout_add(QUIET_MS, settled, priority=GLib.PRIORITY_LOW)
    return GLib.SOURCE_REMOVE


# Below the bus's messages, so everything already readable is counted first.
GLib.unix_signal_add(GLib.PRIORITY_LOW, signal.SIGTERM, finish)
print("ready", flush=True)
loop.run()
