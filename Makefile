# Docent: two commands do all set-up on a fresh Debian machine.
#   make run    install what is missing, build, open the guide on the bundled SampleData
#   make test   install what is missing (test tools too), build, run every test
SWIFT ?= swift
DATA ?= SampleData/appData.json
RELEASE_BIN_DIR = .build/release
RELEASE_BIN = $(RELEASE_BIN_DIR)/docent
DEBUG_BIN = .build/debug/docent
# Release builds carry the Swift runtime inside (issue 43 #2): they run on a Debian machine
# without the toolchain. DECISIONS.md (2026-11-28) has what it costs.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath
# make install: PREFIX, DESTDIR, SYSCONFDIR, UNITDIR (see scripts/install.sh).
PREFIX ?= /usr/local
export PREFIX DESTDIR SYSCONFDIR UNITDIR

.PHONY: strings check-strings textwidth all deps deps-test deps-bench deps-deb build build-release build-programs run test check-slices test-core test-ui test-app test-adapters test-e2e check-boundaries bench sampledata clean man install uninstall deb test-packages

all: build

deps:
	@scripts/deps.sh build

deps-test:
	@scripts/deps.sh test

deps-bench:
	@scripts/deps.sh bench

deps-deb:
	@scripts/deps.sh deb

build: deps strings
	$(SWIFT) build

# The programs and the benches, each by name: a plain `swift build` of the whole package would
# build the tests' support targets too, which import XCTest, and the static runtime has none.
# The programs that open poppler, chafa, GdkPixbuf and OpenCC on first use (CLazyLibs): those
# libraries are taken out of their NEEDED list once linked (scripts/lazy-needed.sh, issue 48).
LAZY_PRODUCTS = docent docent-guide-bench docent-map-bench docent-search-bench
RELEASE_PRODUCTS = docent docent-pulse docent-guide-bench docent-bench docent-audio-bench docent-map-bench docent-search-bench docent-pulse-bench
build-release: deps strings
	@for p in $(RELEASE_PRODUCTS); do $(SWIFT) build $(RELEASE_FLAGS) --product $$p || exit 1; done
	@scripts/lazy-needed.sh $(addprefix $(RELEASE_BIN_DIR)/,$(LAZY_PRODUCTS))

# The two programs a museum installs, alone (what `make install` and `make deb` need).
build-programs: deps strings
	$(SWIFT) build $(RELEASE_FLAGS) --product docent
	$(SWIFT) build $(RELEASE_FLAGS) --product docent-pulse
	@scripts/lazy-needed.sh $(RELEASE_BIN_DIR)/docent

# Man pages (swift-argument-parser's generate-manual, from each program's own parser) and
# bash, zsh and fish completions (the programs' --generate-completion-script), into
# .build/generated. Nothing here is written by hand.
man: build-programs
	@scripts/generate-docs.sh

install: man
	@scripts/install.sh install all

uninstall:
	@scripts/install.sh uninstall

# Two Debian packages into dist/: docent_VERSION_ARCH.deb and docent-pulse_VERSION_ARCH.deb.
deb: deps-deb man
	@scripts/package-deb.sh

# The packages built and checked from this tree: lintian, their files, the installed programs
# run with the source tree out of reach (scripts/test-packages.sh).
test-packages: deps-test deb
	@scripts/test-packages.sh

# StringKey (Sources/DocentCore/Store/StringKey.swift) from en.json's keys: `make` and
# `make run` regenerate it (a no-op when the keys did not change); `make test` fails while the
# committed file is stale (CI builds what is committed). A machine with no python3 (not among
# the build packages) builds with the committed file.
strings:
	@if command -v python3 >/dev/null; then python3 scripts/gen-string-keys.py; \
	else echo "make strings: no python3; building with the committed StringKey.swift"; fi

check-strings:
	@python3 scripts/gen-string-keys.py --check

run: build-release
	$(RELEASE_BIN) --data $(DATA)

# The rules on the sources (fast, first), then on the objects the compiler made for the pure
# targets (scripts/check-symbols.sh: what they need from outside), then the proof that both
# catch every probe (scripts/test-boundaries.sh).
check-boundaries:
	@scripts/check-boundaries.sh
	$(SWIFT) build --target DocentApp
	@scripts/check-symbols.sh
	@scripts/test-boundaries.sh

# `arch-slices` (issue 46): the built docent-pulse holds no symbol of the guide's modules nor
# of Search, Map, Tours or Keypad; the self-test first proves the check fails on docent.
check-slices:
	$(SWIFT) build --product docent --product docent-pulse
	@scripts/check-slices.sh --self-test "$$($(SWIFT) build --show-bin-path)"

# Every XCTest test (Swift Testing is not used), in two lanes at once: the real-time audio
# classes beside the rest (scripts/run-tests.sh); its last line sums both up.
test: deps-test check-strings check-boundaries
	$(SWIFT) build --build-tests
	@scripts/check-slices.sh --self-test "$$($(SWIFT) build --show-bin-path)"
	scripts/run-tests.sh
	$(MAKE) --no-print-directory test-packages

# Faster loops while working on one part (`make test` still runs everything, and is what CI runs).
# The filters are anchored on the test module, so a class such as JSONAdapterTests in another
# module is not pulled in.
SWIFT_TEST = $(SWIFT) test --disable-swift-testing
test-core: deps-test
	$(SWIFT_TEST) --filter '^DocentCoreTests\.'
test-ui: deps-test
	$(SWIFT_TEST) --filter '^DocentUITests\.'
test-app: deps-test
	$(SWIFT_TEST) --filter '^DocentAppTests\.'
test-adapters: deps-test
	$(SWIFT_TEST) --filter '^AdapterTests\.'
test-e2e: deps-test
	$(SWIFT) build
	$(SWIFT_TEST) --filter '^EndToEndTests\.'

# Every figure is a ratio against an anchor measured in the same run (see README).
bench: deps-bench build-release
	@st=0; scripts/bench.sh || st=1; scripts/bench-search.sh || st=1; scripts/bench-audio.py || st=1; scripts/bench-pictures.py || st=1; scripts/bench-pulse.py || st=1; scripts/bench-console.py || st=1; exit $$st

# Regenerates the character-width tables from the Unicode Character Database (pinned version).
textwidth:
	python3 scripts/gen-textwidth.py

sampledata:
	python3 scripts/make_sampledata.py
	python3 scripts/make-sample-pictures.py

clean:
	rm -rf .build .test-run dist
