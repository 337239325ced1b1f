#!/usr/bin/env bash
# Installs what building and testing QuickActions needs, when it is missing:
# libdbus-1 headers, the bus daemon, the client tools the tests call (desktop-file-validate
# and GLib's Gio typelib judge the desktop entries the bridge writes), and zsh
# and fish so the CLI's completion scripts are loaded by real shells, and mpv with its MPRIS
# plugin and playerctl for the media-players provider, and python3-matplotlib for the
# benchmark's plots.
# As root it uses apt-get (one update, then install); otherwise it says what
# to install and fails.
set -euo pipefail

multiarch="/usr/lib/$(uname -m)-linux-gnu"
# command-or-file → Debian package
declare -A needs=(
  [/usr/include/dbus-1.0/dbus/dbus.h]=libdbus-1-dev
  [pkg-config]=pkgconf
  [dbus-daemon]=dbus-daemon
  [dbus-send]=dbus-bin
  [busctl]=systemd
  [gdbus]=libglib2.0-bin
  [/usr/lib/python3/dist-packages/dbus/__init__.py]=python3-dbus
  [/usr/lib/python3/dist-packages/gi/__init__.py]=python3-gi
  [$multiarch/girepository-1.0/Gio-2.0.typelib]=gir1.2-glib-2.0
  # libdbusmenu's own client, the library docks use (search bridge tests, issue 16)
  [$multiarch/girepository-1.0/Dbusmenu-0.4.typelib]=gir1.2-dbusmenu-glib-0.4
  # KRunner's own RunnerManager, built into a small harness with g++ (KRunnerManagerTests)
  [/usr/include/KF5/KRunner/KRunner/RunnerManager]=libkf5runner-dev
  [g++]=g++
  [desktop-file-validate]=desktop-file-utils
  [/usr/share/icons/Adwaita/index.theme]=adwaita-icon-theme
  [desktop-file-validate]=desktop-file-utils
  [/usr/lib/$(uname -m)-linux-gnu/girepository-1.0/Gio-2.0.typelib]=gir1.2-glib-2.0
  [zsh]=zsh
  [fish]=fish
  [prlimit]=util-linux
  [mount]=mount
  # make install: points installed files at the Swift runtime beside them, and strips them;
  # the install tests check the unit's Documentation=man: page with man.
  [patchelf]=patchelf
  [strip]=binutils
  [man]=man-db
  # A real MPRIS player and client for the media-players provider's tests (issue 33): mpv,
  # its MPRIS plugin (loaded with --script=, as the tests run mpv with --no-config), playerctl.
  [mpv]=mpv
  [/usr/lib/mpv-mpris/mpris.so]=mpv-mpris
  [playerctl]=playerctl
  # The benchmark's renderer draws BENCHMARKS.md's plots (scripts/render-benchmarks.py, issue 35);
  # its unit tests run in swift test (RenderScriptTests).
  [/usr/lib/python3/dist-packages/matplotlib/__init__.py]=python3-matplotlib
)

missing=()
for thing in "${!needs[@]}"; do
  if [[ $thing == /* ]]; then
    [[ -e $thing ]] || missing+=("${needs[$thing]}")
  else
    command -v "$thing" >/dev/null 2>&1 || missing+=("${needs[$thing]}")
  fi
done
# The interface files the search bridges implement, from their owners' Debian packages.
fetch_interfaces() { "$(dirname "$0")/fetch-interfaces.sh" || echo "warning: could not fetch the official interface files (scripts/fetch-interfaces.sh)" >&2; }
[[ ${#missing[@]} -eq 0 ]] && { fetch_interfaces; exit 0; }

mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [[ $(id -u) -ne 0 ]]; then
  echo "QuickActions needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fetch_interfaces
