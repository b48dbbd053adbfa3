#!/usr/bin/env bash
# The Debian packages and `make install`, checked as a museum's IT would meet them (issue 43 #7).
# `make test` runs it after `make deb`; it ends with "N passed, N failed".
#   1. lintian: no error (the warnings kept are explained in DECISIONS.md, 2026-11-28);
#   2. each package's files: programs, man page, completions, units, conffiles, the sample museum;
#   3. the programs: no RUNPATH into the toolchain, every library they load a Debian one;
#   4. the units: `systemd-analyze verify`, and the service's `systemd-analyze security` score;
#   5. the packages unpacked into a folder far from the source tree, run from /tmp: the guide opens
#      the bundled sample museum under tmux; docent-pulse starts from DOCENT_PULSE_DATABASE and
#      DOCENT_PULSE_LISTEN alone, answers /healthz, and its /metrics pass `promtool check metrics`;
#   6. `make install DESTDIR=…` then `make uninstall`: nothing left behind;
#   7. a fresh Debian 12 without Swift (debootstrap, kept in /var/cache/docent-test between runs):
#      `apt-get install ./docent*.deb`, the guide and the service run there, `dpkg -r` then
#      `dpkg --purge` leave no file of theirs, their configuration or state.
#      Needs root and Debian's mirror; DOCENT_TEST_CHROOT=0 skips it (said in the summary).
set -uo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
passed=0
failed=0
skipped=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }
check() {  # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@"; then ok "$what"; else fail "$what"; fi
}

shopt -s nullglob
guide_deb=(dist/docent_*.deb)
pulse_deb=(dist/docent-pulse_*.deb)
if [ ${#guide_deb[@]} -ne 1 ] || [ ${#pulse_deb[@]} -ne 1 ]; then
    echo "test-packages: dist/ must hold one docent and one docent-pulse package (make deb)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
guide_deb=${guide_deb[0]}
pulse_deb=${pulse_deb[0]}
work=$(mktemp -d /tmp/docent-packages.XXXXXX)
tmux_socket="$work/tmux.sock"
cleanup() {
    tmux -S "$tmux_socket" kill-server 2>/dev/null
    [ -n "${pulse_pid:-}" ] && kill "$pulse_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# --- 1. lintian -----------------------------------------------------------------------------
for deb in "$guide_deb" "$pulse_deb"; do
    lintian --no-tag-display-limit "$deb" >"$work/lintian.txt" 2>&1
    if grep -q '^E:' "$work/lintian.txt"; then
        fail "lintian: no error in $(basename "$deb")"
        grep '^E:' "$work/lintian.txt"
    else
        ok "lintian: no error in $(basename "$deb") ($(grep -c '^W:' "$work/lintian.txt") warnings)"
    fi
    grep -E '^[WE]:' "$work/lintian.txt" | sed 's/^/    /'
done

# --- 2. the packages' files ------------------------------------------------------------------
dpkg-deb -c "$guide_deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/guide.files"
dpkg-deb -c "$pulse_deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/pulse.files"
has() { grep -qx "$2" "$work/$1.files"; }
for f in /usr/bin/docent /usr/share/man/man1/docent.1.gz /usr/share/bash-completion/completions/docent \
    /usr/share/zsh/vendor-completions/_docent /usr/share/fish/vendor_completions.d/docent.fish \
    /usr/share/docent/strings/en.json /usr/share/docent/strings/zh-Hant.json /usr/share/docent/strings/Pulse/ko.json /usr/share/docent/strings/Keypad/en.json /usr/share/docent/SampleData/appData.json \
    /usr/share/docent/SampleData/pulse/seed.json /lib/systemd/system/docent-kiosk@.service /etc/docent/kiosk.toml \
    /usr/share/doc/docent/copyright /usr/share/doc/docent/changelog.gz; do
    check "docent package has $f" has guide "$f"
done
for f in /usr/bin/docent-pulse /usr/share/man/man1/docent-pulse.1.gz /usr/share/bash-completion/completions/docent-pulse \
    /usr/share/zsh/vendor-completions/_docent-pulse /usr/share/fish/vendor_completions.d/docent-pulse.fish \
    /usr/share/docent/pulse-openapi.yaml /lib/systemd/system/docent-pulse.service /etc/docent/pulse.toml /etc/docent/pulse.env \
    /usr/share/doc/docent-pulse/copyright; do
    check "docent-pulse package has $f" has pulse "$f"
done
check "the guide's package holds nothing of the service" bash -c "! grep -q 'docent-pulse' '$work/guide.files'"
dpkg-deb -e "$pulse_deb" "$work/pulse-control"
dpkg-deb -e "$guide_deb" "$work/guide-control"
check "docent-pulse's /etc files are conffiles" diff <(sort "$work/pulse-control/conffiles") <(printf '/etc/docent/pulse.env\n/etc/docent/pulse.toml\n')
check "docent's /etc/docent/kiosk.toml is a conffile" grep -qx /etc/docent/kiosk.toml "$work/guide-control/conffiles"
depends=$(dpkg-deb -f "$pulse_deb" Depends)
check "docent-pulse Depends come from its libraries (libc6, libsqlite3-0) and adduser: $depends" \
    bash -c "grep -q 'libc6' <<<'$depends' && grep -q 'libsqlite3-0' <<<'$depends' && grep -q adduser <<<'$depends'"
depends=$(dpkg-deb -f "$guide_deb" Depends)
check "docent Depends name its libraries (libncursesw6, libcurl4, libmpg123-0, libpulse0): $depends" \
    bash -c "for l in libncursesw6 libcurl4 libmpg123-0 libpulse0; do grep -q \"\$l\" <<<'$depends' || exit 1; done"

# --- 3 and 5. unpacked far from the source tree ----------------------------------------------
root="$work/root"
dpkg-deb -x "$guide_deb" "$root"
dpkg-deb -x "$pulse_deb" "$root"
for p in docent docent-pulse; do
    check "$p: stripped" bash -c "file '$root/usr/bin/$p' | grep -q ', stripped'"
    check "$p: no RUNPATH or RPATH" bash -c "! readelf -d '$root/usr/bin/$p' | grep -qE 'RUNPATH|RPATH'"
    check "$p: every library it loads is found outside the Swift toolchain" \
        bash -c "ldd '$root/usr/bin/$p' >'$work/ldd-$p.txt' && ! grep -qE 'not found|/opt/swift|libswift|libFoundation' '$work/ldd-$p.txt'"
done
# Nothing of the source tree may be reachable: run from /tmp with a clean environment.
mkdir -p "$work/home" "$work/elsewhere"
# guide_opens PROGRAM: the guide under tmux shows the sample museum (Wrenfield), then quits on q.
guide_opens() {
    local screen="" seen="" home
    # A home of its own each time: a first start, as a museum's machine sees it.
    home=$(mktemp -d "$work/home.XXXXXX")
    tmux -S "$tmux_socket" -f /dev/null new-session -d -x 80 -y 24 -c "$work/elsewhere" \
        "env -i PATH=/usr/bin:/bin HOME=$home LANG=C.UTF-8 TERM=xterm-256color $1 --lang en; echo docent-exited-\$?; sleep 30"
    for _ in $(seq 1 150); do
        screen=$(tmux -S "$tmux_socket" capture-pane -p 2>/dev/null)
        if grep -qE "Wrenfield|Welcome to Docent" <<<"$screen"; then seen=yes; break; fi
        if grep -q "docent-exited" <<<"$screen"; then break; fi
        sleep 0.1
    done
    if [ -z "$seen" ]; then
        sed 's/^/    /' <<<"$screen"
        tmux -S "$tmux_socket" kill-server 2>/dev/null
        return 1
    fi
    # A first start shows a welcome over Home: Esc closes it; then the museum's name shows.
    tmux -S "$tmux_socket" send-keys Escape
    seen=""
    for _ in $(seq 1 50); do
        screen=$(tmux -S "$tmux_socket" capture-pane -p 2>/dev/null)
        if ! grep -q "Welcome to Docent" <<<"$screen" && grep -q "Wrenfield" <<<"$screen"; then seen=yes; break; fi
        sleep 0.1
    done
    if [ -z "$seen" ]; then
        sed 's/^/    /' <<<"$screen"
        echo "    the sample museum (Wrenfield) did not show once the welcome was closed"
        tmux -S "$tmux_socket" kill-server 2>/dev/null
        return 1
    fi
    tmux -S "$tmux_socket" send-keys q
    for _ in $(seq 1 100); do
        screen=$(tmux -S "$tmux_socket" capture-pane -p 2>/dev/null)
        grep -q "docent-exited-0" <<<"$screen" && break
        sleep 0.1
    done
    tmux -S "$tmux_socket" kill-server 2>/dev/null
    grep -q "docent-exited-0" <<<"$screen" || { echo "    the guide did not quit with status 0 on q"; return 1; }
}
check "the installed guide, run from /tmp, opens the bundled sample museum and quits on q" guide_opens "$root/usr/bin/docent"

# docent-pulse from the environment alone.
(cd "$work/elsewhere" && exec env -i PATH=/usr/bin:/bin DOCENT_PULSE_DATABASE="sqlite:$work/pulse.sqlite" DOCENT_PULSE_LISTEN=127.0.0.1:0 \
    "$root/usr/bin/docent-pulse" serve >"$work/pulse.out" 2>"$work/pulse.err") &
pulse_pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(sed -n 's/^docent-pulse listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$work/pulse.out")
    [ -n "$port" ] && break
    kill -0 "$pulse_pid" 2>/dev/null || break
    sleep 0.1
done
check "docent-pulse starts from DOCENT_PULSE_DATABASE and DOCENT_PULSE_LISTEN alone" [ -n "$port" ]
[ -n "$port" ] || sed 's/^/    /' "$work/pulse.err"
check "docent-pulse answers /healthz" bash -c "curl -fsS 'http://127.0.0.1:$port/healthz' >/dev/null"
curl -fsS -X POST "http://127.0.0.1:$port/v1/visitors" -H 'content-type: application/json' -d '{}' >/dev/null 2>&1
curl -fsS "http://127.0.0.1:$port/metrics" >"$work/metrics.txt" 2>/dev/null
check "/metrics passes promtool check metrics" bash -c "promtool check metrics <'$work/metrics.txt' >'$work/promtool.txt' 2>&1"
sed 's/^/    /' "$work/promtool.txt"
check "/metrics has pulse_build_info with the version" grep -q '^pulse_build_info{version="' "$work/metrics.txt"
check "/metrics has the process metrics" grep -q '^process_resident_memory_bytes ' "$work/metrics.txt"
kill -TERM "$pulse_pid" 2>/dev/null
wait "$pulse_pid"
status=$?
pulse_pid=""
check "docent-pulse ends with status 0 on SIGTERM (it ended with $status)" [ "$status" -eq 0 ]

# --- 4. the units ----------------------------------------------------------------------------
# verify checks that a unit's programs exist: the installed units, with the unpacked programs'
# place written in (the man pages are checked once installed, in the fresh Debian below).
mkdir -p "$work/units"
for u in docent-pulse.service docent-kiosk@.service; do
    sed "s|/usr/bin/docent|$root/usr/bin/docent|g" "$root/lib/systemd/system/$u" >"$work/units/$u"
done
cp "$work/units/docent-kiosk@.service" "$work/units/docent-kiosk@tty1.service"
for u in docent-pulse.service docent-kiosk@tty1.service; do
    if systemd-analyze verify --man=no "$work/units/$u" >"$work/verify.txt" 2>&1 && ! grep -q . "$work/verify.txt"; then
        ok "systemd-analyze verify $u"
    else
        fail "systemd-analyze verify $u"
        sed 's/^/    /' "$work/verify.txt"
    fi
done
score=$(systemd-analyze security --offline=yes "$work/units/docent-pulse.service" 2>/dev/null | sed -n 's/.*Overall exposure level for docent-pulse.service: \([0-9.]*\).*/\1/p')
echo "    systemd-analyze security docent-pulse.service: ${score:-?} (0 safest, 10 unsafe)"
check "docent-pulse.service is hardened: exposure ${score:-?} ≤ 1.5" awk -v s="${score:-99}" 'BEGIN { exit !(s <= 1.5) }'

# --- 6. make install / uninstall ---------------------------------------------------------------
dest="$work/destdir"
if make --no-print-directory -s install DESTDIR="$dest" PREFIX=/opt/docent-test >"$work/install.txt" 2>&1; then
    ok "make install DESTDIR=… PREFIX=/opt/docent-test"
    check "the installed guide finds its strings from its own path" test -f "$dest/opt/docent-test/share/docent/strings/en.json"
    check "each feature's strings are installed in a folder of their own" test -f "$dest/opt/docent-test/share/docent/strings/Map/zh.json"
    check "the unit names the installed program" grep -q '^ExecStart=/opt/docent-test/bin/docent-pulse serve --config /opt/docent-test/etc/docent/pulse.toml' \
        "$dest/opt/docent-test/lib/systemd/system/docent-pulse.service"
    # The prefix moved elsewhere still works (resources are found beside the program).
    mv "$dest/opt/docent-test" "$work/moved"
    check "a moved prefix still finds its strings and sample museum" guide_opens "$work/moved/bin/docent"
    mv "$work/moved" "$dest/opt/docent-test"
    make --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/opt/docent-test >"$work/uninstall.txt" 2>&1
    left=$(find "$dest" -mindepth 1 ! -type d | head -5)
    check "make uninstall removes every file it installed${left:+ (left: $left)}" [ -z "$left" ]
    check "make uninstall removes the folders it made" bash -c "[ -z \"\$(find '$dest/opt' -mindepth 1 2>/dev/null)\" ]"
    # What was there before is never removed.
    mkdir -p "$dest/opt/docent-test/etc/docent"
    echo 'listen = "127.0.0.1:9"' >"$dest/opt/docent-test/etc/docent/pulse.toml"
    make --no-print-directory -s install DESTDIR="$dest" PREFIX=/opt/docent-test >/dev/null 2>&1
    check "make install keeps a museum's own pulse.toml" grep -qx 'listen = "127.0.0.1:9"' "$dest/opt/docent-test/etc/docent/pulse.toml"
    make --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/opt/docent-test >/dev/null 2>&1
    check "make uninstall leaves a museum's own pulse.toml" test -f "$dest/opt/docent-test/etc/docent/pulse.toml"
else
    fail "make install DESTDIR=… PREFIX=/opt/docent-test"
    sed 's/^/    /' "$work/install.txt"
fi

# --- 7. a fresh Debian 12 ----------------------------------------------------------------------
if [ "${DOCENT_TEST_CHROOT:-1}" = 0 ] || [ "$(id -u)" -ne 0 ] || ! command -v debootstrap >/dev/null; then
    skipped=$((skipped + 1))
    echo "skip - a fresh Debian 12 (needs root, debootstrap and DOCENT_TEST_CHROOT unset)"
else
    scripts/test-packages-chroot.sh "$guide_deb" "$pulse_deb" "$work/chroot" >"$work/chroot.txt" 2>&1
    status=$?
    sed 's/^/    /' "$work/chroot.txt"
    p=$(grep -c '^ok - ' "$work/chroot.txt")
    f=$(grep -c '^FAIL - ' "$work/chroot.txt")
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then fail "a fresh Debian 12: the chroot test ended with status $status"; fi
fi

echo "packages: $passed passed, $failed failed${skipped:+, $skipped skipped}"
[ "$failed" -eq 0 ]
