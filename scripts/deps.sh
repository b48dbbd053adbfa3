#!/usr/bin/env bash
# Installs the Debian packages Docent needs, only those missing.
#   scripts/deps.sh build   libraries to build and run the guide
#   scripts/deps.sh test    plus the real components the tests start (PulseAudio, nginx, tmux…)
#   scripts/deps.sh bench   plus the anchors `make bench` measures against (the chafa command)
#   scripts/deps.sh deb     plus what `make deb` builds the packages with
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail
build_pkgs=(patchelf libncursesw5-dev libcurl4-openssl-dev libmpg123-dev libpulse-dev libsoundtouch-dev libsqlite3-dev pkg-config libpoppler-glib-dev libchafa-dev libgdk-pixbuf-2.0-dev webp-pixbuf-loader libstemmer-dev libopencc-dev)
test_pkgs=(tmux opencc libjpeg-turbo-progs pulseaudio pulseaudio-utils nginx-light sox libsox-fmt-mp3 mpg123 espeak-ng lame poppler-utils time postgresql wrk sqlite3 strace chromium chromium-driver)
# `make deb` (dpkg-shlibdeps, strip) and its checks in `make test` (scripts/test-packages.sh):
# lintian, promtool (Debian ships it in prometheus; its server is not started), debootstrap for
# the fresh Debian 12 the packages are installed in, file and curl.
deb_pkgs=(dpkg-dev binutils)
package_test_pkgs=(lintian prometheus debootstrap file curl)
# For `make bench` only: the chafa command (the pictures' anchor). It pulls ghostscript, whose
# fonts and poppler-data change how poppler draws the floor plans' labels, so the map tests'
# fixtures (rasterised without them) would no longer match on that machine.
bench_pkgs=(chafa)
want=("${build_pkgs[@]}")
case "${1:-build}" in
  deb) want+=("${deb_pkgs[@]}") ;;
  test) want+=("${test_pkgs[@]}" "${deb_pkgs[@]}" "${package_test_pkgs[@]}") ;;
  bench) want+=("${test_pkgs[@]}" "${bench_pkgs[@]}") ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The character-width oracle for the tests (Python's wcwidth, and the Unicode database it is
# checked against), from PyPI; also what scripts/gen-textwidth.py reads.
# And schemathesis, which fuzzes the Pulse service against Resources/pulse-openapi.yaml; selenium,
# which drives the staff console's browser tests in headless Chromium (4.39: the newest wants a
# certifi the index here does not have); axe-core-python, which carries axe-core 4.4 (axe.min.js)
# for the console's accessibility check.
if [ "${1:-build}" != "build" ] && [ "${1:-build}" != "deb" ] && ! python3 -c 'import importlib.util, wcwidth, unicodedata2, schemathesis, selenium; assert wcwidth.__version__ == "0.7.0" and unicodedata2.unidata_version == "17.0.0" and schemathesis.__version__ == "4.32.5" and selenium.__version__.startswith("4.39") and importlib.util.find_spec("axe_core_python")' 2>/dev/null; then
  pipcmd="python3 -m pip install --quiet wcwidth==0.7.0 unicodedata2==17.0.1 schemathesis==4.32.5 selenium==4.39.0 axe-core-python==0.1.0"
  if [ "$(id -u)" -ne 0 ] && [ -z "${VIRTUAL_ENV:-}" ]; then
    echo "docent: the tests need Python's wcwidth 0.7.0, unicodedata2 17.0.1, schemathesis 4.32.5, selenium 4.39.0 and axe-core-python 0.1.0: $pipcmd" >&2
    exit 1
  fi
  echo "Installing: wcwidth 0.7.0, unicodedata2 17.0.1, schemathesis 4.32.5, selenium 4.39.0, axe-core-python 0.1.0 (PyPI)"
  $pipcmd 2>/dev/null || python3 -m pip install --quiet --break-system-packages wcwidth==0.7.0 unicodedata2==17.0.1 schemathesis==4.32.5 selenium==4.39.0 axe-core-python==0.1.0
fi
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "docent: missing system packages: ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "  sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
