#!/usr/bin/python3
"""Fake D-Bus peers for the launcher's tests (python3's dbus), on the given bus:

    fake_application.py ADDRESS LOG NAME...

For each NAME, owns it and serves org.freedesktop.Application (Activate, Open,
ActivateAction) at the object path the Desktop Entry Specification derives from it; a NAME
of org.freedesktop.systemd1 serves org.freedesktop.systemd1.Manager.StartTransientUnit
instead. Each call is appended to LOG as one JSON line {"name", "path", "member", "args"}.
An ActivateAction of "fail" answers with the error org.example.Error.Refused. Prints "ready"
once it owns every name.
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

APP = "org.freedesktop.Application"
SYSTEMD = "org.freedesktop.systemd1.Manager"


class Refused(dbus.DBusException):
    _dbus_error_name = "org.example.Error.Refused"


def plain(value):
    """D-Bus values as JSON."""
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Boolean,)):
        return bool(value)
    if isinstance(value, (dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64, dbus.Byte)):
        return int(value)
    return str(value)


class Recorder:
    def __init__(self, log):
        self.log = log

    def record(self, name, path, member, args):
        with open(self.log, "a") as out:
            out.write(json.dumps({"name": name, "path": path, "member": member, "args": plain(args)}) + "\n")


class Application(dbus.service.Object):
    def __init__(self, bus, name, path, recorder):
        super().__init__(bus, path)
        self.name, self.path, self.recorder = name, path, recorder

    @dbus.service.method(APP, in_signature="a{sv}")
    def Activate(self, platform_data):
        self.recorder.record(self.name, self.path, "Activate", [platform_data])

    @dbus.service.method(APP, in_signature="asa{sv}")
    def Open(self, uris, platform_data):
        self.recorder.record(self.name, self.path, "Open", [uris, platform_data])

    @dbus.service.method(APP, in_signature="sava{sv}")
    def ActivateAction(self, action, parameter, platform_data):
        self.recorder.record(self.name, self.path, "ActivateAction", [action, parameter, platform_data])
        if action == "fail":
            raise Refused("the action fail always fails")


class Systemd(dbus.service.Object):
    def __init__(self, bus, recorder):
        super().__init__(bus, "/org/freedesktop/systemd1")
        self.recorder = recorder

    @dbus.service.method(SYSTEMD, in_signature="ssa(sv)a(sa(sv))", out_signature="o")
    def StartTransientUnit(self, name, mode, properties, aux):
        self.recorder.record("org.freedesktop.systemd1", "/org/freedesktop/systemd1", "StartTransientUnit",
                             [name, mode, properties, aux])
        return dbus.ObjectPath("/org/freedesktop/systemd1/job/1")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    recorder = Recorder(sys.argv[2])
    keep = []
    for name in sys.argv[3:]:
        if name == "org.freedesktop.systemd1":
            keep.append(Systemd(bus, recorder))
        else:
            path = "/" + name.replace(".", "/").replace("-", "_")
            keep.append(Application(bus, name, path, recorder))
        keep.append(dbus.service.BusName(name, bus, do_not_queue=True))
    print("ready", flush=True)
    GLib.MainLoop().run()


main()
