#!/usr/bin/env bash
# Man pages and shell completions for docent and docent-pulse, generated from their own argument
# parsers (issue 43 #1), into .build/generated/{man,completions}:
# - man: swift-argument-parser's generate-manual (the tool its GenerateManual plugin runs), built
#   from the package's checkout, run on each release binary (which it asks for
#   --experimental-dump-help); one page per program with every subcommand in it; dated by the
#   last commit, so the same tree makes the same pages;
# - completions: each program's --generate-completion-script for bash, zsh and fish.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
BIN=${BIN:-.build/release}
OUT=${GEN:-.build/generated}
parser=.build/checkouts/swift-argument-parser
[ -d "$parser" ] || { echo "generate-docs: no $parser: run 'swift package resolve' (make build-programs does)" >&2; exit 1; }
tools=.build/argument-parser-tools
"$SWIFT" build --package-path "$parser" --scratch-path "$tools" -c release --product generate-manual >/dev/null 2>"$tools.log" \
    || "$SWIFT" build --package-path "$parser" --scratch-path "$tools" -c release --target generate-manual >/dev/null 2>>"$tools.log" \
    || { cat "$tools.log" >&2; exit 1; }
gm="$tools/release/generate-manual"
[ -x "$gm" ] || { echo "generate-docs: generate-manual was not built ($tools.log)" >&2; exit 1; }
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
rm -rf "$OUT"
mkdir -p "$OUT/man" "$OUT/completions"
for p in docent docent-pulse; do
    [ -x "$BIN/$p" ] || { echo "generate-docs: no $BIN/$p (make build-programs)" >&2; exit 1; }
    # The settings a museum's machine has must not leak into the pages' defaults.
    env -i PATH="$PATH" HOME=/nonexistent "$gm" "$BIN/$p" --date "$date" --section 1 \
        --authors "Docent developers" --output-directory "$OUT/man"
    [ -s "$OUT/man/$p.1" ] || { echo "generate-docs: no man page was made for $p" >&2; exit 1; }
    # Empty lines are no mdoc (groff warns of each); bash-completion sources its scripts, so
    # no #! line (lintian: bash-completion-with-hashbang).
    sed -i '/^$/d' "$OUT/man/$p.1"
    env -i PATH="$PATH" HOME=/nonexistent "$BIN/$p" --generate-completion-script bash | sed '1{/^#!/d}' >"$OUT/completions/$p.bash"
    env -i PATH="$PATH" HOME=/nonexistent "$BIN/$p" --generate-completion-script zsh >"$OUT/completions/_$p"
    env -i PATH="$PATH" HOME=/nonexistent "$BIN/$p" --generate-completion-script fish >"$OUT/completions/$p.fish"
done
echo "generate-docs: $(ls "$OUT/man" | wc -l) man pages, $(ls "$OUT/completions" | wc -l) completion scripts in $OUT"
