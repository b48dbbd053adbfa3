#!/usr/bin/env bash
# Fails when a pure target imports a C module, an adapter, Glibc or FoundationNetworking, or
# does I/O or reads the clock or the environment itself (those are injected). The pure core
# decides; only adapters touch the outside world.
#
#   scripts/check-boundaries.sh [ROOT]   check ROOT/Sources (default: this repository)
#
# scripts/test-boundaries.sh proves every rule here catches what it should, and that comments
# and look-alikes (Date(timeIntervalSince1970:), state.progress.current) pass.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root"

# The pure targets (Foundation only). A new pure target is added here. Every
# Sources/Docent[A-Z]* directory must be listed: the executables are lower-case (docent,
# docent-bench…) and the adapters are named for what they wrap, so a new capitalised Docent
# target is a split of the pure code and checked like the rest.
pure=(Sources/DocentJSON Sources/DocentText Sources/DocentReading Sources/DocentCore Sources/DocentUI Sources/DocentApp Sources/Features/Pulse/Kit)
# Modules a pure target may not import in any form.
forbidden='CNcursesw|CCurl|CMpg123|CPulse|CPoppler|CShims|CChafa|CGdkPixbuf|CSoundTouch|CStemmer|COpenCC|SnowballStemming|MapRaster|Pictures|TwoCores|Glibc|SwiftGlibc|Musl|Darwin|WinSDK|ucrt|CRT|Android|FoundationNetworking|FoundationXML|Dispatch|GRDB|TOMLKit|SQLite3|TerminalCurses|NetCurl|AudioPlayback|StateStore|ScriptConversion|ArgumentParser|PulseKitSQLite|StoreSupport|StringFiles|PulseService'

for t in "${pure[@]}"; do
  [ -d "$t" ] || { echo "check-boundaries: pure target $t does not exist (renamed? update the list)" >&2; exit 1; }
done
# A feature's folder (`Sources/Features/<Name>/`, issue 46) holds its layers: `Core` is compiled
# into DocentCore and `UI` into DocentUI, so both are pure and checked with them; `Storage` and
# `Shell` are adapters' layers; `Strings` holds its UI text. Any other folder there must be the
# path of a target of its own in Package.swift (an adapter such as `Map/MapRaster`): a folder
# that is neither would be compiled into nothing, silently.
if [ -d Sources/Features ]; then
  adapters=$(grep -oE 'path: "Sources/Features/[^"]+"' Package.swift 2>/dev/null | sed -E 's/path: "(.*)"/\1/' || true)
  for d in Sources/Features/*/*/; do
    d=${d%/}
    case "${d##*/}" in
      Core | UI) pure+=("$d") ;;
      Storage | Shell | Strings) ;;
      *) grep -qxF "$d" <<<"$adapters" || { echo "check-boundaries: $d is no layer of its feature (Core, UI, Storage, Shell, Strings) and no target's path in Package.swift: its files would be built into nothing" >&2; exit 1; } ;;
    esac
  done
  for f in Sources/Features/*/*; do
    [ -d "$f" ] || { echo "check-boundaries: $f lies in a feature's folder but in none of its layers (Core, UI, Storage, Shell, Strings)" >&2; exit 1; }
  done
fi
for d in Sources/Docent*/; do
  d=${d%/}
  case "$d" in Sources/Docent[A-Z]*) ;; *) continue ;; esac
  listed=no
  for t in "${pure[@]}"; do [ "$t" = "$d" ] && listed=yes; done
  [ $listed = yes ] || { echo "check-boundaries: $d is not in the list of pure targets in $0" >&2; exit 1; }
done

# Source lines without comments: `//` to the end of the line is dropped (and `///` doc lines
# with it), but not a `//` inside a string literal ("http://…"), which would hide the rest of
# its line. A rough cut still (a multi-line string's lines are read as code), which only errs
# towards reporting; scripts/check-symbols.sh is the proof that does not depend on spelling.
code() {
  find "${pure[@]}" -name '*.swift' -print0 | xargs -0 awk '{
    line = $0
    # The common lines take the quick way: no `//`, or no string before it.
    if (index(line, "//") == 0 || index(line, "\"") == 0 || index(line, "\"") > index(line, "//")) {
      sub(/\/\/.*/, "", line)
      if (line ~ /[^ \t]/) printf "%s:%d: %s\n", FILENAME, FNR, line
      next
    }
    out = ""; instr = 0; n = length(line)
    for (i = 1; i <= n; i++) {
      ch = substr(line, i, 1)
      if (instr) {
        if (ch == "\\") { out = out ch substr(line, i + 1, 1); i++; continue }
        if (ch == "\"") instr = 0
      } else {
        if (ch == "/" && substr(line, i + 1, 1) == "/") break
        if (ch == "\"") instr = 1
      }
      out = out ch
    }
    if (out ~ /[^ \t]/) printf "%s:%d: %s\n", FILENAME, FNR, out
  }'
}

listing=$(code)
# Any import form, at the start of a line or after a `;`, indented or not: attributes
# (@testable, @preconcurrency, @_implementationOnly, @_exported, @_spi(…)), access levels
# (public/package/internal/fileprivate/private import), kind imports (`import struct Glibc.FILE`,
# `import func Glibc.read`), submodules (`import Glibc.stdio`).
import_re="^[^:]+:[0-9]+: (.*;)?[[:space:]]*((@[A-Za-z_]+(\([^)]*\))?|public|package|internal|fileprivate|private)[[:space:]]+)*import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?($forbidden)([.;[:space:]]|$)"
bad=$(grep -E "$import_re" <<<"$listing" || true)
# I/O, the clock, the environment, threads of its own: all injected in pure code.
#   files and processes: FileManager, FileHandle, contentsOf…, write(to…), Process(), fopen…
#   the clock: Date(), Date.now, Date.init as a value, `Date = .now`, timeIntervalSinceNow,
#     the Clock types, clock_gettime
#   the environment: ProcessInfo, getenv/setenv, CommandLine, Bundle.main, TimeZone/Locale/
#     Calendar .current (also as `.current` inferred: `?? .current`, `= .current`)
#   threads and sleeping: Dispatch*, Thread, OperationQueue, RunLoop, Timer, sleep/usleep
#   the terminal: print, readLine, isatty
io_re='\b(fopen|fread|fwrite|fclose|popen|FileHandle|FileManager|Data\(contentsOf|String\(contentsOf|contentsOfFile|write\(toFile|write\(to:|Process\(|ProcessInfo|getenv|setenv|unsetenv|isatty|usleep|sleep\(|Date\(\)|Date\.now|Date\.init([^(]|\(\)|$)|timeIntervalSinceNow|ContinuousClock|SuspendingClock|Dispatch[A-Z][A-Za-z]*|Thread[[:space:]]*[({.]|OperationQueue|RunLoop|Timer\.|CFAbsoluteTimeGetCurrent|clock_gettime|gettimeofday|URLSession|CommandLine\.|Bundle\.main|NSHomeDirectory|NSTemporaryDirectory|(TimeZone|Locale|Calendar)\.(current|autoupdatingCurrent)|readLine\()|(^[^:]+:[0-9]+: |[^.[:alnum:]_])print\(|Date[?!]?[[:space:]]*=[[:space:]]*\.(now|init\(\))|(^[^:]+:[0-9]+: |[^][:alnum:]_)?!])\.(current|autoupdatingCurrent)\b'
io=$(grep -E "$io_re" <<<"$listing" || true)
if [ -n "$bad$io" ]; then
  echo "Pure targets must not import C modules or adapters, nor do I/O or read the clock or environment:" >&2
  [ -n "$bad" ] && echo "$bad" >&2
  [ -n "$io" ] && echo "$io" >&2
  exit 1
fi
echo "boundaries: pure targets import no C module and do no I/O"
