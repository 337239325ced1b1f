#!/usr/bin/python3
"""Bad calls that only libdbus (through python3's dbus module) can express,
each on a fresh private connection, since the bus may drop it.

Usage: bad_calls.py CASE...   (bus: DBUS_SESSION_BUS_ADDRESS)
  arguments-depth:N   Perform("org.example.fast1", "fast") with arguments
                      N levels deep as ItemLimits counts them (the dictionary
                      is level 1): {"deep": N-2 nested arrays around an
                      integer}. libdbus limits each signature to 32 arrays,
                      so past 30 the arrays continue inside a variant.
  locale-variants:N   GetItems("org.example.fast1") with option "locale"
                      wrapped in N variants (the a{sv} adds two containers;
                      the bus allows 64 in all).
Prints one JSON line per case: {"case": CASE, "outcome": "return ..." |
"error <name>: <message>" | "disconnected: <why>"}.
"""
import json
import sys

import dbus


def nested_arrays(arrays):
    value, signature = dbus.Int64(1), "x"
    for _ in range(arrays):
        if signature.count("a") >= 30:
            value = dbus.Array(list(value), signature=value.signature, variant_level=1)
            signature = "v"
        value = dbus.Array([value], signature=signature)
        signature = "a" + signature
    return value


def with_variants(value, levels):
    return dbus.String(value, variant_level=levels)


def run(case):
    kind, _, number = case.partition(":")
    number = int(number)
    bus = dbus.SessionBus(private=True)
    broker = bus.get_object("org.quickactions.Broker1", "/org/quickactions/Broker1")
    try:
        if kind == "arguments-depth":
            arguments = dbus.Dictionary({"deep": nested_arrays(number - 2)}, signature="sv")
            options = dbus.Dictionary({"arguments": arguments}, signature="sv")
            reply = broker.Perform("org.example.fast1", "fast", options, signature="ssa{sv}",
                                   dbus_interface="org.quickactions.Broker1", timeout=30)
            return f"return success={bool(reply[0])} message={reply[1].get('message')}"
        if kind == "locale-variants":
            # variant_level counts every variant, the a{sv}'s own one included.
            options = dbus.Dictionary({"locale": with_variants("de", number)}, signature="sv")
            reply = broker.GetItems("org.example.fast1", options, signature="sa{sv}",
                                    dbus_interface="org.quickactions.Broker1", timeout=30)
            return f"return {len(reply)} items"
        return f"unknown case {case}"
    except dbus.exceptions.DBusException as error:
        if not bus.get_is_connected() or error.get_dbus_name() == "org.freedesktop.DBus.Error.NoReply":
            return f"disconnected: {error.get_dbus_name()}: {error.get_dbus_message()}"
        return f"error {error.get_dbus_name()}: {error.get_dbus_message()}"
    finally:
        bus.close()


for case in sys.argv[1:]:
    print(json.dumps({"case": case, "outcome": run(case)}), flush=True)
