#!/usr/bin/env bash
# Creates a new plugin from templates/plugin-<language>: `make new-plugin
# NAME=Greeter ID=com.example.greeter [LANGUAGE=swift|c] [DEST=../Greeter]`.
# The copy builds and loads as it is; it refers to this checkout by its
# absolute path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

name=${NAME:-}
id=${ID:-}
language=${LANGUAGE:-swift}
fail() {
  echo "new-plugin: $*" >&2
  exit 2
}
[[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] \
  || fail "NAME \"$name\" is not a Swift/C identifier (letters, digits, _; not starting with a digit)"
[[ $id =~ ^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$ && ${#id} -le 255 ]] \
  || fail "ID \"$id\" is not a reverse-DNS app id such as com.example.greeter (at most 255 bytes)"
template=$root/templates/plugin-$language
[[ -d $template ]] || fail "LANGUAGE \"$language\" has no template: use swift or c"
dest=${DEST:-$root/../$name}
[[ $dest == /* ]] || dest=$root/$dest
[[ ! -e $dest ]] || fail "DEST \"$dest\" already exists"

cp -R -- "$template" "$dest"
if [[ -d $dest/Sources/MyPlugin ]]; then
  mv -- "$dest/Sources/MyPlugin/MyPlugin.swift" "$dest/Sources/MyPlugin/$name.swift"
  mv -- "$dest/Sources/MyPlugin" "$dest/Sources/$name"
fi
checkout=$(printf '%s' "$root" | sed -e 's/[\\|&]/\\&/g')
while IFS= read -r -d '' file; do
  sed -i -e "s|com\.example\.MyPlugin|$id|g" -e "s|MyPlugin|$name|g" \
    -e "s|\.\./QuickActions|$checkout|g" -- "$file"
done < <(find "$dest" -type f -print0)
echo "new-plugin: created $dest ($language, $id); build it with: make -C $dest" >&2
