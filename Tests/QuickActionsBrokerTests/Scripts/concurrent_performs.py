#!/usr/bin/python3
"""Sends N Performs at once to the broker on the session bus, alternating two
apps, with python3's dbus module and a GLib main loop, and checks that every
call is answered exactly once with the right result."""
import sys

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
count = int(sys.argv[1])
bus = dbus.SessionBus()
broker = dbus.Interface(bus.get_object("org.quickactions.Broker1", "/org/quickactions/Broker1"),
                        "org.quickactions.Broker1")
answers = {}
errors = []
loop = GLib.MainLoop()


def done():
    if sum(answers.values()) + len(errors) >= count:
        loop.quit()


def on_reply(index):
    def handler(success, result):
        answers[index] = answers.get(index, 0) + 1
        if not success or result.get("activation") not in ("launch", "resume"):
            errors.append(f"call {index}: success={success} result={dict(result)}")
        done()
    return handler


def on_error(index):
    def handler(error):
        errors.append(f"call {index}: {error.get_dbus_name()}: {error}")
        done()
    return handler


for index in range(count):
    app, item = ("org.example.swift", "hello") if index % 2 else ("org.example.c", "succeed")
    broker.Perform(app, item, dbus.Dictionary({}, signature="sv"), signature="ssa{sv}",
                   reply_handler=on_reply(index), error_handler=on_error(index), timeout=60)
GLib.timeout_add_seconds(90, loop.quit)
loop.run()
twice = [index for index, times in answers.items() if times != 1]
if errors or twice or len(answers) != count:
    sys.exit(f"errors={errors[:5]} answered-twice={twice[:5]} answered={len(answers)}")
print(f"answered {len(answers)} of {count} exactly once")
