#!/usr/bin/python3
"""Writes the fuzz targets' seed corpora into Fuzz/Corpus/<target>/.

Run it again (Fuzz/run.sh seeds) after a format change; `Fuzz/run.sh check-seeds` (part of
the smoke run) fails when a seed no longer parses.

The seeds come from independent writers, not from the code under test, so they also check
that our readers accept what other implementations produce:
  bundle  plistlib's XML and binary property lists; .strings text in UTF-8 and UTF-16
  plist   plistlib's XML property lists of every value type, and one file by hand with the
          forms plistlib never writes (references, CDATA, comments, an internal DTD subset)
  dbus    GLib's GDBusMessage.to_blob (little and big endian, many signatures)
  store   this script's encoder of the store format v1 (see DynamicItemCoder.swift)

Uses the system python3 because GLib's introspection (python3-gi) is installed there.
"""
import math
import os
import plistlib
import struct
import sys
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Corpus")


def write(target, name, data):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# MARK: bundle (Info.plist and InfoPlist.strings)

def bundle_seeds():
    minimal = {"CFBundleIdentifier": "org.example.Minimal", "CFBundleExecutable": "libMinimal.so"}
    full = {
        "CFBundleIdentifier": "org.example.Editor",
        "CFBundleExecutable": "libEditor.so",
        "CFBundleDisplayName": "Editor",
        "CFBundleName": "editor",
        "CFBundleShortVersionString": "1.2.3",
        "CFBundleIconName": "accessories-text-editor",
        "CFBundleDevelopmentRegion": "en",
        "UnknownKey": [1, 2.5, True],
        "UIApplicationShortcutItems": [
            {
                "UIApplicationShortcutItemType": "org.example.Editor.new",
                "UIApplicationShortcutItemTitle": "NEW_TITLE",
                "UIApplicationShortcutItemSubtitle": "NEW_SUBTITLE",
                "UIApplicationShortcutItemIconType": "UIApplicationShortcutIconTypeCompose",
            },
            {
                "UIApplicationShortcutItemType": "open-recent",
                "UIApplicationShortcutItemTitle": "Open “Recent” ✓",
                "UIApplicationShortcutItemIconSymbolName": "document-open-recent",
                "UIApplicationShortcutItemUserInfo": {
                    "path": "/home/user/notes.txt",
                    "count": 3,
                    "ratio": -0.5,
                    "pinned": False,
                    "blob": b"\x00\x01\xfe\xff",
                    "tags": ["a", 1, [2.0, {"deep": True}]],
                    "nested": {"x": {"y": {"z": "end"}}},
                },
            },
            {
                "UIApplicationShortcutItemType": "file-icon",
                "UIApplicationShortcutItemTitle": "With a file icon",
                "UIApplicationShortcutItemIconFile": "icons/star.png",
            },
            # Skipped with a diagnostic: no title; unknown icon type; not a dictionary.
            {"UIApplicationShortcutItemType": "no-title"},
            {
                "UIApplicationShortcutItemType": "bad-icon",
                "UIApplicationShortcutItemTitle": "Bad icon",
                "UIApplicationShortcutItemIconType": "UIApplicationShortcutIconTypeNope",
            },
            "not a dictionary",
        ],
    }
    wrong_types = dict(minimal, CFBundleDisplayName=42, UIApplicationShortcutItems={"not": "an array"})
    for name, plist in [("info-minimal", minimal), ("info-full", full), ("info-wrong-types", wrong_types)]:
        write("bundle", name + ".xml.plist", plistlib.dumps(plist, fmt=plistlib.FMT_XML))
        write("bundle", name + ".binary.plist", plistlib.dumps(plist, fmt=plistlib.FMT_BINARY))
    # Old-style Info.plist files are refused (only XML and binary are read), so this one is a
    # regression input (it must not crash) rather than a seed (which must parse).
    write("../Regressions/bundle", "info-oldstyle.plist",
          b'{ CFBundleIdentifier = "org.example.Old"; CFBundleExecutable = libOld.so;\n'
          b'  UIApplicationShortcutItems = ( { UIApplicationShortcutItemType = t; '
          b'UIApplicationShortcutItemTitle = "T"; } ); }\n')

    text = (
        '/* Localised strings */\n'
        '"CFBundleDisplayName" = "Éditeur";\n'
        '// line comment\n'
        '"NEW_TITLE" = "Nouveau document";\n'
        'NEW_SUBTITLE = \'Un texte vide\';\n'
        '"escapes" = "tab\\there, quote \\" backslash \\\\ newline\\n octal \\101 \\U00e9 \\u2713 pair \\UD83D\\UDE00";\n'
        '"selfKey";\n'
        '"emoji 😀" = "multi\nline";\n'
    )
    write("bundle", "strings-utf8.strings", text.encode("utf-8"))
    write("bundle", "strings-utf8-bom.strings", b"\xef\xbb\xbf" + text.encode("utf-8"))
    write("bundle", "strings-utf16le-bom.strings", text.encode("utf-16"))  # BOM, native (little) order
    write("bundle", "strings-utf16be-bom.strings", b"\xfe\xff" + text.encode("utf-16-be"))
    write("bundle", "strings-utf16le-nobom.strings", text.encode("utf-16-le"))
    write("bundle", "strings-oldstyle-dict.strings", '{ "NEW_TITLE" = "Neu"; other = "x"; }'.encode("utf-8"))
    strings_plist = {"NEW_TITLE": "Nuevo", "CFBundleDisplayName": "Editor ✓"}
    write("bundle", "strings.xml.plist", plistlib.dumps(strings_plist, fmt=plistlib.FMT_XML))
    write("bundle", "strings.binary.plist", plistlib.dumps(strings_plist, fmt=plistlib.FMT_BINARY))


# MARK: plist (the XML property-list reader alone)

def plist_seeds():
    import datetime
    values = {
        "scalars": {
            "text": "plain", "escaped": "a <b> & \"c\" 'd' ]]>", "unicode": "Grüße, 日本語, 😀, \U0010ffff",
            "controls": "tab\tnewline\n", "empty": "", "int": -9223372036854775808,
            "max": 9223372036854775807, "big": 18446744073709551615, "zero": 0, "real": -0.125,
            "exp": 1e300, "tiny": 5e-324, "inf": math.inf, "true": True, "false": False,
            "date": datetime.datetime(2024, 2, 29, 23, 59, 59), "old": datetime.datetime(1969, 7, 20, 20, 17, 40),
            "data": bytes(range(256)), "nodata": b"",
        },
        "containers": {"list": [1, "two", 3.0, [], {}, [[["deep"]]]], "map": {"a": {"b": {"c": [True]}}},
                       "": "empty key", "é": "accented key"},
        "top-array": ["a", 1, {"k": "v"}],
    }
    for name, value in values.items():
        write("plist", name + ".xml.plist", plistlib.dumps(value, fmt=plistlib.FMT_XML))
    # The forms plistlib never writes: references, CDATA, comments, a DOCTYPE's internal subset,
    # a byte-order mark, empty elements and hex integers.
    write("plist", "forms.xml.plist", (
        '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist [ <!ENTITY x "y"> ]>\n<!-- before -->\n<plist version="1.0">\n<dict>\n'
        '  <key>refs</key><string>&lt;&gt;&amp;&quot;&apos; &#233;&#x1F600;&#x10FFFF;&#9;</string>\n'
        '  <key>cdata</key><string><![CDATA[<not> &a tag]]> after</string>\n'
        '  <key>comment</key><string>be<!-- inside -->fore</string>\n'
        '  <key>caf&#xe9;</key><string/>\n'
        '  <key>hex</key><integer> 0x1F </integer>\n'
        '  <key>empty</key><array/><key>none</key><dict/><key>yes</key><true></true>\n'
        '</dict>\n</plist>\n<!-- after -->\n').encode("utf-8"))


# MARK: dbus (marshalled messages)

def dbus_seeds():
    import gi
    gi.require_version("Gio", "2.0")
    from gi.repository import Gio, GLib

    V = GLib.Variant
    bodies = [
        ("perform", "(ssa{sv})", ("org.example.Editor", "open-recent",
                                  {"timeout": V("u", 5000), "hints": V("a{sv}", {"x": V("d", -0.0)})})),
        ("basics", "(ybnqiuxtdsog)", (255, True, -32768, 65535, -2147483648, 4294967295,
                                      -9223372036854775808, 18446744073709551615, math.inf,
                                      "ünïcødé", "/org/example/Path_1", "a(iv)a{sv}")),
        ("bytes", "(ay)", (b"\x00\x01\x02\xffbinary",)),
        ("empty-containers", "(asa{ss}ay)", ([], {}, b"")),
        ("nested-structs", "((i(s(db)))a(xas))", ((1, ("two", (3.5, False))), [(4, ["a", "b"]), (5, [])])),
        ("int-keyed-dict", "(a{ia{ot}})", ({7: {"/a": 1, "/b": 2}, -1: {}},)),
        ("variants", "(vvv)", (V("v", V("v", V("s", "deep"))), V("ai", [1, 2, 3]), V("(sg)", ("s", "a{sv}")))),
        ("user-info", "(a{sv})", ({"s": V("s", "text"), "b": V("b", True), "x": V("x", -5), "d": V("d", 1e-300),
                                   "ay": V("ay", b"\x00\xff"), "av": V("av", [V("s", "a"), V("i", 1)]),
                                   "m": V("a{sv}", {"inner": V("a{sv}", {})})},)),
        ("array-of-structs", "(a(sa{sv}))", ([("a", {}), ("b", {"k": V("u", 1)})],)),
    ]
    for byte_order, suffix in [(Gio.DBusMessageByteOrder.LITTLE_ENDIAN, "le"),
                               (Gio.DBusMessageByteOrder.BIG_ENDIAN, "be")]:
        for name, signature, body in bodies:
            message = Gio.DBusMessage.new_method_call(
                "org.example.QuickActions", "/org/example/QuickActions", "org.example.QuickActions1", "Perform")
            message.set_body(V(signature, body))
            message.set_serial(7)
            message.set_byte_order(byte_order)
            write("dbus", f"call-{name}-{suffix}.bin", bytes(message.to_blob(Gio.DBusCapabilityFlags.NONE)))

    signal = Gio.DBusMessage.new_signal("/org/example/QuickActions", "org.example.QuickActions1", "ItemsChanged")
    signal.set_body(V("(sas)", ("org.example.Editor", ["a", "b"])))
    signal.set_serial(1)
    write("dbus", "signal-items-changed.bin", bytes(signal.to_blob(Gio.DBusCapabilityFlags.NONE)))

    call = Gio.DBusMessage.new_method_call("org.example.X", "/", None, "Ping")
    call.set_serial(2)
    write("dbus", "call-empty-body.bin", bytes(call.to_blob(Gio.DBusCapabilityFlags.NONE)))
    reply = Gio.DBusMessage.new_method_reply(call)
    reply.set_body(V("(aa{sv})", ([{"type": V("s", "t"), "title": V("s", "T")}],)))
    reply.set_serial(3)
    write("dbus", "return-items.bin", bytes(reply.to_blob(Gio.DBusCapabilityFlags.NONE)))
    error = Gio.DBusMessage.new_method_error_literal(call, "org.example.QuickActions1.Error.InvalidArgs",
                                                     "option \"timeout\" is a string, not a u")
    error.set_serial(4)
    write("dbus", "error-invalid-args.bin", bytes(error.to_blob(Gio.DBusCapabilityFlags.NONE)))


# MARK: store (DynamicItemCoder format 1)

def store_string(s):
    data = s.encode("utf-8")
    return struct.pack(">I", len(data)) + data


def store_value(v):
    if isinstance(v, bool):
        return b"T" if v else b"F"
    if isinstance(v, int):
        return b"i" + struct.pack(">q", v)
    if isinstance(v, float):
        return b"d" + struct.pack(">d", v)
    if isinstance(v, str):
        return b"s" + store_string(v)
    if isinstance(v, bytes):
        return b"y" + struct.pack(">I", len(v)) + v
    if isinstance(v, list):
        return b"a" + struct.pack(">I", len(v)) + b"".join(store_value(x) for x in v)
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-8"))
        return b"m" + struct.pack(">I", len(v)) + b"".join(store_string(k) + store_value(v[k]) for k in keys)
    raise TypeError(v)


def store_file(items):
    out = b"QAIS" + struct.pack(">HI", 1, len(items))
    for item in items:
        out += store_string(item["type"]) + store_string(item["title"])
        subtitle = item.get("subtitle")
        out += b"\x00" if subtitle is None else b"\x01" + store_string(subtitle)
        kind, name = item.get("icon", (0, None))
        out += bytes([kind]) + (b"" if name is None else store_string(name))
        out += store_value(item.get("userInfo", {}))
    return out + struct.pack(">I", zlib.crc32(out) & 0xFFFFFFFF)


def store_seeds():
    nan_with_payload = struct.unpack(">d", bytes.fromhex("7ff8000000c0ffee"))[0]
    write("store", "empty-list.qais", store_file([]))
    write("store", "one-minimal.qais", store_file([{"type": "t", "title": "T"}]))
    write("store", "icons.qais", store_file([
        {"type": "compose", "title": "New", "subtitle": "Empty", "icon": (1, "UIApplicationShortcutIconTypeCompose")},
        {"type": "symbol", "title": "Sym", "icon": (2, "document-open")},
        {"type": "file", "title": "File ✓", "subtitle": "", "icon": (3, "icons/star.png")},
    ]))
    write("store", "user-info.qais", store_file([{
        "type": "org.example.open", "title": "Öffnen",
        "userInfo": {
            "bool": True, "false": False, "int": -9223372036854775808, "max": 9223372036854775807,
            "zero": -0.0, "inf": math.inf, "nan": nan_with_payload, "tiny": 5e-324,
            "bytes": b"\x00\x01\xff", "empty": b"", "text": "😀 é e\u0301",
            "list": [1, "two", 3.0, [], {}], "map": {"a": {"b": {"c": [True]}}},
            "": "empty key", "Z": 1, "a": 2, "é": 3,
        },
    }]))
    write("store", "many-items.qais", store_file(
        [{"type": f"item-{i}", "title": f"Item {i}", "userInfo": {"index": i}} for i in range(12)]))
    # At the depth limit: the user-info dictionary, 16 arrays and the leaf are 18 levels.
    deep = "bottom"
    for _ in range(16):
        deep = [deep]
    write("store", "deep-user-info.qais", store_file([{"type": "deep", "title": "Deep", "userInfo": {"d": deep}}]))


if __name__ == "__main__":
    which = sys.argv[1:] or ["bundle", "plist", "dbus", "store"]
    for target in which:
        {"bundle": bundle_seeds, "plist": plist_seeds, "dbus": dbus_seeds, "store": store_seeds}[target]()
