#!/usr/bin/python3
"""The applications GLib shows (Gio.AppInfo.get_all(), then should_show(): what GNOME
Shell's app grid lists), as a sorted JSON list of desktop file ids. XDG_DATA_HOME,
XDG_DATA_DIRS, XDG_CURRENT_DESKTOP and PATH come from the environment.

  gio_shown.py
"""
import json

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio  # noqa: E402

print(json.dumps(sorted(info.get_id() for info in Gio.AppInfo.get_all() if info.should_show())))
