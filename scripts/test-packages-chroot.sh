#!/usr/bin/env bash
# The two packages on a fresh Debian 12 without Swift (issue 43 #3, #7): a minimal bookworm made
# by debootstrap (the first run keeps it in /var/cache/docent-test; later runs unpack that copy),
# then, as a museum's IT would: `apt-get install ./docent_*.deb ./docent-pulse_*.deb`, the
# guide and the service run there (the service as its own user, from its packaged settings),
# `dpkg -r` then `dpkg --purge`, and nothing of theirs left. Every mount lives in a private mount
# namespace of its own (unshare -m), so it vanishes with it and no host folder is ever bound
# under the tree that is deleted.
#   scripts/test-packages-chroot.sh GUIDE.deb PULSE.deb DIR       prints "ok - …" / "FAIL - …"
set -uo pipefail
guide_deb=$(readlink -f "$1")
pulse_deb=$(readlink -f "$2")
dir=$3
mirror=${DOCENT_TEST_MIRROR:-http://deb.debian.org/debian}
cache=/var/cache/docent-test/bookworm-minbase-root.tar.gz
ok() { echo "ok - $*"; }
fail() { echo "FAIL - $*"; }
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else fail "$what"; fi
}
# in_root COMMAND…: run in the chroot, with /proc and /dev, in a mount namespace of its own.
in_root() {
    unshare -m -- sh -c 'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" && mount --make-rslave "$0/dev" && exec chroot "$0" "$@"' "$dir" "$@"
}
export -f in_root
export dir

mkdir -p "$(dirname "$cache")" "$dir"
if [ -f "$cache" ]; then
    tar -C "$dir" -xzf "$cache" || { fail "unpack the kept Debian 12 ($cache)"; exit 1; }
else
    if ! debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1; then
        tail -20 "$dir.debootstrap.log"
        fail "debootstrap a Debian 12 (bookworm) from $mirror"
        exit 1
    fi
    tar -C "$dir" -czf "$cache.tmp" . && mv "$cache.tmp" "$cache"
fi
cp /etc/resolv.conf "$dir/etc/resolv.conf"
check "the fresh Debian 12 has no Swift" bash -c "[ ! -e '$dir/opt/swift' ] && ! ls '$dir'/usr/lib/*/libswiftCore.so '$dir'/usr/lib/libswiftCore.so >/dev/null 2>&1"

mkdir -p "$dir/tmp/debs"
cp "$guide_deb" "$pulse_deb" "$dir/tmp/debs/"
if in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/debs/*.deb' >"$dir.apt.log" 2>&1; then
    ok "apt-get install ./docent_*.deb ./docent-pulse_*.deb on a fresh Debian 12"
else
    tail -30 "$dir.apt.log"
    fail "apt-get install ./docent_*.deb ./docent-pulse_*.deb on a fresh Debian 12"
    exit 1
fi
check "docent --version runs there" bash -c "in_root /usr/bin/docent --version | grep -qE '^[0-9]+\.[0-9]+\.[0-9]+'"
check "both man pages are found by man's path" bash -c "[ -f '$dir/usr/share/man/man1/docent.1.gz' ] && [ -f '$dir/usr/share/man/man1/docent-pulse.1.gz' ]"
check "the system user docent-pulse exists" bash -c "in_root getent passwd docent-pulse >/dev/null"
check "/var/lib/docent-pulse belongs to it" bash -c "[ \"\$(in_root stat -c %U /var/lib/docent-pulse)\" = docent-pulse ]"

# The guide under tmux (the terminal types a minimal Debian has: ncurses-base).
sock="$dir.tmux"
tmux -S "$sock" -f /dev/null new-session -d -x 80 -y 24 \
    "unshare -m -- sh -c 'mount -t proc proc $dir/proc && mount --rbind /dev $dir/dev && mount --make-rslave $dir/dev && exec chroot $dir env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 TERM=screen /usr/bin/docent --lang en'; echo docent-exited-\$?; sleep 30"
seen=""
for _ in $(seq 1 200); do
    screen=$(tmux -S "$sock" capture-pane -p 2>/dev/null)
    if grep -qE "Wrenfield|Welcome to Docent" <<<"$screen"; then seen=yes; break; fi
    if grep -q docent-exited <<<"$screen"; then break; fi
    sleep 0.1
done
check "the guide opens the bundled sample museum on a fresh Debian 12" [ -n "$seen" ]
[ -n "$seen" ] || sed 's/^/    /' <<<"$screen"
tmux -S "$sock" send-keys Escape
seen=""
for _ in $(seq 1 50); do
    screen=$(tmux -S "$sock" capture-pane -p 2>/dev/null)
    if ! grep -q "Welcome to Docent" <<<"$screen" && grep -q Wrenfield <<<"$screen"; then seen=yes; break; fi
    sleep 0.1
done
check "the sample museum (Wrenfield) shows once the welcome is closed" [ -n "$seen" ]
tmux -S "$sock" send-keys q
for _ in $(seq 1 100); do
    grep -q docent-exited-0 <<<"$(tmux -S "$sock" capture-pane -p 2>/dev/null)" && break
    sleep 0.1
done
check "the guide quits with status 0 there" grep -q docent-exited-0 <<<"$(tmux -S "$sock" capture-pane -p 2>/dev/null)"
tmux -S "$sock" kill-server 2>/dev/null

# The service as its unit runs it: its user, its packaged settings (the environment wins: a free port).
unshare -m -- sh -c 'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" && mount --make-rslave "$0/dev" && exec chroot --userspec=docent-pulse:docent-pulse "$0" env -i PATH=/usr/bin:/bin DOCENT_PULSE_LISTEN=127.0.0.1:0 /usr/bin/docent-pulse serve --config /etc/docent/pulse.toml' \
    "$dir" >"$dir.pulse.out" 2>"$dir.pulse.err" &
pid=$!
port=""
for _ in $(seq 1 100); do
    port=$(sed -n 's/^docent-pulse listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$dir.pulse.out")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
check "docent-pulse starts there as its user from /etc/docent/pulse.toml" [ -n "$port" ]
[ -n "$port" ] || sed 's/^/    /' "$dir.pulse.err"
check "and answers /healthz" bash -c "curl -fsS 'http://127.0.0.1:$port/healthz' >/dev/null"
check "its store is /var/lib/docent-pulse/pulse.sqlite, as the packaged settings say" test -f "$dir/var/lib/docent-pulse/pulse.sqlite"
pkill -TERM -P "$pid" 2>/dev/null
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

# Remove, then purge: nothing of theirs is left, conffiles and state go with the purge.
in_root dpkg -L docent docent-pulse 2>/dev/null | sort -u >"$dir.files"
echo "edited by the museum" >>"$dir/etc/docent/pulse.toml"
check "dpkg -r docent docent-pulse" bash -c "in_root dpkg -r docent docent-pulse >'$dir.remove.log' 2>&1"
left=""
while IFS= read -r f; do
    case "$f" in /etc/docent/*|/.|/etc|/usr|/usr/*/|/lib|/var) continue ;; esac
    [ -f "$dir$f" ] && left="$left $f"
done <"$dir.files"
check "dpkg -r leaves no program, page or unit of theirs${left:+ (left:$left)}" [ -z "$left" ]
check "dpkg -r keeps the museum's edited pulse.toml" grep -q "edited by the museum" "$dir/etc/docent/pulse.toml"
check "dpkg --purge docent docent-pulse" bash -c "in_root dpkg --purge docent docent-pulse >'$dir.purge.log' 2>&1"
check "purge removes the configuration (/etc/docent)" test ! -e "$dir/etc/docent"
check "purge removes the service's state (/var/lib/docent-pulse)" test ! -e "$dir/var/lib/docent-pulse"
check "dpkg knows neither package any more" bash -c "! in_root dpkg -s docent >/dev/null 2>&1 && ! in_root dpkg -s docent-pulse >/dev/null 2>&1"
exit 0
