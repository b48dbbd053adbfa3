#!/usr/bin/env bash
# Proves the two purity checks catch what they must.
#
# 1. scripts/check-boundaries.sh (the sources, the fast first pass): a copy of the sources
#    passes as it is; with every probe put into a pure target of that copy, each in a file of
#    its own, it fails and names every probe's file; with every look-alike (comments, pure Date
#    and `.current` uses) put there, it names none of them.
# 2. scripts/check-symbols.sh (the objects the compiler made): the real build passes; every
#    probe below is compiled (swiftc -c, one batch, one object per probe), put into every pure
#    target's objects of a scratch build, and the check must fail naming each probe's object
#    in each target; the look-alikes, compiled the same way, must pass. Needs `swift build` first
#    (`make check-boundaries` builds the pure targets).
set -euo pipefail
cd "$(dirname "$0")/.."
check=$PWD/scripts/check-boundaries.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Sources"
cp -R Sources/. "$tmp/Sources/"
cp Package.swift "$tmp/"

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
modules=(CCurl TerminalCurses Glibc SwiftGlibc FoundationNetworking MapRaster GRDB Musl Darwin)
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
  'let u = "http://example.org"; let n = Date()'
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
  'let s = "a\\\\"; // Date() after a string ending in a backslash'
  'let screen = s.dump()'
)
# The pure targets, and pure layers of two features (`Sources/Features/<Name>/Core` is compiled
# into DocentCore, `UI` into DocentUI, issue 46).
pure_modules=(DocentJSON DocentText DocentReading DocentCore DocentUI DocentApp PulseKit)
targets=("${pure_modules[@]}" Features/Map/Core Features/Search/UI)
# A target's sources (the Pulse kit lives in its feature's folder, issue 46).
src() { case "$1" in PulseKit) echo Sources/Features/Pulse/Kit ;; *) echo "Sources/$1" ;; esac; }
# All probes at once, each in a file of its own (spread over the pure targets): the check must
# fail and its report must name every probe's file. One run instead of one per probe.
caught=0
i=0
for probe in "${probes[@]}"; do
  target=${targets[$((i % ${#targets[@]}))]}
  printf '%s\n' "$probe" >"$tmp/$(src "$target")/Probe$i.swift"
  i=$((i + 1))
done
if "$check" "$tmp" >/dev/null 2>"$tmp/report"; then
  echo "test-boundaries: the check passed with every probe in" >&2
fi
i=0
for probe in "${probes[@]}"; do
  target=${targets[$((i % ${#targets[@]}))]}
  if grep -q "^$(src "$target")/Probe$i.swift:" "$tmp/report"; then
    caught=$((caught + 1))
  else
    echo "test-boundaries: NOT caught in $target: $probe" >&2
  fi
  rm "$tmp/$(src "$target")/Probe$i.swift"
  i=$((i + 1))
done
# The look-alikes, all at once too: the check must pass, naming none of them.
passed=0
j=0
for probe in "${clean[@]}"; do
  target=${targets[$((j % ${#targets[@]}))]}
  printf '%s\n' "$probe" >"$tmp/$(src "$target")/Clean$j.swift"
  j=$((j + 1))
done
clean_status=0
"$check" "$tmp" >/dev/null 2>"$tmp/report" || clean_status=$?
j=0
for probe in "${clean[@]}"; do
  target=${targets[$((j % ${#targets[@]}))]}
  if grep -q "^$(src "$target")/Clean$j.swift:" "$tmp/report"; then
    echo "test-boundaries: pure code taken for I/O in $target: $probe" >&2
  else
    passed=$((passed + 1))
  fi
  rm "$tmp/$(src "$target")/Clean$j.swift"
  j=$((j + 1))
done
if [ $clean_status -ne 0 ] && [ $passed -eq ${#clean[@]} ]; then
  echo "test-boundaries: the check failed with the look-alikes in, naming none of them:" >&2
  cat "$tmp/report" >&2
  passed=0
fi
if ! "$check" "$tmp" >/dev/null 2>"$tmp/report"; then
  echo "test-boundaries: the copy fails the check after the probes were taken out:" >&2
  cat "$tmp/report" >&2
  exit 1
fi
# A new capitalised Docent target must be added to the list (or it would go unchecked).
mkdir "$tmp/Sources/DocentNew"
printf '%s\n' 'let x = 1' >"$tmp/Sources/DocentNew/New.swift"
unlisted=0
if "$check" "$tmp" >/dev/null 2>&1; then
  echo "test-boundaries: an unlisted Sources/DocentNew went unchecked" >&2
  unlisted=1
fi
# A folder in a feature that is no layer and no target's path would be compiled into nothing.
rm -r "$tmp/Sources/DocentNew"
mkdir "$tmp/Sources/Features/Map/Widgets"
printf '%s\n' 'let x = 1' >"$tmp/Sources/Features/Map/Widgets/New.swift"
if "$check" "$tmp" >/dev/null 2>&1; then
  echo "test-boundaries: Sources/Features/Map/Widgets, in no layer, went unchecked" >&2
  unlisted=1
fi
rm -r "$tmp/Sources/Features/Map/Widgets"
echo "boundaries probes: $caught of ${#probes[@]} caught, $passed of ${#clean[@]} look-alikes passed"
source_ok=no
[ "$caught" -eq "${#probes[@]}" ] && [ "$passed" -eq "${#clean[@]}" ] && [ $unlisted -eq 0 ] && source_ok=yes

# --- 2. The objects ---------------------------------------------------------------------
symbols=$PWD/scripts/check-symbols.sh
if ! "$symbols" .build/debug >/dev/null 2>"$tmp/err"; then
  echo "test-boundaries: the real build fails the symbol check:" >&2
  cat "$tmp/err" >&2
  exit 1
fi
# Each probe is the body of a function (`@top ` at the start: a declaration of its own at the
# top of the file, internal, so that the compiler emits it though nothing calls it). `url`, `stamp` and `d` exist for them. Every one compiles in a pure target
# with no import beyond Foundation (which re-exports Glibc and Dispatch on Linux).
sym_probes=(
  # The issue's probes that got through the source check.
  'let fd = open("/x", O_RDONLY)'
  'var b = [UInt8](repeating: 0, count: 4); let n = read(0, &b, 4)'
  'let t = time(nil)'
  'let c = clock()'
  'var th = pthread_t(); pthread_create(&th, nil, { _ in nil }, nil)'
  'let r = system("true")'
  'let e = environ'
  'let n = NSDate()'
  'let n = Date ()'
  'let n = `Date`()'
  '@top func madeByInit() -> Date { .init() }'
  'let s = Date(timeInterval: 1, since: .now)'
  $'let n = Date\n    .now'
  'let x = try Data.init(contentsOf: url)'
  'let x = NSData(contentsOf: url)'
  'Task.detached { }'
  'let u = UserDefaults.standard'
  'let l = NSLocale.current'
  'let u = "http://example.org"; let n = Date()'
  # The uses the source check has probes for.
  'let n = Date()'
  'let n = Date.now'
  '@top func withClock(clock: () -> Date = Date.init) {}'
  '@top func withNow(now: Date = .now) {}'
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
  'let x = try Data(contentsOf: URL(fileURLWithPath: "/x"))'
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
  'print("hello")'
  'let line = readLine()'
  'let c = ContinuousClock()'
  # More of the deny-list: libc I/O, the clock, processes, threads, the environment.
  'fputs("x", stderr)'
  'var b: [UInt8] = [1]; let n = write(1, &b, 1)'
  'var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts)'
  'var tv = timeval(); gettimeofday(&tv, nil)'
  'sleep(1)'
  'let p = getpid()'
  'let x = fork()'
  'var st = stat(); stat("/x", &st)'
  'let up = ProcessInfo.processInfo.systemUptime'
  'Thread.sleep(forTimeInterval: 1)'
  'let q = OperationQueue()'
  'let r = RunLoop.current'
  'let t = Timer(timeInterval: 1, repeats: false) { _ in }'
  'let x = DispatchTime.now()'
  'let s = Date.timeIntervalSinceReferenceDate'
  'let c = SuspendingClock.now'
  'Task { }'
  'let z = NSTimeZone.local'
  'let c = Calendar.current'
  'let h = NSHomeDirectory()'
  'let x = try NSString(contentsOfFile: "/x", encoding: 4)'
  'try "x".write(toFile: "/x", atomically: true, encoding: .utf8)'
  'exit(0)'
  '@top import FoundationNetworking
@top private let s = URLSession.shared'
)
# Pure look-alikes, compiled the same way: the check must not take them for I/O.
sym_clean=(
  'let x = Date(timeIntervalSince1970: 0)'
  'let x = Date.init(timeIntervalSince1970: 0).addingTimeInterval(5)'
  'let x = stamp.timeIntervalSince(stamp)'
  'let x = stamp.timeIntervalSinceReferenceDate'
  'let z = TimeZone(identifier: "America/Chicago") ?? .gmt'
  'let c = Calendar(identifier: .gregorian)'
  'let l = Locale(identifier: "es_ES")'
  'let x = Data([1, 2, 3]).count'
  'let s = String(decoding: d, as: UTF8.self)'
  'let x = sqrt(2.0) + floor(1.5)'
  'let u = URL(string: "https://example.org/x")'
  'let n = 3.description; let text = "Date() and open() in a string"'
)
bdir=$tmp/symbols
mkdir -p "$bdir/src"
write_probe() { # FILE PROBE
  local top="" body=""
  while IFS= read -r line; do
    case "$line" in '@top '*) top+="${line#@top }"$'\n' ;; *) body+="$line"$'\n' ;; esac
  done <<<"$2"
  { printf 'import Foundation\n%s' "$top"
    printf 'private let url = URL(fileURLWithPath: "/x")\nprivate let stamp = Date(timeIntervalSince1970: 0)\nprivate let d = Data()\n'
    printf '@inline(never) private func probe() async throws {\n%s}\n' "$body"
    printf 'public func run%s() async throws { try await probe() }\n' "$(basename "$1" .swift)"
  } >"$1"
}
n=0
for p in "${sym_probes[@]}"; do n=$((n + 1)); write_probe "$bdir/src/p$n.swift" "$p"; done
m=0
for p in "${sym_clean[@]}"; do m=$((m + 1)); write_probe "$bdir/src/c$m.swift" "$p"; done
if ! (cd "$bdir/src" && swiftc -c -parse-as-library -module-name PurityProbes -suppress-warnings -j2 ./*.swift) >"$tmp/err" 2>&1; then
  echo "test-boundaries: a probe does not compile:" >&2
  cat "$tmp/err" >&2
  exit 1
fi
# A scratch build: every pure target holds every probe's object (p1.o…) and the check runs
# once; it must fail and its report must name every probe's object in every target. Then the
# look-alikes' objects alone: the check must pass.
scratch=$tmp/scratch
sym_caught=0
sym_passed=0
mkdir -p "$scratch"
for t in "${pure_modules[@]}"; do
  mkdir -p "$scratch/$t.build"
  for i in $(seq 1 $n); do cp "$bdir/src/p$i.o" "$scratch/$t.build/p$i.o"; done
done
if "$symbols" "$scratch" >/dev/null 2>"$tmp/report"; then
  echo "test-boundaries: the symbol check passed with every probe in" >&2
fi
for i in $(seq 1 $n); do
  missing=""
  for t in "${pure_modules[@]}"; do grep -q "^$scratch/$t.build/p$i.o: " "$tmp/report" || missing+=" $t"; done
  if [ -n "$missing" ]; then
    echo "test-boundaries: symbols NOT caught in$missing: ${sym_probes[$((i - 1))]}" >&2
  else
    sym_caught=$((sym_caught + 1))
  fi
done
rm -rf "$scratch"
for t in "${pure_modules[@]}"; do
  mkdir -p "$scratch/$t.build"
  for i in $(seq 1 $m); do cp "$bdir/src/c$i.o" "$scratch/$t.build/c$i.o"; done
done
if "$symbols" "$scratch" >/dev/null 2>"$tmp/report"; then
  sym_passed=$m
else
  for i in $(seq 1 $m); do
    if grep -q "/c$i.o: " "$tmp/report"; then
      echo "test-boundaries: symbols: pure code taken for I/O: ${sym_clean[$((i - 1))]}" >&2
    else
      sym_passed=$((sym_passed + 1))
    fi
  done
  [ $sym_passed -eq $m ] && { echo "test-boundaries: the symbol check failed on the look-alikes, naming none:" >&2; cat "$tmp/report" >&2; sym_passed=0; }
fi
echo "symbol probes: $sym_caught of $n caught in each of the ${#pure_modules[@]} pure targets, $sym_passed of $m look-alikes passed"
[ $source_ok = yes ] && [ "$sym_caught" -eq "$n" ] && [ "$sym_passed" -eq "$m" ]
