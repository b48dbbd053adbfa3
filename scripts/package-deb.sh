#!/usr/bin/env bash
# Builds the two Debian packages into dist/ (issue 43 #3), from the release binaries and the
# generated man pages and completions (make deb runs make man first):
#   docent_VERSION_ARCH.deb        the guide, the sample museum, its man page and completions,
#                                  the kiosk unit and /etc/docent/kiosk.toml
#   docent-pulse_VERSION_ARCH.deb  the service and its staff console, its man page and
#                                  completions, its unit, a system user, /var/lib/docent-pulse,
#                                  /etc/docent/pulse.toml and pulse.env
# Both trees are laid out by scripts/install.sh (PREFIX=/usr), so `make install` and the
# packages install the same files. Depends come from the libraries the binaries really load
# (dpkg-shlibdeps); the version from `git describe` (a tag vX.Y.Z; between tags X.Y.Z+N.gHASH).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
arch=$(dpkg --print-architecture)

# The version: the newest tag vX.Y.Z, and how far past it this tree is.
swiftver=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/DocentText/DocentVersion.swift)
if desc=$(git describe --tags --match 'v[0-9]*' 2>/dev/null); then
    version=${desc#v}
    # v0.4.0-3-gabc1234 → 0.4.0+3.gabc1234 (a Debian version sorts it after 0.4.0)
    version=$(sed -E 's/-([0-9]+)-g([0-9a-f]+)$/+\1.g\2/' <<<"$version")
else
    # A clone without tags (CI's): the version the programs say, and the commit.
    version="$swiftver+git.$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
fi
case "$version" in "$swiftver"|"$swiftver"+*) ;; *)
    echo "package-deb: the tag says $version but the programs say $swiftver (Sources/DocentText/DocentVersion.swift): tag or bump one of them" >&2
    exit 1 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p dist
rm -f dist/docent_*.deb dist/docent-pulse_*.deb

maintainer="Docent developers <docent@museum.example>"
date_rfc=$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")

# build PACKAGE COMPONENT SECTION SUMMARY DESCRIPTION EXTRA_DEPENDS [RECOMMENDS]
# (the guide recommends the WebP loader: GdkPixbuf decodes pictures with a plug-in per format,
# which no NEEDED entry names)
build() {
    local pkg=$1 component=$2 section=$3 summary=$4 description=$5 extra=$6 recommends=${7:-}
    local stage="$work/$pkg"
    mkdir -p "$stage/DEBIAN"
    PREFIX=/usr SYSCONFDIR=/etc UNITDIR=/lib/systemd/system DESTDIR="$stage" MANIFEST=/manifest ETC=yes \
        scripts/install.sh install "$component" >/dev/null
    rm -f "$stage/manifest"
    # Debian's places: man pages compressed, the copyright and changelog in /usr/share/doc.
    gzip -9n "$stage"/usr/share/man/man1/*.1
    install -D -m 0644 "$root/scripts/packaging/copyright" "$stage/usr/share/doc/$pkg/copyright"
    {
        echo "$pkg ($version) unstable; urgency=medium"
        echo
        echo "  * Release $version: see /usr/share/doc/$pkg/CHANGELOG.md."
        echo
        echo " -- $maintainer  $date_rfc"
    } | gzip -9n >"$stage/usr/share/doc/$pkg/changelog.gz"
    install -m 0644 "$root/CHANGELOG.md" "$stage/usr/share/doc/$pkg/CHANGELOG.md"
    for s in postinst postrm; do
        if [ -f "$root/scripts/packaging/$pkg.$s" ]; then install -m 0755 "$root/scripts/packaging/$pkg.$s" "$stage/DEBIAN/$s"; fi
    done
    # Every file under /etc is a configuration file: an upgrade keeps a museum's edits; purge removes them.
    (cd "$stage" && find etc -type f | sed 's|^|/|' | sort) >"$stage/DEBIAN/conffiles"
    if [ ! -s "$stage/DEBIAN/conffiles" ]; then rm -f "$stage/DEBIAN/conffiles"; fi

    # Depends: from the ELF files' own NEEDED libraries, through the packages that ship them.
    local shlib
    mkdir -p "$work/shlibs-$pkg/debian"
    printf 'Source: docent\n\nPackage: %s\nArchitecture: any\n' "$pkg" >"$work/shlibs-$pkg/debian/control"
    shlib=$(cd "$work/shlibs-$pkg" && dpkg-shlibdeps -O -e"$stage/usr/bin/$pkg" 2>"$work/shlibdeps-$pkg.log") \
        || { cat "$work/shlibdeps-$pkg.log" >&2; exit 1; }
    shlib=${shlib#shlibs:Depends=}
    local depends=$shlib
    if [ -n "$extra" ]; then depends="$depends, $extra"; fi
    local size
    size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
    cat >"$stage/DEBIAN/control" <<CONTROL
Package: $pkg
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends${recommends:+
Recommends: $recommends}
Section: $section
Priority: optional
Description: $summary
$(sed 's/^/ /; s/^ $/ ./' <<<"$description")
CONTROL
    dpkg-deb --root-owner-group -Zxz --build "$stage" "dist/${pkg}_${version}_${arch}.deb" >/dev/null
    echo "package-deb: dist/${pkg}_${version}_${arch}.deb ($(du -h "dist/${pkg}_${version}_${arch}.deb" | cut -f1), Depends: $depends)"
}

# The guide opens libcurl, poppler, cairo, chafa, GdkPixbuf, GLib and OpenCC on first use (CLazyLibs), so
# they are not in its NEEDED list and dpkg-shlibdeps does not see them: named here.
build docent guide misc "terminal museum audio guide" \
"Docent is a museum guide for the terminal: a laptop, a kiosk on a
Linux console or an SSH session get what a museum's phone app gives.
Type the number on an artwork's label to hear its commentary with the
transcript, walk narrated tours, read the floor plans, search the
collection, and share notes and reactions with other visitors (Visitor
Pulse). It reads the appData.json that the Art Institute of Chicago's
app publishes, so any museum using that format can use it as it is.

This package has the guide, a sample museum, and a systemd unit that
runs it in kiosk mode on a console (docent-kiosk@tty1)." "libcurl4, libpoppler-glib8, libcairo2, libchafa0, libgdk-pixbuf-2.0-0, libglib2.0-0, libopencc1.1" "webp-pixbuf-loader"

build docent-pulse pulse net "Visitor Pulse service for the Docent museum guide" \
"docent-pulse keeps the notes, reactions and reports that visitors leave
in the Docent guides of one museum, over HTTP, in SQLite or PostgreSQL,
with a staff console in the browser for moderation, featured works and
announcements.

This package has the service, a hardened systemd unit, a system user
and its state folder (/var/lib/docent-pulse), and its settings
(/etc/docent/pulse.toml, and pulse.env for secrets)." "adduser"
