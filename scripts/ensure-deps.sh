#!/usr/bin/env bash
# Installs what building and testing QuickActions needs, when it is missing:
# libdbus-1 headers, the bus daemon, the client tools the tests call, and zsh
# and fish so the CLI's completion scripts are loaded by real shells.
# As root it uses apt-get (one update, then install); otherwise it says what
# to install and fails.
set -euo pipefail

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
  [/usr/share/icons/Adwaita/index.theme]=adwaita-icon-theme
  [zsh]=zsh
  [fish]=fish
  [prlimit]=util-linux
  [mount]=mount
)

missing=()
for thing in "${!needs[@]}"; do
  if [[ $thing == /* ]]; then
    [[ -e $thing ]] || missing+=("${needs[$thing]}")
  else
    command -v "$thing" >/dev/null 2>&1 || missing+=("${needs[$thing]}")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

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
