#!/usr/bin/env bash
# Installs Docent (issue 43 #1): `make install` / `make uninstall`, and the two Debian packages'
# trees (scripts/package-deb.sh).
#   scripts/install.sh install guide|pulse|all   copies the built binaries and what they need
#   scripts/install.sh uninstall                 removes exactly what the manifest lists
# Settings (from make): PREFIX (/usr/local), DESTDIR, SYSCONFDIR (/etc for PREFIX=/usr, else
# PREFIX/etc), UNITDIR (PREFIX/lib/systemd/system), BIN (the built binaries' folder), GEN (the
# generated man pages and completions' folder), MANIFEST (written by install, read by uninstall).
#
# The layout an installed binary relies on: <prefix>/bin/docent finds its UI strings in
# <prefix>/share/docent/strings and the sample museum in <prefix>/share/docent/SampleData, by its
# own path, so a prefix can move. Configuration files are examples under share/docent/examples;
# into SYSCONFDIR/docent only where no file of that name is (a museum's edits are never
# overwritten), and then listed in the manifest.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
if [ -z "${SYSCONFDIR:-}" ]; then
    if [ "$PREFIX" = /usr ]; then SYSCONFDIR=/etc; else SYSCONFDIR=$PREFIX/etc; fi
fi
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
BIN=${BIN:-.build/release}
GEN=${GEN:-.build/generated}
MANIFEST=${MANIFEST:-$PREFIX/share/docent/install-manifest.txt}
# Whether configuration files go into SYSCONFDIR (the packages put them there themselves).
ETC=${ETC:-yes}

case "$PREFIX" in /*) ;; *) echo "install: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 2 ;; esac
action=${1:-}
component=${2:-all}

manifest=()
put() {  # put MODE SOURCE TARGET (TARGET without DESTDIR)
    # The folders this makes are listed too (ending in /), so uninstall removes them and no other.
    local d
    d=$(dirname "$3")
    while [ "$d" != / ] && [ ! -d "$DESTDIR$d" ]; do manifest+=("$d/"); d=$(dirname "$d"); done
    install -D -m "$1" "$2" "$DESTDIR$3"
    manifest+=("$3")
}
unit() {  # unit TEMPLATE NAME: the unit with the installed paths written in
    local tmp
    tmp=$(mktemp)
    sed -e "s|@BINDIR@|$PREFIX/bin|g" -e "s|@SYSCONFDIR@|$SYSCONFDIR|g" "$1" >"$tmp"
    put 0644 "$tmp" "$UNITDIR/$2"
    rm -f "$tmp"
}
config() {  # config EXAMPLE NAME MODE: the example, and the live file where there is none
    put 0644 "$1" "$PREFIX/share/docent/examples/$2"
    if [ "$ETC" = yes ] && [ ! -e "$DESTDIR$SYSCONFDIR/docent/$2" ]; then
        put "$3" "$1" "$SYSCONFDIR/docent/$2"
    fi
}
binary() {  # binary NAME: stripped (the packages' binaries are stripped too)
    [ -x "$BIN/$1" ] || { echo "install: no $BIN/$1: run 'make build-release' first" >&2; exit 1; }
    put 0755 "$BIN/$1" "$PREFIX/bin/$1"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$DESTDIR$PREFIX/bin/$1"
}
generated() {  # generated NAME: man page and completions made from the binary's own parser
    [ -f "$GEN/man/$1.1" ] || { echo "install: no $GEN/man/$1.1: run 'make man' first" >&2; exit 1; }
    put 0644 "$GEN/man/$1.1" "$PREFIX/share/man/man1/$1.1"
    put 0644 "$GEN/completions/$1.bash" "$PREFIX/share/bash-completion/completions/$1"
    put 0644 "$GEN/completions/_$1" "$PREFIX/share/zsh/vendor-completions/_$1"
    put 0644 "$GEN/completions/$1.fish" "$PREFIX/share/fish/vendor_completions.d/$1.fish"
}

install_guide() {
    binary docent
    generated docent
    # The shared tables, then each feature's in a folder of its own (StringFiles reads both).
    for f in Resources/strings/*.json; do put 0644 "$f" "$PREFIX/share/docent/strings/$(basename "$f")"; done
    for f in Sources/Features/*/Strings/*.json; do
        feature=${f#Sources/Features/}
        put 0644 "$f" "$PREFIX/share/docent/strings/${feature%%/*}/$(basename "$f")"
    done
    while IFS= read -r -d '' f; do
        put 0644 "$f" "$PREFIX/share/docent/$f"
    done < <(find SampleData -type f -print0 | sort -z)
    config Resources/examples/kiosk.toml kiosk.toml 0644
    unit "Resources/systemd/docent-kiosk@.service.in" "docent-kiosk@.service"
}

install_pulse() {
    binary docent-pulse
    generated docent-pulse
    put 0644 Resources/pulse-openapi.yaml "$PREFIX/share/docent/pulse-openapi.yaml"
    config Resources/examples/pulse.toml pulse.toml 0644
    config Resources/examples/pulse.env pulse.env 0600
    unit Resources/systemd/docent-pulse.service.in docent-pulse.service
}

case "$action" in
install)
    case "$component" in
    guide) install_guide ;;
    pulse) install_pulse ;;
    all) install_guide; install_pulse ;;
    *) echo "install: guide, pulse or all, not '$component'" >&2; exit 2 ;;
    esac
    # The manifest lists every file this install wrote (and itself), for `make uninstall`.
    mkdir -p "$(dirname "$DESTDIR$MANIFEST")"
    { [ -f "$DESTDIR$MANIFEST" ] && cat "$DESTDIR$MANIFEST"; printf '%s\n' "${manifest[@]}" "$MANIFEST"; } | sort -u >"$DESTDIR$MANIFEST.new"
    mv "$DESTDIR$MANIFEST.new" "$DESTDIR$MANIFEST"
    echo "installed ${#manifest[@]} files under ${DESTDIR}${PREFIX} (list: $DESTDIR$MANIFEST)"
    ;;
uninstall)
    [ -f "$DESTDIR$MANIFEST" ] || { echo "uninstall: no $DESTDIR$MANIFEST: nothing was installed with PREFIX=$PREFIX" >&2; exit 1; }
    # Read whole first: the manifest lists itself.
    list=$(cat "$DESTDIR$MANIFEST")
    n=0
    while IFS= read -r f; do
        case "$f" in ''|*/) continue ;; esac
        if [ -e "$DESTDIR$f" ] || [ -L "$DESTDIR$f" ]; then rm -f "$DESTDIR$f"; n=$((n + 1)); fi
    done <<<"$list"
    # The folders the install made, deepest first, each only if nothing else lives in it now.
    grep '/$' <<<"$list" | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2- | while IFS= read -r d; do
        rmdir "$DESTDIR$d" 2>/dev/null || true
    done
    echo "removed $n files installed under ${DESTDIR}${PREFIX}"
    ;;
*) echo "usage: scripts/install.sh install guide|pulse|all | uninstall" >&2; exit 2 ;;
esac
