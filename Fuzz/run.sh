#!/usr/bin/env bash
# Builds and runs the libFuzzer targets (see FUZZING.md).
#
#   Fuzz/run.sh smoke               build, check the seeds, replay Fuzz/Regressions, then fuzz
#                                   each target for FUZZ_SMOKE_SECONDS (default 10); for CI
#   Fuzz/run.sh long [target...]    fuzz each target for FUZZ_SECONDS (default 1800), keeping
#                                   the grown corpus in .build/fuzz/corpus/<target>
#   Fuzz/run.sh build [target...]   only build .build/fuzz/bin-Onone/fuzz-<target>
#   Fuzz/run.sh replay <target> <file>...   run the target on saved inputs (reproduce a finding)
#   Fuzz/run.sh seeds               regenerate Fuzz/Corpus with Fuzz/Seeds/make-seeds.py
#
# Targets: bundle (Info.plist and .strings), plist (the XML property-list reader alone), dbus
# (D-Bus message values), store (the dynamic-item store's file format). Each is one binary
# built with swiftc straight from the module's sources (outside SwiftPM, so `swift build` is untouched), instrumented with
# -sanitize=fuzzer,address. Findings (crash-*, leak-*, timeout-*, oom-*) go to
# Fuzz/Findings/<target>/, which git ignores. Exit status: 0 clean, 1 a finding or a failed
# build, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
ALL_TARGETS=(bundle plist dbus store)

# Swift's crash backtracer would attach to the dying fuzzer and stall it for minutes; libFuzzer
# and AddressSanitizer print the stack themselves.
export SWIFT_BACKTRACE=enable=no
# Leak reports we know to be false or outside our code; each entry is justified in the file.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

die() { echo "fuzz: $*" >&2; exit 2; }

check_target() {
  case $1 in bundle | plist | dbus | store) ;; *) die "unknown target '$1' (targets: ${ALL_TARGETS[*]})" ;; esac
}

# The sources and extra flags of each target.
sources() {
  case $1 in
    bundle) find Sources/QuickActionsModel Sources/QuickActionsIconFiles Sources/QuickActionsBundles Fuzz/Targets/BundleReading -name '*.swift' ;;
    plist) find Sources/QuickActionsModel Sources/QuickActionsIconFiles Sources/QuickActionsBundles Fuzz/Targets/PropertyListReading -name '*.swift' ;;
    dbus) find Sources/DBus Sources/WorkQueues Fuzz/Targets/DBusValues -name '*.swift' ;;
    store) find Sources/QuickActionsModel Sources/QuickActionsIconFiles Sources/QuickActionsBundles Fuzz/Targets/ItemStore -name '*.swift' ;;
  esac
  # The modules import Locking; its one file is compiled into the target (see module_stubs).
  find Sources/Locking -name '*.swift'
  echo Fuzz/Support/FuzzSupport.swift
}

# Empty modules named Locking, QuickActionsModel, QuickActionsIconFiles and WorkQueues, so
# `import Locking`, (in QuickActionsBundles) `import QuickActionsModel` and its re-export of
# QuickActionsIconFiles, and (in DBus) `import WorkQueues` resolve while their sources are
# compiled into the target's own module with the rest. WorkQueues' C half, CWorkQueues, gets a
# module map of its own and its one C file compiled beside (see flags).
module_stubs() {
  local folder="$OUT/modules" name
  mkdir -p "$folder" "$OUT/cmodules/CWorkQueues"
  printf 'module CWorkQueues {\n  header "%s"\n  export *\n}\n' \
    "$PWD/Sources/CWorkQueues/include/work_queues.h" >"$OUT/cmodules/CWorkQueues/module.modulemap"
  "$(dirname "$(command -v "$SWIFTC")")/clang" -c -O1 -g -I Sources/CWorkQueues/include \
    Sources/CWorkQueues/work_queues.c -o "$OUT/cmodules/work_queues.o" || return 1
  for name in Locking QuickActionsModel QuickActionsIconFiles WorkQueues; do
    [[ -f $folder/$name.swiftmodule ]] && continue
    : >"$folder/$name.swift"
    "$SWIFTC" -parse-as-library -emit-module -module-name "$name" -emit-module-path "$folder/$name.swiftmodule" \
      "$folder/$name.swift" || return 1
  done
}

flags() {
  if [[ $1 == dbus ]]; then
    # The CDBus module map, libdbus's headers (via pkg-config) and the library.
    echo -I Sources/CDBus
    for flag in $(pkg-config --cflags dbus-1); do echo -Xcc "$flag"; done
    pkg-config --libs dbus-1
    echo -I "$OUT/cmodules/CWorkQueues"
    echo "$OUT/cmodules/work_queues.o"
  fi
}

# Smoke runs build without optimisation (a third of the compile time, and about as many inputs
# per second on these small targets); long runs build with -O. Each level has its own folder.
OPT=-Onone
binary() { echo "$OUT/bin$OPT/fuzz-$1"; }

# Builds one target unless its binary is newer than every source.
build_one() {
  local target=$1 bin
  bin=$(binary "$target")
  local -a files
  mapfile -t files < <(sources "$target" | sort)
  if [[ -x $bin ]] && [[ -z $(find "${files[@]}" "$0" -newer "$bin" 2>/dev/null | head -1) ]]; then
    return 0
  fi
  mkdir -p "$(dirname "$bin")" "$OUT/logs"
  local -a extra
  mapfile -t extra < <(flags "$target" | tr ' ' '\n' | grep -v '^$')
  # -parse-as-library: the files have no top-level code; libFuzzer supplies main().
  # Compiling the module's sources into the target's own module makes internal API reachable;
  # -package-name allows the `package` declarations the model core shares with QuickActionsBundles.
  if ! "$SWIFTC" -parse-as-library -module-name "Fuzz_$target" -package-name QuickActions "$OPT" -g -I "$OUT/modules" \
    -sanitize=fuzzer,address -use-ld=lld "${extra[@]}" "${files[@]}" -o "$bin" \
    >"$OUT/logs/build-$target$OPT.log" 2>&1; then
    cat "$OUT/logs/build-$target$OPT.log" >&2
    echo "fuzz: building $target failed" >&2
    return 1
  fi
  # The build must stay warning-free, as `swift build` must.
  if grep -q 'warning:' "$OUT/logs/build-$target$OPT.log"; then
    cat "$OUT/logs/build-$target$OPT.log" >&2
    echo "fuzz: building $target printed warnings" >&2
    return 1
  fi
}

# Builds the given targets in parallel (they share no files).
build() {
  local -a pids=()
  local target status=0
  module_stubs || return 1
  for target in "$@"; do
    build_one "$target" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
  return $status
}

# Options every run shares: a hang is any input taking 10 s; 2 GB of RSS is a leak or a blow-up.
common_options=(-timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1)

# Runs libFuzzer with its log in .build/fuzz/logs/<name>.log (Foundation writes a line per broken
# old-style plist to stderr, far too much for CI); on failure, prints the report.
run_logged() {
  local name=$1
  shift
  local log="$OUT/logs/$name.log"
  if "$@" >"$log" 2>&1; then
    # The last status line (plain and fork mode print different ones) and the final stats.
    local replayed
    replayed=$(grep -c '^Executed ' "$log" || true)
    echo "  $name: $( ( ((replayed)) && echo "$replayed inputs replayed"; grep -E '^#[0-9]+' "$log" | tail -1
      grep -E '^stat::peak_rss_mb' "$log") | tr -s ' \t\n' ' ')"
    return 0
  fi
  echo "fuzz: $name FAILED; report (full log: $log):" >&2
  grep -v 'CFPropertyListCreateFromXMLData' "$log" | grep -A60 -E '==ERROR|FUZZ PROPERTY FAILED|SEED REJECTED|ERROR: libFuzzer|Test unit written' | head -120 >&2
  return 1
}

# Replays the committed inputs; with QA_FUZZ_SEEDS_MUST_PARSE=1 every seed must also be accepted.
check_inputs() {
  local target=$1 bin
  bin=$(binary "$target")
  local -a seeds regressions
  local status=0
  mapfile -t seeds < <(find "Fuzz/Corpus/$target" -type f | sort)
  run_logged "seeds-$target" env QA_FUZZ_SEEDS_MUST_PARSE=1 "$bin" "${common_options[@]}" "${seeds[@]}" || status=1
  if [[ -d Fuzz/Regressions/$target ]]; then
    mapfile -t regressions < <(find "Fuzz/Regressions/$target" -type f | sort)
    if ((${#regressions[@]})); then
      run_logged "regressions-$target" "$bin" "${common_options[@]}" "${regressions[@]}" || status=1
    fi
  fi
  return $status
}

# libFuzzer options particular to a target.
target_options() {
  # Foundation leaks on every property list it refuses (Fuzz/lsan.supp), so nearly every mutation
  # of a bundle input looks like a leak and libFuzzer re-runs it under LeakSanitizer: 30 times
  # fewer inputs per second. Skip that per-input check; the check at exit still runs, and would
  # report any leak of ours (it just cannot name the input).
  if [[ $1 == bundle ]]; then echo -detect_leaks=0; fi
}

# Fuzzes one target for $2 seconds. New inputs go to the working corpus $3; the committed seeds
# and regressions are read only.
fuzz() {
  local target=$1 seconds=$2 corpus=$3
  shift 3
  mkdir -p "$corpus" "Fuzz/Findings/$target"
  local -a inputs=("$corpus" "Fuzz/Corpus/$target")
  [[ -d Fuzz/Regressions/$target ]] && inputs+=("Fuzz/Regressions/$target")
  local -a extra
  mapfile -t extra < <(target_options "$target")
  run_logged "fuzz-$target" "$(binary "$target")" "${common_options[@]}" "${extra[@]}" "$@" \
    -max_total_time="$seconds" -artifact_prefix="Fuzz/Findings/$target/" "${inputs[@]}"
}

command=${1:-}
[[ -n $command ]] || die "usage: Fuzz/run.sh smoke | long [target...] | build [target...] | replay <target> <file>... | seeds"
shift
case $command in
  build)
    targets=("${@:-${ALL_TARGETS[@]}}")
    for t in "${targets[@]}"; do check_target "$t"; done
    build "${targets[@]}"
    ;;
  smoke)
    seconds=${FUZZ_SMOKE_SECONDS:-10}
    start=$SECONDS
    build "${ALL_TARGETS[@]}"
    echo "fuzz: built in $((SECONDS - start)) s; fuzzing each target for $seconds s"
    status=0
    for t in "${ALL_TARGETS[@]}"; do
      rm -rf "$OUT/smoke/$t"
      check_inputs "$t" || status=1
      fuzz "$t" "$seconds" "$OUT/smoke/$t" || status=1
      rm -rf "$OUT/smoke/$t"
    done
    echo "fuzz: smoke $([[ $status == 0 ]] && echo passed || echo FAILED) in $((SECONDS - start)) s"
    exit $status
    ;;
  long)
    OPT=-O
    targets=("${@:-${ALL_TARGETS[@]}}")
    for t in "${targets[@]}"; do check_target "$t"; done
    build "${targets[@]}"
    status=0
    for t in "${targets[@]}"; do
      echo "fuzz: $t for ${FUZZ_SECONDS:-1800} s with ${FUZZ_JOBS:-1} worker(s); log in $OUT/logs/fuzz-$t.log"
      # Fork mode restarts the worker now and then, so Foundation's leaks on broken property
      # lists (see Fuzz/lsan.supp) cannot add up to the RSS limit over a long run.
      fuzz "$t" "${FUZZ_SECONDS:-1800}" "$OUT/corpus/$t" -fork="${FUZZ_JOBS:-1}" -use_value_profile=1 || status=1
    done
    exit $status
    ;;
  replay)
    (($# >= 2)) || die "usage: Fuzz/run.sh replay <target> <file>..."
    check_target "$1"
    build "$1"
    bin=$(binary "$1")
    shift
    "$bin" "${common_options[@]}" "$@"
    ;;
  seeds)
    /usr/bin/python3 Fuzz/Seeds/make-seeds.py "$@"
    ;;
  *)
    die "unknown command '$command'"
    ;;
esac
