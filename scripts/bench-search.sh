#!/usr/bin/env bash
# The search section of `make bench`: per-keystroke latency of the guide's local search on the
# 20 000-artwork synthetic appData, as a ratio to SQLite FTS5 prefix queries with rank on the
# same corpus (titles, artist lines, galleries), the same keystrokes, in the same run.
#
#   docent-search-bench  replays the keystroke sequences through the reducer (search, ranking,
#                        grouping, debounce effect, selection), timing each keystroke
#   FTS5 anchor          python3's sqlite3: one `MATCH '"word" "prefix"*' ORDER BY rank LIMIT 50`
#                        per keystroke (the prefix typed so far)
#
# Target: p99 ratio <= 0.05. Prints `search …` lines; exits 1 when the target is missed.
#
# Usage: scripts/bench-search.sh [--bin-dir DIR] [--data FILE] [--repeat N]
#        (default .build/release and /tmp/docent-bench/large.json, written by
#        scripts/gen_large_appdata.py when missing; `swift build -c release` first)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BIN_DIR=${DOCENT_BENCH_BIN_DIR:-.build/release}
DATA=/tmp/docent-bench/large.json
REPEAT=5
while [ $# -gt 0 ]; do
  case "$1" in
    --bin-dir) BIN_DIR=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "bench-search: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$BIN_DIR" in /*) ;; *) BIN_DIR=$ROOT/$BIN_DIR ;; esac
BENCH=$BIN_DIR/docent-search-bench
RATIO_MAX=0.05

# The keystroke sequences, shared by both sides ('|'-separated).
QUERIES='harbour light|velden|portrait of|gallery 2|101|10234|lantern|blue heron|café|baños|restroom|elevator|港口|洗手间|mara velden|the|s|a|e|storm|collector study|porcelain|fisherman|gold thread|mother and child'

command -v python3 >/dev/null || { echo "bench-search: python3 is required" >&2; exit 2; }
python3 -c "import sqlite3; sqlite3.connect(':memory:').execute('create virtual table t using fts5(x)')" 2>/dev/null ||
  { echo "bench-search: python3's sqlite3 has no FTS5" >&2; exit 2; }
[ -x "$BENCH" ] || { echo "bench-search: $BENCH is missing; run \`swift build -c release\`" >&2; exit 2; }
if [ ! -s "$DATA" ]; then
  mkdir -p "$(dirname "$DATA")"
  python3 scripts/gen_large_appdata.py "$DATA" >/dev/null
fi

# Ours.
OURS=$("$BENCH" "$DATA" --queries "$QUERIES" --repeat "$REPEAT" --strings "$ROOT/Resources/strings")
get() { printf '%s\n' "$OURS" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }

# The anchor: FTS5 on the same corpus and keystrokes.
ANCHOR=$(python3 - "$DATA" "$QUERIES" "$REPEAT" <<'PY'
import html, json, re, sqlite3, sys, time
path, queries, repeat = sys.argv[1], sys.argv[2].split("|"), int(sys.argv[3])
doc = json.load(open(path, encoding="utf-8"))
db = sqlite3.connect(":memory:")
db.execute("create virtual table t using fts5(title, artist, gallery, numbers, tokenize='unicode61 remove_diacritics 2')")
rows = []
for o in doc["objects"].values():
    numbers = " ".join(str(c.get("object_selector_number", "")) for c in o.get("audio_commentary") or [])
    rows.append((html.unescape(str(o.get("title", ""))), html.unescape(str(o.get("artist_culture_place_delim", ""))).replace("|", " "),
                 str(o.get("gallery_location", "")), numbers))
db.executemany("insert into t values (?, ?, ?, ?)", rows)
db.commit()
def match(prefix):
    words = re.findall(r"\w+", prefix)
    if not words:
        return None
    quoted = ['"%s"' % w for w in words]
    if not prefix[-1].isspace():
        quoted[-1] += "*"
    return " ".join(quoted)
times, first = [], []
for _ in range(repeat):
    for q in queries:
        for k in range(1, len(q) + 1):
            m = match(q[:k])
            t0 = time.perf_counter_ns()
            if m:
                db.execute("select rowid from t where t match ? order by rank limit 50", (m,)).fetchall()
            dt = time.perf_counter_ns() - t0
            times.append(dt)
            if k == 1:
                first.append(dt)
def pct(xs, p):
    s = sorted(xs)
    i = min(len(s) - 1, max(0, -(-len(s) * p // 100) - 1))
    return s[int(i)] / 1e6
print("fts5_rows=%d fts5_keystrokes=%d" % (len(rows), len(times)))
print("fts5_p50_ms=%.4f fts5_p99_ms=%.4f fts5_first_letter_p99_ms=%.4f" % (pct(times, 50), pct(times, 99), pct(first, 99)))
PY
)
aget() { printf '%s\n' "$ANCHOR" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }

P50=$(get search_p50_ms); P99=$(get search_p99_ms)
F50=$(aget fts5_p50_ms); F99=$(aget fts5_p99_ms)
R50=$(python3 -c "print(format($P50 / $F50, '.4f'))")
R99=$(python3 -c "print(format($P99 / $F99, '.4f'))")
PASS=$(python3 -c "print('PASS' if $P99 / $F99 <= $RATIO_MAX else 'FAIL')")

echo "search: index of $(get search_docs) documents built in $(get documents_ms) + $(get indexing_ms) ms (collect + index; the whole .documentLoaded $(get search_index_build_ms) ms)"
# Issue 31: words (stems, typos, spelling variants, every transcript) against the index without
# them, built in the same run: build <= 1.5x, memory <= 1.3x. The guide builds in two halves:
# search is usable once the names' words are in (the build the goal times: what a visitor waits
# for); the transcripts' words follow on one core (as the guide reads them: the first start's
# peak), and the whole index's time and memory are reported beside.
BUILD_RATIO=$(python3 -c "print(format($(get usable_indexing_ms) / $(get plain_indexing_ms), '.2f'))")
WHOLE_RATIO=$(python3 -c "print(format($(get indexing_ms) / $(get plain_indexing_ms), '.2f'))")
USABLE_MEM_RATIO=$(python3 -c "print(format($(get usable_index_bytes) / $(get plain_index_bytes), '.2f'))")
MEM_RATIO=$(python3 -c "print(format($(get index_bytes) / $(get plain_index_bytes), '.2f'))")
MB() { python3 -c "print(format($1 / 1048576, '.1f'))"; }
INDEX_PASS=$(python3 -c "print('PASS' if $BUILD_RATIO <= 1.5 and $MEM_RATIO <= 1.3 else 'FAIL')")
echo "search: usable (names' words) $(get usable_indexing_ms) ms, $(MB "$(get usable_index_bytes)") MB; without words $(get plain_indexing_ms) ms, $(MB "$(get plain_index_bytes)") MB: build ${BUILD_RATIO}x (target <= 1.5)  memory ${USABLE_MEM_RATIO}x"
echo "search: whole (transcripts' words added) $(get indexing_ms) ms (${WHOLE_RATIO}x), $(MB "$(get index_bytes)") MB (words $(MB "$(get words_bytes)") MB): memory ${MEM_RATIO}x (target <= 1.3)  ${INDEX_PASS}"
# The usable half above is built on both cores, as the guide does; on a loaded machine the
# wall time is the scheduler's, so the CPU time and the one-core build are shown too.
ONE_RATIO=$(python3 -c "print(format($(get indexing_one_core_ms) / $(get plain_indexing_ms), '.2f'))")
CPU_RATIO=$(python3 -c "print(format($(get indexing_cpu_ms) / $(get plain_indexing_cpu_ms), '.2f'))")
echo "search: with words on one core $(get indexing_one_core_ms) ms (${ONE_RATIO}x); CPU time $(get indexing_cpu_ms) ms against $(get plain_indexing_cpu_ms) ms (${CPU_RATIO}x)"
echo "search: docent $(get search_keystrokes) keystrokes  p50 ${P50} ms  p99 ${P99} ms  (first letters p99 $(get search_first_letter_p99_ms) ms)"
echo "search: did you mean, after a pause on a query that matches nothing (not a keystroke's work): $(get did_you_mean_pauses) pauses  p50 $(get did_you_mean_p50_ms) ms  max $(get did_you_mean_max_ms) ms"
echo "search: fts5   $(aget fts5_keystrokes) keystrokes  p50 ${F50} ms  p99 ${F99} ms  (first letters p99 $(aget fts5_first_letter_p99_ms) ms)"
echo "search: p50 ratio ${R50}  p99 ratio ${R99}  (target p99 <= ${RATIO_MAX})  ${PASS}"
[ "$PASS" = PASS ] && [ "$INDEX_PASS" = PASS ]
