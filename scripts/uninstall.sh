#!/usr/bin/env bash
# Removes exactly what scripts/install.sh installed into $DESTDIR, as its
# manifest ($MANIFEST_FILE, else $DESTDIR$MANIFEST) lists: every file, then the manifest, then every folder install
# created, deepest first, when it is empty (a folder holding files someone
# else put there is kept, and said so). Called by `make uninstall`.
set -euo pipefail

: "${MANIFEST:?MANIFEST, the path of the installed manifest, is not set}"
DESTDIR=${DESTDIR:-}
manifest=${MANIFEST_FILE:-$DESTDIR$MANIFEST}

if [[ ! -f $manifest ]]; then
  echo "uninstall: no install manifest at $manifest: nothing was installed there with these DESTDIR and PREFIX" >&2
  exit 1
fi

files=()
folders=()
line_number=0
while IFS= read -r line || [[ -n $line ]]; do
  line_number=$((line_number + 1))
  [[ -z $line || $line == \#* ]] && continue
  kind=${line%% *}
  path=${line#* }
  if [[ $path != /* || /$path/ == */../* || $kind == "$line" ]]; then
    echo "uninstall: $manifest:$line_number: \"$line\" is not \"f PATH\" or \"d PATH\" with an absolute PATH; stopping" >&2
    exit 1
  fi
  case $kind in
    f) files+=("$path") ;;
    d) folders+=("$path") ;;
    *)
      echo "uninstall: $manifest:$line_number: unknown kind \"$kind\"; stopping" >&2
      exit 1
      ;;
  esac
done <"$manifest"

removed=0
for path in "${files[@]}"; do
  if [[ -e $DESTDIR$path || -L $DESTDIR$path ]]; then
    rm -f -- "$DESTDIR$path"
    removed=$((removed + 1))
  else
    echo "uninstall: $DESTDIR$path was already gone" >&2
  fi
done
rm -f -- "$manifest"

# Folders in the reverse order of their creation: children before parents.
for ((i = ${#folders[@]} - 1; i >= 0; i--)); do
  folder=$DESTDIR${folders[i]}
  [[ -d $folder ]] || continue
  if ! rmdir -- "$folder" 2>/dev/null; then
    echo "uninstall: kept $folder: it holds files install did not put there" >&2
  fi
done
echo "uninstall: removed $removed files from ${DESTDIR:-/}" >&2
