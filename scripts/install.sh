#!/usr/bin/env bash
# Installs QuickActions into $DESTDIR$PREFIX from already-built products, and
# writes a manifest of every file it installed and every folder it created, so
# that scripts/uninstall.sh removes exactly those. Called by `make install`
# (see docs/install.md); every variable below comes from the Makefile.
#
# Paths in the manifest are the installed paths (without DESTDIR), one per
# line: "f <path>" for a file, "d <path>" for a folder install created. A
# previous install recorded by a manifest is uninstalled first, so files a new
# version no longer ships do not linger. The manifest is written to
# $MANIFEST_FILE: for a live install, $MANIFEST in the installed tree; for a
# staged one (DESTDIR), the Makefile points it into the build tree, so the
# staged tree holds the payload alone.
#
# The executables and the example plugins link the Swift runtime as shared
# libraries. Those the toolchain provides are copied into $SWIFT_RUNTIME_DIR
# and every installed file that uses them finds them there ($ORIGIN-relative
# RUNPATH), so nothing installed needs the toolchain at run time. Not linked
# statically: Swift plugins the broker loads link the shared runtime, and
# one process must not hold two Swift runtimes (docs/install.md).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

: "${PREFIX:?PREFIX is not set}"
: "${PRODUCTS:?PRODUCTS (the folder of built executables) is not set}"
DESTDIR=${DESTDIR:-}
BINDIR=${BINDIR:-$PREFIX/bin}
DATADIR=${DATADIR:-$PREFIX/share}
MANDIR=${MANDIR:-$DATADIR/man}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
DBUS_SERVICES_DIR=${DBUS_SERVICES_DIR:-$DATADIR/dbus-1/services}
DBUS_INTERFACES_DIR=${DBUS_INTERFACES_DIR:-$DATADIR/dbus-1/interfaces}
SYSTEMD_USER_UNIT_DIR=${SYSTEMD_USER_UNIT_DIR:-$PREFIX/lib/systemd/user}
PLUGIN_DIR=${PLUGIN_DIR:-$DATADIR/quickactions/plugins}
MANIFEST=${MANIFEST:-$DATADIR/quickactions/install-manifest.txt}
MANIFEST_FILE=${MANIFEST_FILE:-$DESTDIR$MANIFEST}
SWIFT_RUNTIME_DIR=${SWIFT_RUNTIME_DIR:-$PREFIX/lib/quickactions/swift}
# Strips installed executables and plugins; STRIP= (empty) keeps their symbols.
STRIP=${STRIP-strip}
# Executables to install from $PRODUCTS; whether to install the CLI's
# completion scripts, and the example plugins (assembled from plugins/ and
# the built libraries in $PRODUCTS by quickactions-bundle).
BINARIES=${BINARIES:-quickactionsd quickactions}
COMPLETIONS=${COMPLETIONS:-yes}
EXAMPLES=${EXAMPLES:-yes}

fail() {
  echo "install: $*" >&2
  exit 1
}

for variable in PREFIX BINDIR DATADIR MANDIR INCLUDEDIR DBUS_SERVICES_DIR DBUS_INTERFACES_DIR \
  SYSTEMD_USER_UNIT_DIR PLUGIN_DIR MANIFEST SWIFT_RUNTIME_DIR; do
  value=${!variable}
  [[ $value == /* ]] || fail "$variable \"$value\" is not an absolute path"
  [[ /$value/ != */../* ]] || fail "$variable \"$value\" contains \"..\""
done
command -v patchelf >/dev/null 2>&1 || fail "patchelf is missing (Debian package patchelf): it points the installed files at the Swift runtime installed beside them"
if [[ -n $STRIP ]]; then
  command -v "$STRIP" >/dev/null 2>&1 || fail "$STRIP is missing (binutils); give STRIP= to install unstripped"
fi
[[ -d $PRODUCTS ]] || fail "PRODUCTS \"$PRODUCTS\" is not a folder of built products (run make install without PRODUCTS to build them)"

if [[ -f $MANIFEST_FILE ]]; then
  echo "install: removing the previous install recorded in $MANIFEST_FILE" >&2
  DESTDIR=$DESTDIR MANIFEST=$MANIFEST MANIFEST_FILE=$MANIFEST_FILE "$here/uninstall.sh"
fi
if [[ -n $DESTDIR ]]; then
  mkdir -p -- "$DESTDIR"
fi

entries=()
staging=$(mktemp -d "${TMPDIR:-/tmp}/quickactions-install.XXXXXX")

# write_manifest: records every file installed and every folder made so far,
# including the manifest's own folder when it is in the installed tree. Also
# run when install fails half-way, so that `make uninstall` can still clean
# up what it left.
write_manifest() {
  if [[ $MANIFEST_FILE == "$DESTDIR$MANIFEST" ]]; then
    make_dir "$(dirname -- "$MANIFEST")"
  else
    mkdir -p -- "$(dirname -- "$MANIFEST_FILE")"
  fi
  {
    echo "# QuickActions install manifest: what \`make install\` put under ${DESTDIR:-/}; \`make uninstall\` removes exactly this."
    printf '%s\n' "${entries[@]}"
  } >"$MANIFEST_FILE.tmp"
  chmod 644 -- "$MANIFEST_FILE.tmp"
  mv -f -- "$MANIFEST_FILE.tmp" "$MANIFEST_FILE"
}
finish() {
  local status=$?
  rm -rf -- "$staging"
  if ((status != 0 && ${#entries[@]} > 0)); then
    write_manifest
    echo "install: failed; what was installed is listed in $MANIFEST_FILE for make uninstall" >&2
  fi
}
trap finish EXIT

# make_dir DIR: creates DIR (an installed path) and its missing parents,
# recording each folder it created, outermost first.
make_dir() {
  local dir=$1 missing=() i
  while [[ $dir != / && ! -d $DESTDIR$dir ]]; do
    missing+=("$dir")
    dir=$(dirname -- "$dir")
  done
  for ((i = ${#missing[@]} - 1; i >= 0; i--)); do
    mkdir -m 755 -- "$DESTDIR${missing[i]}"
    entries+=("d ${missing[i]}")
  done
}

# put MODE SOURCE DEST: installs SOURCE as DEST (an installed path).
put() {
  local mode=$1 source=$2 dest=$3
  [[ -f $source ]] || fail "$source is missing"
  make_dir "$(dirname -- "$dest")"
  install -m "$mode" -- "$source" "$DESTDIR$dest"
  entries+=("f $dest")
}

# substitute SOURCE: SOURCE with @bindir@ replaced by $BINDIR, without the
# template's comments about the placeholder itself.
substitute() {
  local escaped
  escaped=$(printf '%s' "$BINDIR" | sed -e 's/[\\|&]/\\&/g')
  sed -e '/^#.*@bindir@/d' -e "s|@bindir@|$escaped|g" -- "$1"
}

# Installed ELF files (installed paths) that need the Swift runtime, and the
# runtime libraries they load from the toolchain (source paths).
swift_users=()
declare -A runtime=()

# note_runtime SOURCE DEST: records DEST (installed from SOURCE) as needing the
# toolchain's Swift runtime libraries that SOURCE loads, if it loads any.
note_runtime() {
  local source=$1 dest=$2 listing core folder path
  listing=$(LD_LIBRARY_PATH='' ldd -- "$source" 2>&1) || fail "ldd $source failed: $listing"
  if grep -q 'not found' <<<"$listing"; then
    fail "$source needs libraries that are not found: $(grep 'not found' <<<"$listing" | tr -s ' \t' ' ')"
  fi
  core=$(awk '$1 == "libswiftCore.so" && $2 == "=>" { print $3 }' <<<"$listing")
  [[ -n $core ]] || return 0
  folder=$(dirname -- "$core")
  while IFS= read -r path; do
    [[ -n $path ]] && runtime[$(basename -- "$path")]=$path
  done < <(awk -v folder="$folder/" '$2 == "=>" && index($3, folder) == 1 { print $3 }' <<<"$listing")
  swift_users+=("$dest")
}

# strip_installed DEST: strips an installed executable or plugin, unless STRIP is empty.
strip_installed() {
  [[ -z $STRIP ]] || "$STRIP" --strip-unneeded -- "$DESTDIR$1" || fail "$STRIP $DESTDIR$1 failed"
}

# Executables.
for binary in $BINARIES; do
  put 755 "$PRODUCTS/$binary" "$BINDIR/$binary"
  strip_installed "$BINDIR/$binary"
  note_runtime "$PRODUCTS/$binary" "$BINDIR/$binary"
done

# The plugin host, started by the broker for each app's plugin (it looks in
# ../libexec/quickactions beside its own folder).
if [[ -x $PRODUCTS/quickactions-host ]]; then
  put 755 "$PRODUCTS/quickactions-host" "$PREFIX/libexec/quickactions/quickactions-host"
  strip_installed "$PREFIX/libexec/quickactions/quickactions-host"
  note_runtime "$PRODUCTS/quickactions-host" "$PREFIX/libexec/quickactions/quickactions-host"
fi

# The broker on demand: D-Bus activation and the systemd user unit, both
# starting the installed quickactionsd.
substitute "$root/dbus/org.quickactions.Broker1.service.in" >"$staging/org.quickactions.Broker1.service"
put 644 "$staging/org.quickactions.Broker1.service" "$DBUS_SERVICES_DIR/org.quickactions.Broker1.service"
substitute "$root/dbus/quickactionsd.service.in" >"$staging/quickactionsd.service"
put 644 "$staging/quickactionsd.service" "$SYSTEMD_USER_UNIT_DIR/quickactionsd.service"

# The search bridges (docs/search.md): D-Bus activation of org.quickactions.Search1 (the same
# quickactionsd), GNOME Shell's search provider with the desktop entry it names, and KRunner's
# runner file (the broker also writes that one per user at start).
substitute "$root/dbus/org.quickactions.Search1.service.in" >"$staging/org.quickactions.Search1.service"
put 644 "$staging/org.quickactions.Search1.service" "$DBUS_SERVICES_DIR/org.quickactions.Search1.service"
put 644 "$root/desktop/org.quickactions.Search1.search-provider.ini" \
  "$DATADIR/gnome-shell/search-providers/org.quickactions.Search1.search-provider.ini"
substitute "$root/desktop/org.quickactions.QuickActions.desktop.in" >"$staging/org.quickactions.QuickActions.desktop"
put 644 "$staging/org.quickactions.QuickActions.desktop" "$DATADIR/applications/org.quickactions.QuickActions.desktop"
put 644 "$root/desktop/org.quickactions.Search1.krunner.desktop" "$DATADIR/krunner/dbusplugins/org.quickactions.Search1.desktop"

# The D-Bus contract, for launcher authors, and the plugin ABI header, for plugin authors.
for xml in "$root"/dbus/org.quickactions.*.xml; do
  put 644 "$xml" "$DBUS_INTERFACES_DIR/$(basename -- "$xml")"
done
put 644 "$root/Sources/CQuickActionsPlugin/include/quickactions_plugin.h" "$INCLUDEDIR/quickactions/quickactions_plugin.h"

# Man pages.
for page in "$root"/docs/man/*.1; do
  put 644 "$page" "$MANDIR/man1/$(basename -- "$page")"
done

# Completion scripts, generated by the CLI itself.
if [[ $COMPLETIONS == yes ]]; then
  for shell in bash zsh fish; do
    out="$staging/completion.$shell"
    "$PRODUCTS/quickactions" completion "$shell" >"$out" || fail "quickactions completion $shell failed"
    [[ -s $out ]] || fail "quickactions completion $shell printed nothing"
    case $shell in
      bash) dest=$DATADIR/bash-completion/completions/quickactions ;;
      zsh) dest=$DATADIR/zsh/site-functions/_quickactions ;;
      fish) dest=$DATADIR/fish/vendor_completions.d/quickactions.fish ;;
    esac
    put 644 "$out" "$dest"
  done
fi

# Example plugins: every bundle folder, libraries executable, the rest read-only.
if [[ $EXAMPLES == yes ]]; then
  assembler=$PRODUCTS/quickactions-bundle
  [[ -x $assembler ]] || fail "$assembler is missing: it assembles the example plugins"
  "$assembler" --products "$PRODUCTS" --source "$root/plugins" --output "$staging/plugins" >/dev/null \
    || fail "quickactions-bundle could not assemble the example plugins"
  while IFS= read -r -d '' file; do
    relative=${file#"$staging/plugins"/}
    mode=644
    [[ $file == *.so ]] && mode=755
    put "$mode" "$file" "$PLUGIN_DIR/$relative"
    if [[ $file == *.so ]]; then
      strip_installed "$PLUGIN_DIR/$relative"
      note_runtime "$file" "$PLUGIN_DIR/$relative"
    fi
  done < <(find "$staging/plugins" -mindepth 2 -type f -print0 | sort -z)
fi

# The Swift runtime, beside the files that use it; each of those finds it
# through a RUNPATH relative to its own folder, in place of the toolchain's.
if ((${#swift_users[@]} > 0)); then
  for name in $(printf '%s\n' "${!runtime[@]}" | sort); do
    put 755 "${runtime[$name]}" "$SWIFT_RUNTIME_DIR/$name"
  done
  for dest in "${swift_users[@]}"; do
    relative=$(realpath -m -s --relative-to="$(dirname -- "$dest")" -- "$SWIFT_RUNTIME_DIR")
    patchelf --set-rpath "\$ORIGIN/$relative" "$DESTDIR$dest" || fail "patchelf could not set the RUNPATH of $DESTDIR$dest"
  done
fi

write_manifest
echo "install: installed $(grep -c '^f ' "$MANIFEST_FILE") files into $DESTDIR$PREFIX; manifest: $MANIFEST_FILE" >&2
