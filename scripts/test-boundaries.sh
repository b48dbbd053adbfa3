#!/usr/bin/env bash
# Proves scripts/check-boundaries.sh catches what it must: a copy of the sources passes as it
# is, then fails once for every probe, each put alone into a pure target of that copy.
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

probes=(
  'import CCurl'
  '@preconcurrency import CCurl'
  '@_implementationOnly import CNcursesw'
  '@_exported import CPulse'
  '@testable import TerminalCurses'
  'import struct Glibc.FILE'
  'import func Glibc.read'
  'import Glibc'
  'import Glibc.stdio'
  '    import Glibc'
  'public import NetCurl'
  'internal import MapRaster'
  '@_spi(Private) import GRDB'
  'import FoundationNetworking'
  '@preconcurrency import FoundationNetworking'
  'import Dispatch'
  'let now = Date()'
  'let now = Date.now'
  'func f(clock: () -> Date = Date.init) {}'
  'let env = ProcessInfo.processInfo.environment'
  'let fm = FileManager.default'
  'DispatchQueue.main.async {}'
  'let home = getenv("HOME")'
  'let s = try String(contentsOfFile: "/etc/hostname")'
  'let s = try String(contentsOf: URL(fileURLWithPath: "/x"), encoding: .utf8)'
  'let d = try Data(contentsOf: URL(fileURLWithPath: "/x"))'
  'let h = FileHandle.standardError'
  'let t = Thread { }'
)
targets=(DocentJSON DocentText DocentReading DocentCore DocentUI DocentApp)
caught=0
i=0
for probe in "${probes[@]}"; do
  target=${targets[$((i % ${#targets[@]}))]}
  i=$((i + 1))
  rm -rf "$tmp/Sources"
  mkdir -p "$tmp/Sources"
  cp -R Sources/. "$tmp/Sources/"
  printf '%s\n' "$probe" >"$tmp/Sources/$target/Probe.swift"
  if "$check" "$tmp" >/dev/null 2>&1; then
    echo "test-boundaries: NOT caught in $target: $probe" >&2
  else
    caught=$((caught + 1))
  fi
done
# A probe in a comment is not code: it must pass.
rm -rf "$tmp/Sources"; mkdir -p "$tmp/Sources"; cp -R Sources/. "$tmp/Sources/"
printf '%s\n' '// import CCurl and Date() in a comment' '/// FileManager in a doc comment' >"$tmp/Sources/DocentCore/Probe.swift"
if ! "$check" "$tmp" >/dev/null 2>&1; then
  echo "test-boundaries: a comment was taken for code" >&2
  exit 1
fi
echo "boundaries probes: $caught of ${#probes[@]} caught"
[ "$caught" -eq "${#probes[@]}" ]
