#!/usr/bin/env python3
"""The pictures section of `make bench` (issue 15), against chafa, the command-line tool, on
the same file at the same size and in the same kind of pane, measured the same way in the
same run:

  time   GO on the Audio Guide keypad (the guide already running, as a visitor has it) to the
         artwork's picture on screen, against Enter on a typed `chafa` command to its picture
         on screen; both seen by polling tmux's screen every few milliseconds; median of RUNS
         fresh starts each; target ratio <= 2.0 (the guide also opens the player, loads the
         recording and draws the page)
  bytes  what the guide writes for the picture (bytes written from GO until the screen holds
         still, with pictures minus without them) against the bytes chafa writes for it;
         target ratio <= 1.5

Usage: scripts/bench-pictures.py [BIN_DIR]   (default .build/release). Exits 1 when a target
is missed."""
import glob
import json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else ".build/release", "docent")
SAMPLE = os.path.join(ROOT, "SampleData", "appData.json")
RUNS = 5
TIME_RATIO_MAX = 2.0
BYTES_RATIO_MAX = 1.5
BLOCKS = set("▀▄█▌▐▖▗▘▝▚▞▙▛▜▟▁▂▃▅▆▇▔▏▎▍▋▊▉")

work = tempfile.mkdtemp(prefix="docent-bench-pictures-")
sock = "docent-bench-pictures"
tmux = ["tmux", "-L", sock]
failed = False


def sh(*args):
    return subprocess.run(args, capture_output=True, text=True).stdout


def screen(name):
    return sh(*tmux, "capture-pane", "-p", "-t", name)


def picture_cells(s):
    return sum(1 for ch in s if ch in BLOCKS)


def wait(name, cond, timeout=20, poll=0.005):
    deadline = time.monotonic() + timeout
    while True:
        s = screen(name)
        if cond(s):
            return time.monotonic()
        if time.monotonic() > deadline:
            raise SystemExit(f"pictures: timed out; the screen was:\n{s}")
        time.sleep(poll)


def settled(path, quiet=0.3, timeout=10):
    """Waits until the file stops growing for `quiet` seconds; returns its size."""
    deadline = time.monotonic() + timeout
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        size = os.path.getsize(path)
        if size != last:
            last, since = size, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return size
        time.sleep(0.02)
    return last


def pane(name, home, command):
    for d in ("state", "config", "cache", "data"):
        os.makedirs(os.path.join(home, d), exist_ok=True)
    subprocess.run(tmux + ["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "80", "-y", "24",
                           "-e", "LANG=C.UTF-8", "-e", f"XDG_STATE_HOME={home}/state", "-e", f"XDG_CONFIG_HOME={home}/config",
                           "-e", f"XDG_CACHE_HOME={home}/cache", "-e", f"XDG_DATA_HOME={home}/data", "-e", "TERM=tmux-256color",
                           command], check=True)


def kill(name):
    subprocess.run(tmux + ["kill-session", "-t", name], capture_output=True)


data = json.load(open(SAMPLE))
art = next(o for o in data["objects"].values() if o["title"] == "Harbour at First Light")
number = art["audio_commentary"][0]["object_selector_number"]
image = os.path.join(ROOT, "SampleData", art["image_url"])
strings = {}
for table in [os.path.join(ROOT, "Resources", "strings", "en.json")] + sorted(glob.glob(os.path.join(ROOT, "Sources", "Features", "*", "Strings", "en.json"))):
    strings.update(json.load(open(table)))
keypad_ready = strings["keypad.go"] if "keypad.go" in strings else "GO"


def guide_once(home, images):
    """One fresh start on the keypad: GO → picture time, and bytes written from GO on."""
    out = os.path.join(work, f"guide-{images}.bin")
    pane("guide", home, f"'{BIN}' --data '{SAMPLE}' --images {images}; sleep 600")
    try:
        wait("guide", lambda s: "GO" in s)
        time.sleep(0.5)
        subprocess.run(tmux + ["send-keys", "-t", "guide", "-l", number], check=True)
        wait("guide", lambda s: " ".join(number) in s or number in s, timeout=5)
        time.sleep(0.2)
        open(out, "wb").close()
        subprocess.run(tmux + ["pipe-pane", "-o", "-t", "guide", f"cat >> '{out}'"], check=True)
        time.sleep(0.2)
        t0 = time.monotonic()
        subprocess.run(tmux + ["send-keys", "-t", "guide", "Enter"], check=True)
        if images == "always":
            t1 = wait("guide", lambda s: picture_cells(s) >= 60)
        else:
            t1 = wait("guide", lambda s: art["title"] in s)
        return t1 - t0, settled(out)
    finally:
        kill("guide")


def first_visit(home):
    """The welcome and the launch message seen once, so later starts open on the keypad."""
    pane("guide", home, f"'{BIN}' --data '{SAMPLE}' --images never; sleep 600")
    try:
        wait("guide", lambda s: strings["help.welcomeTitle"] in s)
        subprocess.run(tmux + ["send-keys", "-t", "guide", "Escape"], check=True)
        time.sleep(1.2)
        if strings["overlay.dismiss"] in screen("guide"):
            subprocess.run(tmux + ["send-keys", "-t", "guide", "Escape"], check=True)
        time.sleep(0.5)
        subprocess.run(tmux + ["send-keys", "-t", "guide", "F2"], check=True)
        wait("guide", lambda s: "GO" in s)
        subprocess.run(tmux + ["send-keys", "-t", "guide", "q"], check=True)
        time.sleep(1)
    finally:
        kill("guide")


def chafa_once():
    name = "chafa"
    pane(name, os.path.join(work, "chafa-home"), "bash --norc --noprofile")
    try:
        wait(name, lambda s: "$" in s or "#" in s)
        subprocess.run(tmux + ["send-keys", "-t", name, "-l", f"clear; chafa --size 78x6 --colors 256 '{image}'"], check=True)
        subprocess.run(tmux + ["send-keys", "-t", name, "Enter"], check=True)
        wait(name, lambda s: picture_cells(s) >= 60)
        subprocess.run(tmux + ["send-keys", "-t", name, "clear", "Enter"], check=True)
        wait(name, lambda s: picture_cells(s) == 0)
        subprocess.run(tmux + ["send-keys", "-t", name, "-l", f"chafa --size 78x6 --colors 256 '{image}'"], check=True)
        time.sleep(0.2)
        t0 = time.monotonic()
        subprocess.run(tmux + ["send-keys", "-t", name, "Enter"], check=True)
        t1 = wait(name, lambda s: picture_cells(s) >= 60)
        return t1 - t0
    finally:
        kill(name)


try:
    if shutil.which("chafa") is None:
        raise SystemExit("pictures: the chafa command is needed (apt-get install chafa)")
    home = os.path.join(work, "home")
    first_visit(home)
    g_times, g_bytes, n_bytes, c_times = [], [], [], []
    for _ in range(RUNS):
        t, b = guide_once(home, "always")
        g_times.append(t)
        g_bytes.append(b)
        _, nb = guide_once(home, "never")
        n_bytes.append(nb)
        c_times.append(chafa_once())
    chafa_bytes = len(subprocess.run(["chafa", "--size", "78x6", "--colors", "256", image], capture_output=True, env=dict(os.environ, TERM="tmux-256color")).stdout)
    gt, ct = statistics.median(g_times), statistics.median(c_times)
    picture_bytes = statistics.median(g_bytes) - statistics.median(n_bytes)
    ratio = gt / ct
    ok = ratio <= TIME_RATIO_MAX
    failed |= not ok
    print(f"pictures time: GO → picture on screen {gt*1000:.0f} ms vs chafa {ct*1000:.0f} ms → ratio {ratio:.2f} (target ≤ {TIME_RATIO_MAX}) {'PASS' if ok else 'FAIL'}")
    bratio = picture_bytes / chafa_bytes
    ok = bratio <= BYTES_RATIO_MAX
    failed |= not ok
    print(f"pictures bytes: the picture {picture_bytes:.0f} bytes (with {statistics.median(g_bytes):.0f} − without {statistics.median(n_bytes):.0f}) vs chafa {chafa_bytes} → ratio {bratio:.2f} (target ≤ {BYTES_RATIO_MAX}) {'PASS' if ok else 'FAIL'}")
    print(f"  pictures detail: 78×6 cells, 256 colours, {RUNS} runs; guide ms {' '.join(f'{t*1000:.0f}' for t in g_times)} | chafa ms {' '.join(f'{t*1000:.0f}' for t in c_times)}")
finally:
    subprocess.run(tmux + ["kill-server"], capture_output=True)
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed else 0)
