#!/usr/bin/env bash
# Remakes the README's pictures (docs/screenshots/) from the real programs, running headless:
# GNOME Shell's overview search, a Dash to Dock quicklist with the Contacts example's dynamic
# items, KRunner and `quickactions pick` with fzf in a terminal.
#
#   scripts/screenshots.sh [--only picker|gnome-shell|krunner]... [OUTPUT_DIR]
#                          (make screenshots: all of them, into docs/screenshots)
#
# Everything runs in a temporary folder: its own HOME and XDG folders, a private session bus and
# a private "system" bus (GNOME Shell asks logind there and would stop without one), the broker
# with the example plugins, GNOME Shell as a headless Wayland compositor with a virtual monitor,
# KRunner under Xvfb. All of it is stopped and removed at the end, whatever happens.
# As root it installs what is missing (see `needs` below); otherwise it says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
only=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --only) only+=("${2:?--only needs picker, gnome-shell or krunner}"); shift 2 ;;
    -h | --help) sed -n '2,/^set/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "screenshots.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ ${#only[@]} -gt 0 ]] || only=(picker gnome-shell krunner)
for name in "${only[@]}"; do
  [[ $name =~ ^(picker|gnome-shell|krunner)$ ]] || { echo "screenshots.sh: --only '$name': not picker, gnome-shell or krunner" >&2; exit 2; }
done
output=$(realpath -m "${1:-docs/screenshots}")
# What is typed: one letter in GNOME's overview shows items of several apps; KRunner asks our
# runner only from two letters on (its Config, MinLetterCount), and the app's name shows all
# of Contacts' items, the dynamic favorites too.
gnome_query=e
krunner_query=contacts
python=/usr/bin/python3 # Debian's, with PIL and gi: not a pyenv one in PATH

scripts/ensure-deps.sh
# command-or-file → Debian package
declare -A needs=(
  [gnome-shell]=gnome-shell
  [/usr/share/gnome-shell/extensions/dash-to-dock@micxgx.gmail.com/metadata.json]=gnome-shell-extension-dashtodock
  [/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf]=fonts-cantarell
  [/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf]=fonts-dejavu-core
  [/usr/share/icons/Adwaita/index.theme]=adwaita-icon-theme
  [tmux]=tmux
  [fzf]=fzf
  [Xvfb]=xvfb
  [krunner]=plasma-workspace
  [/usr/lib/python3/dist-packages/gi/__init__.py]=python3-gi
  [/usr/lib/$(uname -m)-linux-gnu/girepository-1.0/Gdk-3.0.typelib]=gir1.2-gtk-3.0
  [/usr/lib/python3/dist-packages/PIL/__init__.py]=python3-pil
)
missing=()
for thing in "${!needs[@]}"; do
  if [[ $thing == /* ]]; then
    [[ -e $thing ]] || missing+=("${needs[$thing]}")
  else
    command -v "$thing" >/dev/null 2>&1 || missing+=("${needs[$thing]}")
  fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  if [[ $(id -u) -ne 0 ]]; then
    echo "The screenshots need these Debian packages: ${missing[*]}" >&2
    echo "Install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  echo "==> Installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq -o DPkg::Lock::Timeout=600
  apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" >/dev/null
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/quickactions-screenshots.XXXXXX")
pids=()
# Stopped in reverse order: the programs, then the broker, then the buses.
cleanup() {
  local index
  if [[ -n ${tmux_socket:-} ]]; then tmux -S "$tmux_socket" kill-server 2>/dev/null || true; fi
  for ((index = ${#pids[@]} - 1; index >= 0; index--)); do
    kill "${pids[index]}" 2>/dev/null || true
    wait "${pids[index]}" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$output"
# Every temporary file in it, SwiftPM's too (it leaves TemporaryDirectory.* folders in TMPDIR).
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

echo "==> Building"
for product in quickactionsd quickactions quickactions-host quickactions-bundle \
  QuickActionsExampleContacts QuickActionsExampleStacks QuickActionsExampleMusic QuickActionsExampleFavorites; do
  swift build --product "$product" >/dev/null
done
bin=$(swift build --show-bin-path)

# ── A private desktop session's folders ─────────────────────────────────
export HOME=$work/home
export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache
export XDG_STATE_HOME=$HOME/.local/state XDG_RUNTIME_DIR=$work/runtime
# The one system data folder: /usr/share's contents, without its applications and search providers,
# so the pictures show the example apps alone, whatever is installed. GNOME reads search providers
# only from the system data folders: ours is there.
export XDG_DATA_DIRS=$work/share
export GSETTINGS_BACKEND=keyfile # settings in $XDG_CONFIG_HOME/glib-2.0/settings/keyfile, not dconf
export LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_AT_BRIDGE=1 GTK_A11Y=none
unset DISPLAY WAYLAND_DISPLAY SESSION_MANAGER
mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings" "$XDG_DATA_HOME/applications" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" \
  "$work/share/gnome-shell/search-providers" "$work/share/applications"
install -d -m 700 "$XDG_RUNTIME_DIR"
for entry in /usr/share/* /usr/share/gnome-shell/*; do
  case $entry in
    /usr/share/applications | /usr/share/gnome-shell | /usr/share/gnome-shell/search-providers) ;;
    *) ln -s "$entry" "$work/share/${entry#/usr/share/}" ;;
  esac
done

start_bus() { # start_bus NAME: a private bus; its address in $work/NAME.address
  dbus-daemon --config-file=dbus/test-bus.conf --nofork --print-address=3 3>"$work/$1.address" \
    >/dev/null 2>"$work/$1.log" &
  pids+=($!)
  for _ in $(seq 100); do [[ -s $work/$1.address ]] && break; sleep 0.05; done
}
start_bus session
start_bus system
DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/session.address")
DBUS_SYSTEM_BUS_ADDRESS=$(head -n1 "$work/system.address")
export DBUS_SESSION_BUS_ADDRESS DBUS_SYSTEM_BUS_ADDRESS

# The example apps' desktop entries: the dock shows them, and the dock bridge gives a quicklist
# to an app whose entry does not show its items itself (as these originals do not).
app_entry() { # app_entry ID NAME ICON
  cat >"$XDG_DATA_HOME/applications/$1.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=$2
Icon=$3
Exec=$bin/quickactions pick $1
Terminal=true
EOF
}
app_entry com.example.contacts Contacts x-office-address-book
app_entry com.example.music Music audio-x-generic
app_entry com.example.stacks Stacks view-grid
# The broker's GNOME Shell search provider, as make install puts it (docs/search.md).
cp desktop/org.quickactions.Search1.search-provider.ini "$work/share/gnome-shell/search-providers/"
sed "s|@bindir@|$bin|g" desktop/org.quickactions.QuickActions.desktop.in \
  >"$work/share/applications/org.quickactions.QuickActions.desktop"

# ── The broker ──────────────────────────────────────────────────────────
echo "==> Starting quickactionsd with the example plugins"
"$bin/quickactions-bundle" --products "$bin" --output "$work/plugins" >/dev/null
"$bin/quickactionsd" --address "$DBUS_SESSION_BUS_ADDRESS" --plugins "$work/plugins" --state-dir "$work/state" \
  --no-desktop-entries 2>"$work/broker.log" &
pids+=($!)
# The search bridges (GNOME Shell's provider, KRunner's runner, the dock's quicklists) take
# org.quickactions.Search1 once the broker serves.
served=false
for _ in $(seq 600); do
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" status org.quickactions.Search1 >/dev/null 2>&1 && { served=true; break; }
  sleep 0.05
done
$served || { echo "quickactionsd did not take org.quickactions.Search1 in 30 s; its log:" >&2; cat "$work/broker.log" >&2; exit 1; }
qa() { "$bin/quickactions" --address "$DBUS_SESSION_BUS_ADDRESS" "$@"; }
# The Contacts example sets its dynamic favorites after its first Perform; a few more give
# the frecency ranking something to rank.
qa invoke com.example.contacts SearchAction >/dev/null
qa invoke com.example.music PlayMusic >/dev/null
qa invoke com.example.stacks com.example.stacks.OpenFeatured >/dev/null
for _ in $(seq 100); do qa list com.example.contacts | grep -q dynamic && break; sleep 0.1; done
qa list

# Stops the program started last (the pictures of one program are made; it needs no CPU now).
stop_last() {
  local last=$((${#pids[@]} - 1))
  kill "${pids[last]}" 2>/dev/null || true
  wait "${pids[last]}" 2>/dev/null || true
  unset "pids[last]"
}

# ── The picker: quickactions pick with fzf, in tmux at 100x30 ──────────
shoot_picker() {
echo "==> quickactions pick in tmux"
tmux_socket=$work/tmux.socket
tmux -S "$tmux_socket" -f /dev/null new-session -d -x 100 -y 30 \
  "env TERM=tmux-256color $bin/quickactions --address '$DBUS_SESSION_BUS_ADDRESS' pick"
tmux -S "$tmux_socket" set-option -g status off
for _ in $(seq 100); do
  tmux -S "$tmux_socket" capture-pane -p | grep -q 'Quick action>' && break
  sleep 0.1
done
sleep 1
tmux -S "$tmux_socket" capture-pane -p -e >"$work/picker.ansi"
tmux -S "$tmux_socket" kill-server
tmux_socket=
"$python" scripts/screenshots/ansi-to-png.py "$work/picker.ansi" "$output/picker.png" \
  --columns 100 --rows 30 --title "quickactions pick"
}

# ── GNOME Shell, headless, with Dash to Dock ─────────────────────────────
shoot_gnome_shell() {
echo "==> GNOME Shell"
# Our own small extension turns on unsafe mode, so org.gnome.Shell.Eval and the screenshot
# interface answer the calls below (GNOME Shell 43 has no --unsafe-mode switch).
extension=$XDG_DATA_HOME/gnome-shell/extensions/quickactions-screenshots@quickactions.org
mkdir -p "$(dirname "$extension")"
cp -r scripts/screenshots/gnome-shell-extension "$extension"
cat >"$XDG_CONFIG_HOME/glib-2.0/settings/keyfile" <<'EOF'
[org/gnome/shell]
enabled-extensions=['quickactions-screenshots@quickactions.org', 'dash-to-dock@micxgx.gmail.com']
favorite-apps=['com.example.contacts.desktop', 'com.example.music.desktop', 'com.example.stacks.desktop']
welcome-dialog-last-shown-version='999'

[org/gnome/shell/extensions/dash-to-dock]
show-trash=false
show-mounts=false
dock-fixed=true
EOF
gnome-shell --headless --virtual-monitor 1280x800 --wayland --no-x11 >"$work/gnome-shell.log" 2>&1 &
pids+=($!)
shell_eval() { # shell_eval JS: prints what it returns; fails when it throws
  local reply
  reply=$(gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell \
    --method org.gnome.Shell.Eval "$1" 2>&1) || { echo "$reply" >&2; return 1; }
  [[ $reply == "(true, "* ]] || { echo "GNOME Shell: $reply" >&2; return 1; }
  printf '%s\n' "$reply"
}
shell_wait() { # shell_wait JS: until it returns true (about 20 s)
  for _ in $(seq 200); do
    [[ $(shell_eval "$1" 2>/dev/null) == "(true, 'true')" ]] && return 0
    sleep 0.1
  done
  echo "GNOME Shell: never true: $1 (log: $(tail -n 5 "$work/gnome-shell.log"))" >&2
  return 1
}
shell_screenshot() { # shell_screenshot FILE
  gdbus call --session --dest org.gnome.Shell.Screenshot --object-path /org/gnome/Shell/Screenshot \
    --method org.gnome.Shell.Screenshot.Screenshot false false "$1" >/dev/null
}
for _ in $(seq 300); do
  [[ $(shell_eval 'global.context.unsafe_mode' 2>/dev/null) == "(true, 'true')" ]] && break
  sleep 0.1
done
shell_wait 'global.context.unsafe_mode'
shell_wait 'Main.layoutManager._startingUp === false'
# Unsafe mode posts a notification; drop it, so it is not in the pictures.
shell_eval 'Main.messageTray.getSources().forEach(source => source.destroy()); true' >/dev/null

echo "==> GNOME Shell: overview search"
shell_eval 'Main.overview.show(); true' >/dev/null
shell_wait 'Main.overview.visible && !Main.overview.animationInProgress'
shell_eval "Main.overview.searchEntry.set_text('$gnome_query'); true" >/dev/null
# Until our provider (the one remote provider here) shows its results; then its icons load.
shell_wait "Main.overview._overview._controls._searchController._searchResults._providers.some(provider =>
  provider.isRemoteProvider && provider.display.visible && Object.keys(provider.display._resultDisplays).length >= 5)"
sleep 1
shell_screenshot "$output/gnome-shell-search.png"

echo "==> GNOME Shell: Dash to Dock quicklist"
shell_eval "Main.overview.searchEntry.set_text(''); Main.overview.hide(); true" >/dev/null
shell_wait '!Main.overview.visible && !Main.overview.animationInProgress'
shell_eval "$(cat scripts/screenshots/dock.js)" >/dev/null
shell_eval "quickActionsScreenshots.openMenu('com.example.contacts.desktop')" >/dev/null
# Dash to Dock reads the quicklist over dbusmenu when the menu opens; the favorites the
# Contacts example set as dynamic items must be in it.
shell_wait "quickActionsScreenshots.labels('com.example.contacts.desktop').includes('Mia Schneider')"
sleep 1
# The dock and its menu, with a margin: the rest of the screen is empty.
area=$(shell_eval "quickActionsScreenshots.area('com.example.contacts.desktop')")
# Eval answers (true, 'JSON'): here a JSON string, "x y width height".
read -r x y width height <<<"$(sed -E "s/^\(true, '\"?([^\"]*)\"?'\)$/\1/" <<<"$area")"
gdbus call --session --dest org.gnome.Shell.Screenshot --object-path /org/gnome/Shell/Screenshot \
  --method org.gnome.Shell.Screenshot.ScreenshotArea "$x" "$y" "$width" "$height" false \
  "$output/dash-to-dock-quicklist.png" >/dev/null
stop_last
}

# ── KRunner, under Xvfb ─────────────────────────────────────────────────
shoot_krunner() {
echo "==> KRunner"
# The broker wrote KRunner's runner file into $XDG_DATA_HOME/krunner/dbusplugins when it started.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/xvfb.display" >"$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -s $work/xvfb.display ]] && break; sleep 0.05; done
export DISPLAY=":$(head -n1 "$work/xvfb.display")"
QT_QPA_PLATFORM=xcb krunner >"$work/krunner.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" status org.kde.krunner >/dev/null 2>&1 && break
  sleep 0.1
done
gdbus call --session --dest org.kde.krunner --object-path /App --method org.kde.krunner.App.query "$krunner_query" >/dev/null
# The search field alone is about 50 pixels tall; the window grows as results arrive.
"$python" scripts/screenshots/x11-capture.py "$output/krunner.png" --taller-than 150
stop_last
stop_last
unset DISPLAY
}

for name in "${only[@]}"; do
  case $name in
    picker) shoot_picker ;;
    gnome-shell) shoot_gnome_shell ;;
    krunner) shoot_krunner ;;
  esac
done
# The versions that made them, in the pictures' README between its markers (when it has them).
versions() {
  echo "Made on $(. /etc/os-release && echo "$PRETTY_NAME") by \`make screenshots\` with:"
  echo
  echo "| Program | Debian package | Version |"
  echo "| --- | --- | --- |"
  local program package
  for program in "GNOME Shell:gnome-shell" "Mutter:libmutter-11-0" "Dash to Dock:gnome-shell-extension-dashtodock" \
    "KRunner:plasma-workspace" "KRunner's framework:libkf5runner5" "Xvfb:xvfb" "tmux:tmux" "fzf:fzf" \
    "PIL (draws the picker):python3-pil"; do
    package=${program##*:}
    echo "| ${program%:*} | $package | $(dpkg-query -W -f '${Version}' "$package" 2>/dev/null || echo "not installed") |"
  done
  echo "| quickactions | (commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)) | $("$bin/quickactions" --version | head -n1) |"
  echo "| Swift | | $(swift --version 2>/dev/null | sed -n '1s/.*Swift version \([^ ]*\).*/\1/p') |"
}
readme=$output/README.md
if [[ -f $readme ]] && grep -qx '<!-- versions -->' "$readme"; then
  versions >"$work/versions.md"
  "$python" - "$readme" "$work/versions.md" <<'EOF'
import re, sys
readme, versions = sys.argv[1], open(sys.argv[2]).read()
text = open(readme).read()
text = re.sub(r"(?ms)^<!-- versions -->\n.*?^<!-- /versions -->$",
              lambda _: "<!-- versions -->\n" + versions + "<!-- /versions -->", text)
open(readme, "w").write(text)
EOF
fi
echo "==> Wrote the pictures to $output"
