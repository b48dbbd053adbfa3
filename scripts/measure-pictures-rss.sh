#!/usr/bin/env bash
# usage: scripts/measure-pictures-rss.sh DOCENT_BINARY LABEL  (GIF=4000x4000 for another size) — peak RSS of the guide scrolling 45 search results whose
# pictures are 7000x7000 GIFs (33 KB each) served by nginx on 127.0.0.1.
set -euo pipefail
GIF="${GIF:-7000x7000}"
DOCENT="$1"; LABEL="$2"
REPO=$(cd "$(dirname "$0")/.." && pwd)
W=${TMPDIR:-/tmp}/docent-rss-$LABEL; rm -rf "$W"; mkdir -p "$W/root/museum" "$W/root/g" "$W/home"
for f in $REPO/SampleData/*; do n=$(basename "$f"); [ "$n" = appData.json ] || ln -s "$f" "$W/root/museum/$n"; done
python3 "$REPO/scripts/gen_flat_gif.py" "${GIF%x*}" "${GIF#*x}" "$W/flat.gif"
for i in $(seq 0 50); do cp "$W/flat.gif" "$W/root/g/$i.gif"; done
bash $REPO/scripts/test-nginx.sh start "$W/root" "$W/port" >/dev/null
PORT=$(cat "$W/port")
python3 - "$W/root/museum/appData.json" "$PORT" "$REPO/SampleData/appData.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[3]))
for i, (k, o) in enumerate(d["objects"].items()):
    u = f"http://127.0.0.1:{sys.argv[2]}/g/{i}.gif"
    o["image_url"] = o["thumbnail_full_path"] = o["large_image_full_path"] = u
    o["title"] = o["title"] + " Zephyr"
json.dump(d, open(sys.argv[1], "w"))
PY
S=docent-rss-$LABEL
tmux -L $S kill-server 2>/dev/null || true
tmux -L $S -f /dev/null new-session -d -s m -x 160 -y 50 \
  -e LANG=C.UTF-8 -e SWIFT_BACKTRACE=interactive=no -e PULSE_SERVER=unix:/nonexistent/native \
  -e XDG_DATA_HOME=$W/home/data -e XDG_CONFIG_HOME=$W/home/config -e XDG_CACHE_HOME=$W/home/cache -e XDG_STATE_HOME=$W/home/state \
  bash -c "'$DOCENT' --data '$W/root/museum/appData.json' --images always; echo EXIT_STATUS=\$?; sleep 600"
sleep 3
PANE=$(tmux -L $S list-panes -t m -F '#{pane_pid}')
PID=$(pgrep -P $PANE -x docent)
tmux -L $S send-keys -t m Escape; sleep 0.5; tmux -L $S send-keys -t m Escape; sleep 0.5
tmux -L $S send-keys -t m /; sleep 0.5; tmux -L $S send-keys -t m -l zephyr; sleep 2
for i in 1 2 3 4; do tmux -L $S send-keys -t m Down; sleep 0.3; done
tmux -L $S send-keys -t m Enter; sleep 1
for i in $(seq 1 45); do tmux -L $S send-keys -t m Down; sleep 0.25; done
sleep 15
echo "$LABEL: $(grep -E 'VmHWM|VmRSS' /proc/$PID/status | tr -s ' ' | tr '\n' ' ') threads=$(ls /proc/$PID/task | wc -l)"
tmux -L $S capture-pane -p -t m | head -14 | cut -c1-160
tmux -L $S send-keys -t m q; sleep 1
tmux -L $S kill-server || true
bash $REPO/scripts/test-nginx.sh stop "$W/port" >/dev/null || true
