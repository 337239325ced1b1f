#!/usr/bin/env bash
# Runs the commands README.md's "Using it" section tells a newcomer to type, exactly as
# written there, one line at a time, and checks what they print: so the README cannot drift
# from the code unseen. `.ci/run` runs it on every landing.
#
# Everything happens in a temporary HOME on a private bus this script starts (the README's
# `busctl --user` and the CLI reach it as the session bus); a line ending in `&` is waited
# for as a user would, until the broker owns its name. At the end every process started
# here is stopped and the temporary folders removed, also when a line fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/ensure-deps.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/quickactions-readme.XXXXXX")
bus_pid=""
jobs_started=()
cleanup() {
  local index
  for ((index = ${#jobs_started[@]} - 1; index >= 0; index--)); do
    kill "${jobs_started[index]}" 2>/dev/null || true
    wait "${jobs_started[index]}" 2>/dev/null || true
  done
  if [[ -n $bus_pid ]]; then kill "$bus_pid" 2>/dev/null || true; wait "$bus_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The section's shell blocks, comment lines and blank lines left out, a line ending in a
# backslash joined with the next.
mapfile -t lines < <(awk '
  /^## / { section = ($0 == "## Using it") }
  section && /^```sh/ { inside = 1; next }
  section && /^```/ { inside = 0; next }
  section && inside && !/^[[:space:]]*(#|$)/ {
    if (sub(/\\$/, "")) { pending = pending $0; next }
    print pending $0; pending = ""
  }
' README.md)
[[ ${#lines[@]} -ge 5 ]] || { echo "check-readme: found only ${#lines[@]} commands under \"## Using it\"" >&2; exit 1; }

dbus-daemon --config-file=dbus/test-bus.conf --nofork --print-address=3 3>"$work/address" 2>"$work/bus.log" &
bus_pid=$!
for _ in $(seq 100); do [[ -s $work/address ]] && break; sleep 0.05; done
mkdir -p "$work/home" "$work/runtime"
chmod 700 "$work/runtime"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime"
export DBUS_SESSION_BUS_ADDRESS
DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/address")
unset XDG_DATA_HOME XDG_CONFIG_HOME XDG_STATE_HOME XDG_CACHE_HOME DBUS_STARTER_ADDRESS

step=0
for line in "${lines[@]}"; do
  step=$((step + 1))
  echo "==> README: $line"
  if [[ $line =~ \&[[:space:]]*(#.*)?$ ]]; then
    eval "$line" >"$work/background-$step.log" 2>&1
    jobs_started+=($!)
    for _ in $(seq 400); do
      busctl --user status org.quickactions.Broker1 >/dev/null 2>&1 && break
      kill -0 "${jobs_started[-1]}" 2>/dev/null || { cat "$work/background-$step.log" >&2; echo "check-readme: '$line' ended" >&2; exit 1; }
      sleep 0.05
    done
    continue
  fi
  if ! (eval "$line") >"$work/step-$step.out" 2>&1; then
    cat "$work/step-$step.out" >&2
    echo "check-readme: README line failed: $line" >&2
    exit 1
  fi
  cat "$work/step-$step.out"
done

# What the lines must have shown, so a command that runs but does nothing is caught too.
expect() {
  grep -q -- "$2" "$work"/step-*.out || { echo "check-readme: no output shows $1 ($2)" >&2; exit 1; }
}
expect "the example apps listed" "Contacts (com.example.contacts)"
expect "the invoke's completion" "SearchAction triggered"
expect "busctl's Perform reply" "ShareAction triggered"
expect "the broker's object tree" "/org/quickactions/Broker1"
expect "the installed CLI's listing" "Stacks (com.example.stacks)"
[[ ! -e $HOME/.local/bin/quickactions ]] || { echo "check-readme: make uninstall left $HOME/.local/bin/quickactions" >&2; exit 1; }
echo "check-readme: ${#lines[@]} README commands ran as written"
