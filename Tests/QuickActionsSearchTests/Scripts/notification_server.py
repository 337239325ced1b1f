#!/usr/bin/python3
"""A tiny org.freedesktop.Notifications server (python3's dbus) for tests: owns the name on
the given bus, answers Notify, GetCapabilities and GetServerInformation, and appends each
notification to FILE as one JSON line. Prints "ready" once it owns the name.

    notification_server.py ADDRESS FILE
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
IFACE = "org.freedesktop.Notifications"


class Server(dbus.service.Object):
    def __init__(self, bus, path, log):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.log = log
        self.next_id = 1

    @dbus.service.method(IFACE, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        with open(self.log, "a") as out:
            out.write(json.dumps({"app_name": str(app_name), "app_icon": str(app_icon), "summary": str(summary),
                                  "body": str(body), "urgency": int(hints.get("urgency", -1))}) + "\n")
        self.next_id += 1
        return dbus.UInt32(self.next_id - 1)

    @dbus.service.method(IFACE, out_signature="as")
    def GetCapabilities(self):
        return ["body"]

    @dbus.service.method(IFACE, out_signature="ssss")
    def GetServerInformation(self):
        return ("qa-test-notifications", "QuickActions tests", "1.0", "1.2")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    Server(bus, "/org/freedesktop/Notifications", sys.argv[2])
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)  # released when collected: keep it
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name


main()
