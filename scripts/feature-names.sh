#!/usr/bin/env bash
# How many Swift files outside a feature's own folders name it (issue 46, "arch-slices"): the
# goal is at most 2 for each feature that cuts across the guide.
#
#   scripts/feature-names.sh [REV] [NAME[:FOLDER,FOLDER…] …]
#
# REV (default: the work tree) is a git revision whose tree is counted instead. A file names
# NAME when a word of it starts with NAME (case-sensitive: `KioskFeature`, `KioskHints`,
# `Kiosk`; not `kiosk` or `state.screenReader`). Its own files are `Sources/Features/NAME/`
# and the FOLDERs given (an adapter of its own, such as `Sources/PulseService`). Two counts: every
# mention, and mentions in code (lines that are not `//` comments).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=
if [ $# -gt 0 ] && git rev-parse --verify -q "$1^{commit}" >/dev/null; then rev=$1; shift; fi
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(Kiosk ScreenReader Scripts Pictures Offline)

files() {
  if [ -n "$rev" ]; then git ls-tree -r --name-only "$rev" -- Sources | grep '\.swift$'; else git ls-files --cached --others --exclude-standard -- Sources | grep '\.swift$'; fi
}
text() { if [ -n "$rev" ]; then git show "$rev:$1"; else cat "$1"; fi; }

printf '| feature | files naming it outside its folders | in code only | files |\n| --- | --- | --- | --- |\n'
for spec in "${specs[@]}"; do
  name=${spec%%:*}
  own="^Sources/Features/$name/"
  if [ "$spec" != "$name" ]; then
    IFS=',' read -r -a extra <<<"${spec#*:}"
    for f in "${extra[@]}"; do own+="|^$f/"; done
  fi
  all=() code=()
  while read -r f; do
    [[ $f =~ $own ]] && continue
    body=$(text "$f")
    if grep -qwE "$name[A-Za-z]*" <<<"$body"; then
      all+=("$f")
      if grep -vE '^[[:space:]]*//' <<<"$body" | grep -wE "$name[A-Za-z]*" >/dev/null; then code+=("$f"); fi
    fi
  done < <(files)
  printf '| %s | %d | %d | %s |\n' "$name" "${#all[@]}" "${#code[@]}" "$(IFS=' '; echo "${all[*]#Sources/}")"
done
