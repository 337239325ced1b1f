#!/usr/bin/python3
"""Round-trips every D-Bus type through the binding's test object with
python3's dbus module (dbus-python), the way a Python script would call a
service. Exits non-zero, saying what differed, on any mismatch."""
import sys

import dbus

bus = dbus.SessionBus()
test = bus.get_object("org.quickactions.Test", "/org/quickactions/Test")
iface = dbus.Interface(test, "org.quickactions.Test1")

every = [
    dbus.Byte(255), dbus.Boolean(True), dbus.Int16(-32768), dbus.UInt16(65535),
    dbus.Int32(-2147483648), dbus.UInt32(4294967295),
    dbus.Int64(-9223372036854775808), dbus.UInt64(18446744073709551615),
    dbus.Double(-1.5), dbus.String("grüße ✓ \"quoted\""), dbus.ObjectPath("/a/b_c/D1"),
    dbus.Signature("a{sv}(ii)"),
    dbus.Array([dbus.Byte(0), dbus.Byte(1), dbus.Byte(255)], signature="y"),
    dbus.Array(["x", ""], signature="s"),
    dbus.Dictionary({"n": dbus.Int32(7, variant_level=1),
                     "nested": dbus.Array([dbus.Int64(1), dbus.Int64(-1)], signature="x", variant_level=2)},
                    signature="sv"),
    dbus.Struct((dbus.Int32(42), "answer"), signature="is"),
    dbus.Dictionary({"k": dbus.Array(["v"], signature="s")}, signature="sas", variant_level=1),
]

reply = iface.EchoAll(*every, signature="ybnqiuxtdsogayasa{sv}(is)v")
if len(reply) != len(every):
    sys.exit(f"EchoAll returned {len(reply)} values, sent {len(every)}")
for index, (sent, got) in enumerate(zip(every, reply)):
    if sent != got or type(sent) is not type(got):
        sys.exit(f"value {index}: sent {sent!r}, got {got!r}")
if reply[14]["nested"].variant_level != 2:
    sys.exit(f"nested variant level {reply[14]['nested'].variant_level}, sent 2")

# A variant holding a variant holding a dictionary of arrays.
deep = dbus.Dictionary({"a": dbus.Array([dbus.Array([1, 2], signature="i")], signature="ai")},
                       signature="sv", variant_level=2)
echoed = iface.Echo(deep, signature="v")
if echoed != deep or echoed.variant_level != 2:
    sys.exit(f"nested variant: sent {deep!r} (level 2), got {echoed!r} (level {echoed.variant_level})")

try:
    iface.Fail("org.quickactions.Test.Error.Custom", "from python")
    sys.exit("Fail did not raise")
except dbus.exceptions.DBusException as error:
    if error.get_dbus_name() != "org.quickactions.Test.Error.Custom" or "from python" not in str(error):
        sys.exit(f"unexpected error {error.get_dbus_name()}: {error}")

print("ok", len(every), "types")
