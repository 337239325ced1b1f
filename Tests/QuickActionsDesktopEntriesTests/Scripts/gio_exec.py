#!/usr/bin/python3
"""The command lines GLib's Gio.DesktopAppInfo starts for a desktop entry, for comparing
QuickActions' Exec expansion with GLib's (the code GNOME Shell and GTK launch apps with).

  gio_exec.py FILE ACTION OUT_DIR [URI...]
      Loads FILE (Gio.DesktopAppInfo.new_from_filename), then launches it: launch_uris(URIs)
      when ACTION is "-", else launch_action(ACTION). The entry's program must be a recorder
      that writes its arguments, NUL-separated, to OUT_DIR/<its pid> (renamed into place when
      complete). Prints a JSON list: for each process GLib started, in launch order, the
      arguments it received (without argv[0]).

The caller gives the environment: a temporary HOME and XDG folders, a PATH holding the
recorder, and a DBUS_SESSION_BUS_ADDRESS that leads nowhere.
"""
import json
import os
import sys
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio  # noqa: E402


def main(argv):
    path, action, out_dir, uris = argv[1], argv[2], argv[3], argv[4:]
    try:
        info = Gio.DesktopAppInfo.new_from_filename(path)
    except TypeError:
        info = None
    if info is None:
        print(f"GLib cannot load {path}", file=sys.stderr)
        return 2
    pids = []
    context = Gio.AppLaunchContext()
    context.connect("launched", lambda _c, _i, data: pids.append(data.lookup_value("pid", None).get_int32()))
    if action == "-":
        info.launch_uris(uris, context)
    else:
        info.launch_action(action, context)
    if not pids:
        print("GLib launched nothing", file=sys.stderr)
        return 3
    deadline = time.monotonic() + 60
    results = []
    for pid in pids:
        record = os.path.join(out_dir, str(pid))
        while not os.path.exists(record):
            if time.monotonic() > deadline:
                print(f"process {pid} recorded nothing", file=sys.stderr)
                return 4
            time.sleep(0.02)
        with open(record, "rb") as f:
            data = f.read()
        words = data.split(b"\0")[:-1] if data else []
        results.append([w.decode("utf-8", "surrogateescape") for w in words])
    print(json.dumps(results))
    return 0


sys.exit(main(sys.argv))
