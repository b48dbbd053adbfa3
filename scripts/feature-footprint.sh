#!/usr/bin/env bash
# How far a change reached outside the features it is about, read from the diff alone
# (issue 46: not from the names in commit messages).
#
#   scripts/feature-footprint.sh [--whole] [RANGE]
#
# RANGE is a git revision range (default: HEAD^..HEAD). Each commit in it is one change; with
# --whole the range's whole diff is one change (a branch, a merged helper's work). For a
# change the script prints:
#   - the features it touched: the `Sources/Features/<Name>/` folders its diff reaches (the
#     service, `Sources/PulseService` and `Sources/docent-pulse`, is Pulse's; before the move,
#     `Sources/<Target>/Features/<Name>/`);
#   - the shared files it touched: every other changed file under `Sources/` (the targets'
#     roots, the registry, the support code), and `Resources/strings/` (the shared text
#     tables), with the count;
#   - whether that meets the goal: at most 3 shared files for a change within one feature, at
#     most 6 for one that cuts across several (or none: a change of the shared code alone).
# Tests, scripts, documents and Package.swift are not counted (they are not a feature's home).
# A rename counts where the file went to and where it came from.
set -euo pipefail
cd "$(dirname "$0")/.."
whole=no
if [ "${1:-}" = --whole ]; then whole=yes; shift; fi
range=${1:-HEAD^..HEAD}

# name-status of a change (a commit, or a range with --whole): one path a line, both sides of
# a rename.
paths() {
  if [ $whole = yes ]; then git diff --name-status -M "${range%%..*}" "${range##*..}"; else git show --name-status -M --format= "$1"; fi |
    awk -F'\t' 'NF >= 2 { for (i = 2; i <= NF; i++) print $i }' | sort -u
}

report() {
  local label=$1 subject=$2 list=$3
  local features shared n goal verdict
  features=$(sed -nE 's#^Sources/Features/([^/]+)/.*#\1#p; s#^Sources/[^/]+/Features/([^/]+)/.*#\1#p; s#^Sources/(PulseService|docent-pulse)/.*#Pulse#p' <<<"$list" | sort -u | paste -sd, -)
  shared=$(grep -E '^(Sources/|Resources/strings/)' <<<"$list" | grep -vE '^Sources/(Features|[^/]+/Features/[^/]+|PulseService|docent-pulse)/' || true)
  n=$(grep -c . <<<"$shared" || true)
  if [ -z "$features" ] || [[ $features == *,* ]]; then goal=6; else goal=3; fi
  verdict=$([ "$n" -le $goal ] && echo "yes" || echo "NO")
  printf '| %s | %s | %s | %d | %s (≤ %d) | %s |\n' "$label" "${subject//|/\\|}" "${features:-–}" "$n" "$verdict" "$goal" \
    "$(head -8 <<<"$shared" | paste -sd' ' - | sed 's/Sources\///g')$([ "$n" -gt 8 ] && echo " …")"
}

printf '| change | subject | features (from the diff) | shared files | goal met | shared files touched |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
if [ $whole = yes ]; then
  report "$range" "$(git log --format=%s -1 "${range##*..}")" "$(paths)"
else
  for c in $(git rev-list --reverse --no-merges "$range"); do
    report "$(git rev-parse --short "$c")" "$(git log --format=%s -1 "$c" | cut -c1-70)" "$(paths "$c")"
  done
fi
