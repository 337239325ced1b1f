#!/usr/bin/env bash
# Fetches the D-Bus interface files that QuickActions' search bridges implement, exactly as
# their owners publish them in Debian, into a cache folder (default .build/official-interfaces):
#   gnome-shell-common  usr/share/dbus-1/interfaces/org.gnome.ShellSearchProvider2.xml
#   libkf5runner5       usr/share/dbus-1/interfaces/kf5_org.kde.krunner1.xml
# Each package is downloaded with `apt-get download` and unpacked with `dpkg -x`; nothing is
# installed (none of their dependencies either). Packages already unpacked are skipped.
# The tests (QuickActionsSearchTests) compare the bridges' introspection with these files.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${1:-$root/.build/official-interfaces}"
declare -A files=(
  [gnome-shell-common]=usr/share/dbus-1/interfaces/org.gnome.ShellSearchProvider2.xml
  [libkf5runner5]=usr/share/dbus-1/interfaces/kf5_org.kde.krunner1.xml
)
mkdir -p "$cache"
for package in "${!files[@]}"; do
  [[ -f "$cache/$package/${files[$package]}" ]] && continue
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  if ! (cd "$work" && apt-get download -qq "$package" >/dev/null 2>&1); then
    # The package lists may be missing on a fresh machine.
    if [[ $(id -u) -eq 0 ]]; then apt-get update -qq; fi
    (cd "$work" && apt-get download -qq "$package" >/dev/null)
  fi
  rm -rf "$cache/$package"
  dpkg -x "$work"/"$package"_*.deb "$cache/$package"
  rm -rf "$work"
  trap - EXIT
  [[ -f "$cache/$package/${files[$package]}" ]] || { echo "$package has no ${files[$package]}" >&2; exit 1; }
done
