#!/usr/bin/env bash
# Proves scripts/check-boundaries.sh catches what it must: a copy of the sources passes as it
# is, then fails once for every probe, each put alone into a pure target of that copy; and
# still passes with each look-alike (comments, pure Date and `.current` uses) put there.
set -euo pipefail
cd "$(dirname "$0")/.."
check=$PWD/scripts/check-boundaries.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Sources"
cp -R Sources/. "$tmp/Sources/"

if ! "$check" "$tmp" >/dev/null 2>"$tmp/err"; then
  echo "test-boundaries: the unmodified sources fail the check:" >&2
  cat "$tmp/err" >&2
  exit 1
fi

# Every import form, each with several forbidden modules (M is replaced by the module).
import_forms=(
  'import M'
  '@preconcurrency import M'
  '@_implementationOnly import M'
  '@_exported import M'
  '@testable import M'
  '@_spi(Private) import M'
  'import M.Sub'
  'import struct M.Thing'
  'import func M.read'
  'import class M.Thing'
  '    import M'
  $'\timport M'
  'public import M'
  'internal import M'
  'package import M'
  '@preconcurrency public import M'
  'import  M  // trailing comment'
  'import Foundation; import M'
  'import M; import Foundation'
)
modules=(CCurl TerminalCurses Glibc FoundationNetworking MapRaster GRDB Musl Darwin)
probes=()
for form in "${import_forms[@]}"; do
  for m in "${modules[@]}"; do probes+=("${form//M/$m}"); done
done
# Uses: I/O, the clock, the environment, threads and sleeping.
probes+=(
  'let now = Date()'
  'let now = Date.now'
  'func f(clock: () -> Date = Date.init) {}'
  'func f(now: Date = .now) {}'
  'let t = Date(timeIntervalSinceNow: 0)'
  'let age = stamp.timeIntervalSinceNow'
  'let env = ProcessInfo.processInfo.environment'
  'let fm = FileManager.default'
  'DispatchQueue.main.async {}'
  'let s = DispatchSemaphore(value: 0)'
  'let home = getenv("X")'
  'setenv("X", "1", 1)'
  'let s = try String(contentsOfFile: "/etc/hostname")'
  'let s = try String(contentsOf: url)'
  'let s = try String(contentsOf: URL(fileURLWithPath: "/x"), encoding: .utf8)'
  'let d = try Data(contentsOf: URL(fileURLWithPath: "/x"))'
  'try d.write(to: url)'
  'let h = FileHandle.standardError'
  'let p = Process()'
  'let f = fopen("/x", "r")'
  'let t = Thread { }'
  'usleep(10)'
  'try await Task.sleep(nanoseconds: 1)'
  'let zone = TimeZone.current'
  'let zone: TimeZone = TimeZone(identifier: "Europe/Madrid") ?? .current'
  'let l = Locale.current'
  'let c = Calendar.autoupdatingCurrent'
  'let args = CommandLine.arguments'
  'let b = Bundle.main'
  'let s = URLSession.shared'
  'print("hello")'
  'let line = readLine()'
  'let c = ContinuousClock()'
)
# Look-alikes that are pure: the check must not take them for I/O.
clean=(
  '// import CCurl and Date() in a comment'
  '/// FileManager.default in a doc comment'
  '    // ProcessInfo.processInfo, indented comment'
  'import Foundation'
  'import DocentCore'
  '@testable import DocentCore'
  'let d = Date(timeIntervalSince1970: 0)'
  'let d = Date.init(timeIntervalSince1970: 0)'
  'let p = state.progress.current'
  'let x = 1 // Date() after code'
  'let screen = s.dump()'
)
targets=(DocentJSON DocentText DocentReading DocentCore DocentUI DocentApp)
caught=0
i=0
for probe in "${probes[@]}"; do
  target=${targets[$((i % ${#targets[@]}))]}
  i=$((i + 1))
  printf '%s\n' "$probe" >"$tmp/Sources/$target/Probe.swift"
  if "$check" "$tmp" >/dev/null 2>&1; then
    echo "test-boundaries: NOT caught in $target: $probe" >&2
  else
    caught=$((caught + 1))
  fi
  rm "$tmp/Sources/$target/Probe.swift"
done
passed=0
for probe in "${clean[@]}"; do
  target=${targets[$((i % ${#targets[@]}))]}
  i=$((i + 1))
  printf '%s\n' "$probe" >"$tmp/Sources/$target/Probe.swift"
  if "$check" "$tmp" >/dev/null 2>&1; then
    passed=$((passed + 1))
  else
    echo "test-boundaries: pure code taken for I/O in $target: $probe" >&2
  fi
  rm "$tmp/Sources/$target/Probe.swift"
done
# A new capitalised Docent target must be added to the list (or it would go unchecked).
mkdir "$tmp/Sources/DocentNew"
printf '%s\n' 'let x = 1' >"$tmp/Sources/DocentNew/New.swift"
unlisted=0
if "$check" "$tmp" >/dev/null 2>&1; then
  echo "test-boundaries: an unlisted Sources/DocentNew went unchecked" >&2
  unlisted=1
fi
echo "boundaries probes: $caught of ${#probes[@]} caught, $passed of ${#clean[@]} look-alikes passed"
[ "$caught" -eq "${#probes[@]}" ] && [ "$passed" -eq "${#clean[@]}" ] && [ $unlisted -eq 0 ]
