#!/usr/bin/env bash
# Installs QuickActions into $DESTDIR$PREFIX from already-built products, and
# writes a manifest of every file it installed and every folder it created, so
# that scripts/uninstall.sh removes exactly those. Called by `make install`
# (see docs/install.md); every variable below comes from the Makefile.
#
# Paths in the manifest are the installed paths (without DESTDIR), one per
# line: "f <path>" for a file, "d <path>" for a folder install created. A
# previous install recorded by a manifest is uninstalled first, so files a new
# version no longer ships do not linger.
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
  SYSTEMD_USER_UNIT_DIR PLUGIN_DIR MANIFEST; do
  value=${!variable}
  [[ $value == /* ]] || fail "$variable \"$value\" is not an absolute path"
  [[ /$value/ != */../* ]] || fail "$variable \"$value\" contains \"..\""
done
[[ -d $PRODUCTS ]] || fail "PRODUCTS \"$PRODUCTS\" is not a folder of built products (run make install without PRODUCTS to build them)"

if [[ -f $DESTDIR$MANIFEST ]]; then
  echo "install: removing the previous install recorded in $DESTDIR$MANIFEST" >&2
  DESTDIR=$DESTDIR MANIFEST=$MANIFEST "$here/uninstall.sh"
fi
if [[ -n $DESTDIR ]]; then
  mkdir -p -- "$DESTDIR"
fi

entries=()
staging=$(mktemp -d "${TMPDIR:-/tmp}/quickactions-install.XXXXXX")

# write_manifest: records every file installed and every folder made so far,
# including the manifest's own folder. Also run when install fails half-way,
# so that `make uninstall` can still clean up what it left.
write_manifest() {
  make_dir "$(dirname -- "$MANIFEST")"
  {
    echo "# QuickActions install manifest: what \`make install\` put here; \`make uninstall\` removes exactly this."
    printf '%s\n' "${entries[@]}"
  } >"$DESTDIR$MANIFEST.tmp"
  chmod 644 -- "$DESTDIR$MANIFEST.tmp"
  mv -f -- "$DESTDIR$MANIFEST.tmp" "$DESTDIR$MANIFEST"
}
finish() {
  local status=$?
  rm -rf -- "$staging"
  if ((status != 0 && ${#entries[@]} > 0)); then
    write_manifest
    echo "install: failed; what was installed is listed in $DESTDIR$MANIFEST for make uninstall" >&2
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

# Executables.
for binary in $BINARIES; do
  put 755 "$PRODUCTS/$binary" "$BINDIR/$binary"
done

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
  done < <(find "$staging/plugins" -mindepth 2 -type f -print0 | sort -z)
fi

write_manifest
echo "install: installed $(grep -c '^f ' "$DESTDIR$MANIFEST") files into $DESTDIR$PREFIX; manifest: $DESTDIR$MANIFEST" >&2
