#!/usr/bin/python3
"""Calls org.gnome.Shell.SearchProvider2 on org.quickactions.Search1 the way gnome-shell does,
with python3's dbus, and checks every icon meta with Gio.Icon.deserialize (as gnome-shell's
remoteSearch.js does). Prints one JSON document.

    gnome_shell_client.py ADDRESS TERM...            initial results, metas, subsearch of the first term
    gnome_shell_client.py ADDRESS --activate ID      ActivateResult(ID, [], 0) and LaunchSearch
"""
import json
import sys

import dbus
import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib

NAME = "org.quickactions.Search1"
PATH = "/org/quickactions/Search1/GnomeShell"
IFACE = "org.gnome.Shell.SearchProvider2"


def to_glib(icon):
    """dbus-python's value of a serialised GIcon (sv) as the GLib.Variant gnome-shell gets."""
    tag, value = icon[0], icon[1]
    if isinstance(value, dbus.Array):
        inner = GLib.Variant("as", [str(v) for v in value])
    else:
        inner = GLib.Variant("s", str(value))
    return GLib.Variant("(sv)", (str(tag), inner))


def main():
    bus = dbus.bus.BusConnection(sys.argv[1])
    provider = dbus.Interface(bus.get_object(NAME, PATH), IFACE)
    if sys.argv[2] == "--activate":
        provider.ActivateResult(sys.argv[3], dbus.Array([], signature="s"), dbus.UInt32(0), timeout=60)
        provider.LaunchSearch(dbus.Array(["x"], signature="s"), dbus.UInt32(0))
        print(json.dumps({"activated": sys.argv[3]}))
        return
    terms = sys.argv[2:]
    initial = [str(r) for r in provider.GetInitialResultSet(terms)]
    subsearch = [str(r) for r in provider.GetSubsearchResultSet(initial, terms + ["zzz-no-match"])]
    narrowed = [str(r) for r in provider.GetSubsearchResultSet(initial, terms)]
    metas = []
    for meta in provider.GetResultMetas(initial + ["com.example.nothing/x", "junk"]):
        entry = {str(k): str(v) for k, v in meta.items() if k != "icon"}
        if "icon" in meta:
            icon = Gio.Icon.deserialize(to_glib(meta["icon"]))
            entry["icon"] = icon.to_string() if icon is not None else None
        metas.append(entry)
    print(json.dumps({"initial": initial, "subsearch_none": subsearch, "subsearch": narrowed, "metas": metas}))


main()
