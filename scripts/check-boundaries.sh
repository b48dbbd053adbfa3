#!/usr/bin/env bash
# Fails when a pure target imports a C module, an adapter, Glibc or FoundationNetworking, or
# does I/O or reads the clock or the environment itself (those are injected). The pure core
# decides; only adapters touch the outside world.
#
#   scripts/check-boundaries.sh [ROOT]   check ROOT/Sources (default: this repository)
#
# scripts/test-boundaries.sh proves every rule here catches what it should.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root"

# The pure targets (Foundation only). A new pure target is added here.
pure=(Sources/DocentJSON Sources/DocentText Sources/DocentReading Sources/DocentCore Sources/DocentUI Sources/DocentApp)
# Modules a pure target may not import in any form.
forbidden='CNcursesw|CCurl|CMpg123|CPulse|CPoppler|CShims|MapRaster|Glibc|Musl|Darwin|WinSDK|FoundationNetworking|FoundationXML|Dispatch|GRDB|TOMLKit|SQLite3|TerminalCurses|NetCurl|AudioPlayback|StateStore|ArgumentParser'

# Source lines without comments: `//` to the end of the line is dropped (a rough cut that
# ignores string literals, which is fine for what is looked for), and `///` doc lines with it.
code() {
  find "${pure[@]}" -name '*.swift' -print0 | xargs -0 awk '{ line = $0; sub(/\/\/.*/, "", line); if (line ~ /[^ \t]/) printf "%s:%d: %s\n", FILENAME, FNR, line }'
}

listing=$(code)
# Any import form: attributes (@testable, @preconcurrency, @_implementationOnly, @_exported,
# @_spi(…)), access levels (public/package/internal/fileprivate/private import), kind imports
# (`import struct Glibc.FILE`), submodules (`import Glibc.stdio`).
import_re="^[^:]+:[0-9]+: *((@[A-Za-z_]+(\([^)]*\))?|public|package|internal|fileprivate|private)[[:space:]]+)*import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?($forbidden)([.[:space:]]|$)"
bad=$(grep -E "$import_re" <<<"$listing" || true)
# I/O, the clock, the environment, threads of its own: all injected in pure code.
io_re='\b(fopen|fread|fwrite|fclose|FileHandle|FileManager|Data\(contentsOf|String\(contentsOf|contentsOfFile|write\(toFile|write\(to:|Process\(|ProcessInfo|getenv|setenv|isatty|usleep|sleep\(|Date\(\)|Date\.now|Date\.init\b|DispatchQueue|DispatchTime|Thread[[:space:]]*[({.]|CFAbsoluteTimeGetCurrent|clock_gettime)'
io=$(grep -E "$io_re" <<<"$listing" || true)
if [ -n "$bad$io" ]; then
  echo "Pure targets must not import C modules or adapters, nor do I/O or read the clock or environment:" >&2
  [ -n "$bad" ] && echo "$bad" >&2
  [ -n "$io" ] && echo "$io" >&2
  exit 1
fi
echo "boundaries: pure targets import no C module and do no I/O"
