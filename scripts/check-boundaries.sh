#!/usr/bin/env bash
# Fails when a pure target (DocentCore, DocentUI, DocentApp) imports a C module or does
# Glibc-level I/O. The pure core decides; only adapters touch the outside world.
set -euo pipefail
cd "$(dirname "$0")/.."
pure=(Sources/DocentJSON Sources/DocentText Sources/DocentReading Sources/DocentCore Sources/DocentUI Sources/DocentApp)
bad=$(grep -rnE '^\s*(@testable\s+)?import\s+(CNcursesw|CCurl|CMpg123|CPulse|CPoppler|CShims|MapRaster|Glibc|Musl|Darwin|GRDB|TOMLKit|SQLite3|TerminalCurses|NetCurl|AudioPlayback|StateStore)\b' "${pure[@]}" || true)
io=$(grep -rnE '\b(fopen|fread|fwrite|fclose|FileHandle|FileManager|Data\(contentsOf|contentsOfFile|write\(toFile|write\(to:|Process\(|getenv|setenv|isatty|usleep|sleep\()' "${pure[@]}" || true)
if [ -n "$bad$io" ]; then
  echo "Pure targets must not import C modules or do I/O:" >&2
  [ -n "$bad" ] && echo "$bad" >&2
  [ -n "$io" ] && echo "$io" >&2
  exit 1
fi
echo "boundaries: pure targets import no C module and do no I/O"
