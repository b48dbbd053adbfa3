#!/usr/bin/env bash
# A private, headless PulseAudio for tests (runs as root too): one null sink, `docent_null`,
# whose monitor a test records with parec to prove that sound was played.
#
#   scripts/test-pulse.sh start [DIR]   start a daemon with XDG_RUNTIME_DIR=DIR; prints
#                                       PULSE_SERVER=unix:DIR/pulse/native once it answers
#   scripts/test-pulse.sh stop [DIR]    stop it (SIGTERM, then SIGKILL) and remove DIR
#   scripts/test-pulse.sh kill [DIR]    SIGKILL it, as a crash would; DIR stays (start again)
#   scripts/test-pulse.sh env [DIR]     print the PULSE_SERVER line without starting anything
#
# DIR defaults to ${TMPDIR:-/tmp}/docent-pulse and must be under ${TMPDIR:-/tmp}. Clients find
# the daemon through PULSE_SERVER only (export it, or setenv it in the test process); the
# native protocol accepts anonymous clients, so no cookie has to match. The recipe and its
# pitfalls (idle exit, --system as root, XDG_RUNTIME_DIR) are in shared/docs/platform-notes.md §4.
set -euo pipefail

TMP_BASE="${TMPDIR:-/tmp}"
DIR="${2:-$TMP_BASE/docent-pulse}"

usage() {
    echo "usage: $0 start|stop|kill|env [DIR]" >&2
    exit 2
}

check_dir() {
    case "$DIR" in
        "$TMP_BASE"/*) ;;
        *) echo "test-pulse: DIR must be under $TMP_BASE: $DIR" >&2; exit 2 ;;
    esac
}

server() { echo "unix:$DIR/pulse/native"; }

daemon_pid() {
    local pid
    [[ -r "$DIR/pulse/pid" ]] || return 1
    pid="$(tr -dc '0-9' <"$DIR/pulse/pid")"
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

wait_gone() {  # pid, tenths of a second
    local i
    for ((i = 0; i < $2; i++)); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

# The daemon must not inherit descriptors beyond 0-2: Foundation's Process on Linux hands the
# child a socket and a pipe and waits for them to close (see test-nginx.sh).
launch() {
    (
        local fd
        for fd in /proc/self/fd/*; do
            fd="${fd##*/}"
            [[ "$fd" =~ ^[0-9]+$ ]] || continue
            ((fd > 2 && fd != 255)) || continue
            eval "exec $fd>&-" 2>/dev/null || true
        done
        export XDG_RUNTIME_DIR="$DIR" HOME="$DIR/home"
        unset PULSE_SERVER DBUS_SESSION_BUS_ADDRESS DISPLAY
        exec pulseaudio --daemonize=yes --exit-idle-time=-1 -n --use-pid-file=yes \
            --log-target="file:$DIR/pulse.log" --log-level=notice \
            --load="module-native-protocol-unix auth-anonymous=1" \
            --load="module-null-sink sink_name=docent_null sink_properties=device.description=Docent_Null" \
            </dev/null >/dev/null 2>>"$DIR/start.err"
    )
}

cmd_start() {
    check_dir
    command -v pulseaudio >/dev/null || { echo "test-pulse: pulseaudio not found (apt-get install pulseaudio pulseaudio-utils)" >&2; exit 1; }
    if pid="$(daemon_pid)"; then
        kill -KILL "$pid" 2>/dev/null || true
        wait_gone "$pid" 30 || true
    fi
    mkdir -p "$DIR/home"
    chmod 700 "$DIR"
    rm -f "$DIR/pulse/native" "$DIR/pulse/pid" "$DIR/start.err"
    if ! launch; then
        echo "test-pulse: pulseaudio failed to start:" >&2
        cat "$DIR/start.err" "$DIR/pulse.log" 2>/dev/null | tail -20 >&2 || true
        exit 1
    fi
    local i
    for ((i = 0; i < 100; i++)); do
        if PULSE_SERVER="$(server)" timeout 2 pactl info >/dev/null 2>&1; then
            PULSE_SERVER="$(server)" timeout 2 pactl set-default-sink docent_null >/dev/null 2>&1 || true
            echo "PULSE_SERVER=$(server)"
            return 0
        fi
        sleep 0.05
    done
    echo "test-pulse: pulseaudio did not answer on $(server) within 5 s" >&2
    tail -20 "$DIR/pulse.log" >&2 2>/dev/null || true
    exit 1
}

cmd_stop() {
    check_dir
    local pid
    if pid="$(daemon_pid)"; then
        kill -TERM "$pid" 2>/dev/null || true
        wait_gone "$pid" 30 || { kill -KILL "$pid" 2>/dev/null || true; wait_gone "$pid" 20 || true; }
    fi
    [[ -d "$DIR" && "$DIR" == "$TMP_BASE"/* ]] && rm -rf "$DIR"
    return 0
}

cmd_kill() {
    check_dir
    local pid
    if pid="$(daemon_pid)"; then
        kill -KILL "$pid" 2>/dev/null || true
        wait_gone "$pid" 30 || true
    fi
    return 0
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    kill) cmd_kill ;;
    env) check_dir; echo "PULSE_SERVER=$(server)" ;;
    *) usage ;;
esac
