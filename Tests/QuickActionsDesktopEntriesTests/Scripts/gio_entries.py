#!/usr/bin/python3
"""What GLib's Gio.DesktopAppInfo (the code GNOME Shell, Ubuntu Dock and Dash to Dock use)
makes of desktop entries, for the desktop-entry bridge's tests. XDG_DATA_HOME, XDG_DATA_DIRS,
LANGUAGE and LC_ALL come from the environment.

  gio_entries.py info ID            JSON: {"filename", "name", "actions": [{"id", "name"}]}
                                    or {"missing": true} when GLib has no such app
  gio_entries.py file PATH          the same for a file outside the data folders
  gio_entries.py launch ID ACTION OUT
                                    launch_action(ACTION) with the child's stdout and stderr on
                                    file OUT; waits for the child to exit; prints its pid
  gio_entries.py monitor ID SECONDS prints "ready", waits for Gio.AppInfoMonitor's "changed",
                                    then prints the info as above (exit 1 on timeout)
"""
import json
import os
import sys
import time

import gi
gi.require_version("Gio", "2.0")
gi.require_version("GLib", "2.0")
from gi.repository import Gio, GLib  # noqa: E402


def lookup(make, argument):
    """GLib's answer, or None where it has no such app (PyGObject raises for a NULL)."""
    try:
        return make(argument)
    except TypeError:
        return None


def describe(info):
    if info is None:
        return {"missing": True}
    return {
        "filename": info.get_filename(),
        "name": info.get_name(),
        "actions": [{"id": a, "name": info.get_action_name(a)} for a in info.list_actions()],
    }


def exited(pid):
    """Whether process pid has ended: reaped by us, or (GLib double-forks) gone or a zombie."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        return done == pid
    except ChildProcessError:
        pass
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def launch(app_id, action, out_path):
    info = lookup(Gio.DesktopAppInfo.new, app_id)
    if info is None:
        print(f"no app {app_id}", file=sys.stderr)
        return 2
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    saved_out, saved_err = os.dup(1), os.dup(2)
    pids = []
    context = Gio.AppLaunchContext()
    context.connect("launched", lambda _c, _i, data: pids.append(data.lookup_value("pid", None).get_int32()))
    os.dup2(out, 1)
    os.dup2(out, 2)
    try:
        info.launch_action(action, context)
    finally:
        os.dup2(saved_out, 1)
        os.dup2(saved_err, 2)
        os.close(out)
    if not pids:
        print("launch_action launched nothing", file=sys.stderr)
        return 3
    pid = pids[0]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if exited(pid):
            print(pid)
            return 0
        time.sleep(0.02)
    print(f"the launched process {pid} did not exit", file=sys.stderr)
    return 4


def monitor(app_id, seconds):
    loop = GLib.MainLoop()
    changed = []
    mon = Gio.AppInfoMonitor.get()

    def on_changed(_m):
        changed.append(True)
        loop.quit()

    mon.connect("changed", on_changed)
    # Reading the apps once makes GLib watch the folders.
    Gio.AppInfo.get_all()
    print("ready", flush=True)
    GLib.timeout_add(int(float(seconds) * 1000), loop.quit)
    loop.run()
    if not changed:
        print("no change signalled", file=sys.stderr)
        return 1
    # GLib re-reads the folders when asked after a change.
    print(json.dumps(describe(lookup(Gio.DesktopAppInfo.new, app_id))), flush=True)
    return 0


def main(argv):
    command = argv[1]
    if command == "info":
        print(json.dumps(describe(lookup(Gio.DesktopAppInfo.new, argv[2]))))
        return 0
    if command == "file":
        print(json.dumps(describe(lookup(Gio.DesktopAppInfo.new_from_filename, argv[2]))))
        return 0
    if command == "launch":
        return launch(argv[2], argv[3], argv[4])
    if command == "monitor":
        return monitor(argv[2], argv[3])
    print(f"unknown command {command}", file=sys.stderr)
    return 2


sys.exit(main(sys.argv))
