#!/usr/bin/env bash
# The main job on an embedded default: build, assemble the example plugins,
# start the broker with them, list every item and perform one.
#
# The broker runs on your session bus when there is one and nobody owns
# org.quickactions.Broker1 there yet; otherwise on a private bus this script
# starts itself. Either way the broker (and the private bus) stop at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/ensure-deps.sh
echo "==> Building"
# Every Perform runs in a plugin host (quickactions-host), one process per app: without it the
# first invoke fails. One `swift build --product` per product, as a plain build would also
# build the tests' plugins.
for product in quickactionsd quickactions quickactions-host quickactions-bundle \
  QuickActionsExampleContacts QuickActionsExampleStacks QuickActionsExampleMusic QuickActionsExampleFavorites; do
  swift build --product "$product" >/dev/null
done
bin=$(swift build --show-bin-path)

work=$(mktemp -d "${TMPDIR:-/tmp}/quickactions-demo.XXXXXX")
pids=()
# The broker stops first, then the bus: a broker that loses its bus before SIGTERM reaches it
# would exit without its orderly stop.
cleanup() {
  local index
  for ((index = ${#pids[@]} - 1; index >= 0; index--)); do
    kill "${pids[index]}" 2>/dev/null || true
    wait "${pids[index]}" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

echo "==> Assembling the example plugins into $work/plugins"
"$bin/quickactions-bundle" --products "$bin" --output "$work/plugins" >/dev/null

address=""
if [[ -n ${DBUS_SESSION_BUS_ADDRESS:-} ]] && busctl --user status org.freedesktop.DBus >/dev/null 2>&1 \
   && ! busctl --user status org.quickactions.Broker1 >/dev/null 2>&1; then
  echo "==> Using your session bus"
  address=$DBUS_SESSION_BUS_ADDRESS
else
  echo "==> Starting a private bus"
  dbus-daemon --config-file=dbus/test-bus.conf --nofork --print-address=3 3>"$work/address" 2>"$work/bus.log" &
  pids+=($!)
  for _ in $(seq 100); do [[ -s $work/address ]] && break; sleep 0.05; done
  address=$(head -n1 "$work/address")
fi

echo "==> Starting quickactionsd"
# --no-desktop-entries: the demo's apps are temporary; their icons' actions would outlive it.
"$bin/quickactionsd" --address "$address" --plugins "$work/plugins" --state-dir "$work/state" --no-desktop-entries \
  2>"$work/broker.log" &
pids+=($!)
for _ in $(seq 200); do
  busctl --address="$address" status org.quickactions.Broker1 >/dev/null 2>&1 && break
  sleep 0.05
done

qa() { "$bin/quickactions" --address "$address" "$@"; }
# Every installed application brings items too: its desktop actions, the documents it opened
# lately, the controls of what it plays. With few of them, one listing shows everything; with
# many, the examples and the first few of this machine's own.
installed=$(qa list --json | python3 -c '
import json, sys
apps = [group["app-id"] for group in json.load(sys.stdin)
        if any("provider" in item for item in group["items"])]
print(len(apps)); print("\n".join(apps[:3]))')
count=$(head -n1 <<<"$installed")
if [[ $count -le 6 ]]; then
  echo "==> quickactions list"
  qa list
  if [[ $count -eq 1 ]]; then echo "    (one of these is your installed applications', with no plugin of its own)"
  elif [[ $count -gt 1 ]]; then echo "    ($count of these are your installed applications, with no plugin of their own)"; fi
else
  echo "==> quickactions list APP (the example plugins)"
  for app in com.example.contacts com.example.favorites com.example.music com.example.stacks; do qa list "$app"; done
  echo
  echo "==> Your installed applications bring items too: $count of them; the first few"
  while read -r app; do [[ -n $app ]] && qa list "$app"; done < <(tail -n +2 <<<"$installed")
fi
[[ $count -gt 0 ]] || echo "    (no installed application here has desktop actions, recent documents or a playing player yet)"
echo
echo "==> quickactions invoke com.example.contacts SearchAction"
qa invoke com.example.contacts SearchAction
echo
echo "==> quickactions list com.example.contacts (the plugin has now set its dynamic favorites)"
qa list com.example.contacts
echo
echo "==> The same through busctl"
busctl --address="$address" call org.quickactions.Broker1 /org/quickactions/Broker1 \
  org.quickactions.Broker1 Perform ssa{sv} com.example.contacts ShareAction 0
