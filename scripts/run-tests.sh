#!/bin/bash
# `make test`'s runner (issue 30: the suite well inside its time as it grows). The test bundle
# runs in two lanes at once: the real-time audio classes (they play sound through PulseAudio
# for minutes and use little CPU) and everything else. `swift test` cannot do this: two runs in
# one build directory take SwiftPM's lock in turn, and `--parallel` would also run the timing
# tests side by side. Each lane writes its own log, printed whole when both are done; the exit
# status is non-zero when either lane failed. Nothing is shared between the lanes: every test
# starts its own PulseAudio, PostgreSQL, nginx and tmux server on free ports and sockets.
set -u
cd "$(dirname "$0")/.."
# What `swift test` sets for the tests it runs (the end-to-end tests' screens assume it).
export NO_COLOR=1
bin="$(swift build --show-bin-path)/DocentPackageTests.xctest"
[ -x "$bin" ] || { echo "run-tests: no $bin: run 'swift build --build-tests' first" >&2; exit 2; }

audio="AdapterTests.AudioEngineTests EndToEndTests.AudioTourTests"
classes=$("$bin" --list-tests 2>/dev/null | sed -n 's/^\([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)\/.*/\1/p' | sort -u)
[ -n "$classes" ] || { echo "run-tests: the test bundle lists no tests" >&2; exit 2; }
for c in $audio; do
    grep -qx "$c" <<<"$classes" || { echo "run-tests: $c is not in the bundle (renamed? update scripts/run-tests.sh)" >&2; exit 2; }
done
rest=$(grep -vx -e ${audio// / -e } <<<"$classes" | paste -sd, -)
slow=$(tr ' ' ',' <<<"$audio")

logs=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done; }
trap 'cleanup; exit 130' INT TERM
start=$(date +%s)
"$bin" "$slow" >"$logs/audio.log" 2>&1 & pids+=($!)
"$bin" "$rest" >"$logs/rest.log" 2>&1 & pids+=($!)
wait "${pids[0]}"; audio_status=$?
wait "${pids[1]}"; rest_status=$?
trap - INT TERM
for lane in audio rest; do
    echo "=== lane: $lane ==="
    cat "$logs/$lane.log"
done
# CI keeps the head and the tail of a long log: the failures are repeated here, last, so a
# truncated log still names them.
for lane in audio rest; do
    grep -E ": error: |^Test Case '.*' failed \(" "$logs/$lane.log" | sed "s/^/=== failed in the $lane lane: /"
done
summary() { grep -E "^[[:space:]]+Executed [0-9]+ tests?," "$logs/$1.log" | tail -1 | sed 's/^[[:space:]]*//'; }
echo "=== both lanes in $(( $(date +%s) - start )) s: audio (status $audio_status): $(summary audio); the rest (status $rest_status): $(summary rest)"
rm -rf "$logs"
[ "$audio_status" -eq 0 ] && [ "$rest_status" -eq 0 ]
