#!/usr/bin/env bash
# Takes the libraries that Docent opens on first use (Sources/CLazyLibs: libcurl, poppler and cairo for
# the floor plans, chafa and GdkPixbuf for pictures, OpenCC for the Chinese scripts, and GLib
# under them) out of each program's NEEDED list, so that a start does not load and relocate
# them and the dozens they bring (issue 48: about 20 ms of every start). The linker's
# --as-needed would do it, but SwiftPM puts pkg-config's -l flags before any flag a package can
# give. A library is taken out only when the program uses none of its functions directly (they
# all go through CLazyLibs); otherwise this fails and names the function.
#
# Usage: scripts/lazy-needed.sh PROGRAM...
set -euo pipefail
lazy=(libcurl.so.4 libpoppler-glib.so.8 libcairo.so.2 libchafa.so.0 libgdk_pixbuf-2.0.so.0 libgobject-2.0.so.0 libglib-2.0.so.0 libopencc.so.1.1)
command -v patchelf >/dev/null || { echo "lazy-needed: patchelf is required (apt-get install patchelf; make deps does)" >&2; exit 1; }
for bin in "$@"; do
  [ -f "$bin" ] || { echo "lazy-needed: no $bin" >&2; exit 1; }
  needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  undefined=$(nm -D --undefined-only "$bin" | awk '{print $2}' | sed 's/@.*//' | sort -u)
  remove=()
  for lib in "${lazy[@]}"; do
    grep -qx "$lib" <<<"$needed" || continue
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l && !p { print $NF; p = 1 }')
    [ -n "$path" ] || { echo "lazy-needed: $lib is not installed" >&2; exit 1; }
    used=$(comm -12 <(nm -D --defined-only "$path" | awk '{print $3}' | sed 's/@.*//' | sort -u) - <<<"$undefined" | awk 'NR <= 3')
    if [ -n "$used" ]; then
      echo "lazy-needed: $bin calls $lib directly ($(tr '\n' ' ' <<<"$used")); add those functions to Sources/CLazyLibs/lazy.c" >&2
      exit 1
    fi
    remove+=(--remove-needed "$lib")
  done
  [ ${#remove[@]} -eq 0 ] || patchelf "${remove[@]}" "$bin"
  left=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -xF -f <(printf '%s\n' "${lazy[@]}") || true)
  [ -z "$left" ] || { echo "lazy-needed: $bin still needs $(tr '\n' ' ' <<<"$left")" >&2; exit 1; }
done
