#!/usr/bin/env bash
# How far a feature's work reached outside its own folders, measured from git (issue 28).
#
#   scripts/feature-footprint.sh [RANGE] [NAME=REGEX[:FOLDER,FOLDER…] …]
#
# RANGE is a git revision range (default: the whole history of HEAD). Each commit in it is
# attributed to the features whose REGEX (grep -E, case-insensitive) matches its message; a
# feature's own files are its folders (`Sources/*/Features/FOLDER/`, FOLDER defaulting to NAME,
# plus any path given whole, such as `Sources/PulseService`), every test and the UI strings.
# For each feature it prints the shared source files its commits touched (files under
# `Sources/` that are not its own) and the share of its changed lines outside its own files,
# with the shared files that most of its commits went through. Without NAME=REGEX arguments
# it measures the guide's features as named in the project's commit messages.
#
# The goal (DECISIONS.md): at most 3 shared source files for a self-contained feature, at most
# 6 for one that cuts across the guide.
set -euo pipefail
cd "$(dirname "$0")/.."
range=${1:-HEAD}
shift || true
specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
  specs=(
    'Pulse=pulse:Pulse,Sources/PulseService,Sources/docent-pulse'
    'Kiosk=kiosk'
    'Offline=offline'
    'Pictures=picture:Pictures,Sources/Pictures'
    'ScreenReader=screen.reader'
    'Scripts=chinese script|reader.s script|ScriptConversion:Scripts,Sources/ScriptConversion'
    'Search=search:Search'
    'Console=staff console|console:Console'
  )
fi

printf '| feature | commits | shared source files touched | share of its changed lines outside its folders | most touched shared files |\n'
printf '| --- | --- | --- | --- | --- |\n'
for spec in "${specs[@]}"; do
  name=${spec%%=*}
  rest=${spec#*=}
  regex=${rest%%:*}
  folders=$name
  [ "$rest" != "$regex" ] && folders=${rest#*:}
  mapfile -t commits < <(git log --format=%H -i -E --grep="$regex" "$range" 2>/dev/null || true)
  if [ ${#commits[@]} -eq 0 ]; then
    printf '| %s | 0 | – | – | – |\n' "$name"
    continue
  fi
  own_re='^(Tests/|Resources/strings/'
  IFS=',' read -r -a parts <<<"$folders"
  for f in "${parts[@]}"; do
    case "$f" in
      */*) own_re+="|${f}(/|$)" ;;
      *) own_re+="|Sources/[^/]+/Features/${f}/" ;;
    esac
  done
  own_re+=')'
  # numstat of every attributed commit: added, deleted, path (binary files count 0 lines).
  stats=$(for c in "${commits[@]}"; do git show --numstat --no-renames --format= "$c"; done | awk -F'\t' 'NF == 3 { a = ($1 == "-") ? 0 : $1; d = ($2 == "-") ? 0 : $2; print a + d "\t" $3 }')
  total=$(awk -F'\t' '{ s += $1 } END { print s + 0 }' <<<"$stats")
  outside=$(awk -F'\t' -v re="$own_re" '$2 !~ re { s += $1 } END { print s + 0 }' <<<"$stats")
  shared=$(awk -F'\t' -v re="$own_re" '$2 ~ /^Sources\// && $2 !~ re { print $2 }' <<<"$stats" | sort | uniq -c | sort -rn)
  count=$(grep -c . <<<"$shared" || true)
  top=$(head -3 <<<"$shared" | awk '{ printf "%s%s (%d)", (NR > 1 ? ", " : ""), $2, $1 }')
  share=$([ "$total" -gt 0 ] && awk -v o="$outside" -v t="$total" 'BEGIN { printf "%d%%", 100 * o / t }' || echo "–")
  printf '| %s | %d | %d | %s | %s |\n' "$name" "${#commits[@]}" "$count" "$share" "${top:-–}"
done
