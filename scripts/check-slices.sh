#!/usr/bin/env bash
# The steering check `arch-slices` on a built binary (issue 46): fails when BINARY holds any
# symbol of the guide's modules (DocentCore, DocentReading, DocentUI, DocentApp, StateStore) or
# names the guide's SearchIndex, MapFeature, TourFeature or KeypadFeature. It reads what the
# linker put in (`nm`), by the Swift mangled module prefix (`$s11DocentCore…`) and, demangled,
# by name, so no spelling in the sources gets round it.
#
#   scripts/check-slices.sh BINARY            e.g. .build/debug/docent-pulse
#   scripts/check-slices.sh --self-test DIR   proves the check fails on DIR/docent (which links
#                                             the guide) and passes on DIR/docent-pulse
set -euo pipefail
nm=$(command -v llvm-nm || command -v nm)
demangle=$(command -v swift-demangle || true)
[ -n "$demangle" ] || { echo "check-slices: swift-demangle not found (it comes with the Swift toolchain)" >&2; exit 2; }

# Module name → its mangled prefix: `$s` + length + name (Swift 5 mangling).
modules=(DocentCore DocentReading DocentUI DocentApp StateStore)
features='SearchIndex|MapFeature|TourFeature|KeypadFeature'

# Prints the offending symbols of $1 (at most 20) and their count; status 1 when there are any.
scan() {
  local bin=$1 prefixes="" m
  [ -f "$bin" ] || { echo "check-slices: no file $bin" >&2; return 2; }
  for m in "${modules[@]}"; do prefixes+="${prefixes:+|}\\\$s${#m}$m"; done
  local syms mangled named
  syms=$("$nm" "$bin" 2>/dev/null | awk '{print $NF}') || { echo "check-slices: cannot read $bin" >&2; return 2; }
  [ -n "$syms" ] || { echo "check-slices: $bin has no symbols (stripped?): nothing to prove" >&2; return 2; }
  mangled=$(grep -E "^($prefixes)" <<<"$syms" || true)
  # The features' names as whole identifiers: the static standard library's own
  # `_StringProcessing…Iterator.nextSearchIndex(after:)` is no symbol of the guide's Search.
  named=$(grep -E '^\$s' <<<"$syms" | "$demangle" --compact | grep -E "(^|[^A-Za-z])($(IFS='|'; echo "${modules[*]}"))\.|(^|[^A-Za-z_])($features)([^A-Za-z0-9_]|\$)" || true)
  local a b
  a=$(grep -c . <<<"$mangled" || true); b=$(grep -c . <<<"$named" || true)
  if [ "$a" -gt 0 ] || [ "$b" -gt 0 ]; then
    echo "check-slices: $bin holds the guide: $a symbols by module prefix (${modules[*]}), $b naming them or $features once demangled; the first:" >&2
    { [ -n "$mangled" ] && "$demangle" --compact <<<"$mangled"; [ -n "$named" ] && echo "$named"; } | head -20 >&2
    return 1
  fi
  echo "slices: $bin holds no symbol of ${modules[*]} nor $features"
}

if [ "${1:-}" = "--self-test" ]; then
  dir=${2:?usage: check-slices.sh --self-test BUILD_DIR}
  [ -x "$dir/docent" ] && [ -x "$dir/docent-pulse" ] || { echo "check-slices: build docent and docent-pulse first ($dir)" >&2; exit 2; }
  set +e
  scan "$dir/docent" >/dev/null 2>&1; st=$?
  set -e
  [ $st -eq 1 ] || { echo "check-slices self-test: the check did not catch docent, which links DocentCore (status $st)" >&2; exit 1; }
  scan "$dir/docent-pulse"
  echo "check-slices self-test: catches docent (it links the guide), passes docent-pulse"
  exit 0
fi
[ $# -eq 1 ] || { echo "usage: check-slices.sh BINARY | --self-test BUILD_DIR" >&2; exit 2; }
scan "$1"
