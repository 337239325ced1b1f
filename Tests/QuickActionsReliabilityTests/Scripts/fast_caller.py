#!/usr/bin/python3
"""Another caller, with python3's dbus module: sends COUNT Performs of the
Fast plugin's "fast" item to APP at once, each with its own activation
token, and checks that each is answered exactly once with its own token.

Usage: fast_caller.py APP COUNT   (bus: DBUS_SESSION_BUS_ADDRESS)
Prints "answered N of N exactly once", else exits non-zero saying what was wrong."""
import sys

import dbus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
app, count = sys.argv[1], int(sys.argv[2])
bus = dbus.SessionBus()
broker = dbus.Interface(bus.get_object("org.quickactions.Broker1", "/org/quickactions/Broker1"),
                        "org.quickactions.Broker1")
answers = {}
errors = []
loop = GLib.MainLoop()


def done():
    if sum(answers.values()) >= count:
        loop.quit()


def on_reply(index):
    def handler(success, result):
        answers[index] = answers.get(index, 0) + 1
        if not success or result.get("message") != f"fast fast py-{index}":
            errors.append(f"call {index}: success={success} result={dict(result)}")
        done()
    return handler


def on_error(index):
    def handler(error):
        answers[index] = answers.get(index, 0) + 1
        errors.append(f"call {index}: {error.get_dbus_name()}: {error}")
        done()
    return handler


for index in range(count):
    options = dbus.Dictionary({"activation-token": f"py-{index}"}, signature="sv")
    broker.Perform(app, "fast", options, signature="ssa{sv}",
                   reply_handler=on_reply(index), error_handler=on_error(index), timeout=60)
GLib.timeout_add_seconds(60, loop.quit)
loop.run()
twice = [index for index, times in answers.items() if times != 1]
if errors or twice or len(answers) != count:
    sys.exit(f"errors={errors[:5]} answered-twice={twice[:5]} answered={len(answers)} of {count}")
print(f"answered {len(answers)} of {count} exactly once")
