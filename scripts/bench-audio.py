#!/usr/bin/env python3
"""The audio section of `make bench`, against the mpg123 command-line player on the same file
and the same (null) sink, measured the same way in the same run:

  first PCM   time from starting the player to PulseAudio announcing its new sink input
              (`pactl subscribe`), from a file and from nginx on loopback; target ratio <= 1.0
  CPU         CPU seconds per minute of audio while playing the whole file (getrusage of the
              child), the engine alone (docent-audio-bench); target ratio <= 1.0
  CPU, guide the same minute played by the guide itself on screen (tmux), its own CPU from GO to
              the end; target ratio <= 0.6 (issue 48)
  CPU at 1.5x the same, with the guide playing 1.5x faster (SoundTouch, pitch kept), still per
              minute of the recording, against mpg123 -q at 1x; target ratio <= 2.0 (the
              stretch is work mpg123 does not do); the wall time must be the recording's / 1.5
              plus at most 3 s (starting and draining the sink)

Usage: scripts/bench-audio.py [BIN_DIR]   (default .build/release; needs docent-audio-bench)
Exits 1 when a target is missed."""
import os, re, resource, shlex, shutil, statistics, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, sys.argv[1] if len(sys.argv) > 1 else ".build/release", "docent-audio-bench")
CLIP = os.path.join(ROOT, "SampleData/audio/2001-en.mp3")
RUNS = 7
GUIDE_CPU_RATIO_MAX = 0.6

def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout

tmp = tempfile.mkdtemp(prefix="docent-bench-audio-")
pulse_dir = os.path.join(tmp, "pulse")
out = sh(os.path.join(ROOT, "scripts/test-pulse.sh"), "start", pulse_dir)
server = re.search(r"PULSE_SERVER=(\S+)", out).group(1)
env = dict(os.environ, PULSE_SERVER=server)
port_file = os.path.join(tmp, "port")
sh(os.path.join(ROOT, "scripts/test-nginx.sh"), "start", os.path.join(ROOT, "SampleData"), port_file)
port = open(port_file).read().strip()
URL = f"http://127.0.0.1:{port}/audio/2001-en.mp3"
failed = False

try:
    # Sink-input announcements, time-stamped as they arrive.
    events = []
    sub = subprocess.Popen(["pactl", "subscribe"], env=env, stdout=subprocess.PIPE, text=True)
    def reader():
        for line in sub.stdout:
            if "'new' on sink-input" in line:
                events.append(time.monotonic())
    threading.Thread(target=reader, daemon=True).start()
    time.sleep(0.3)

    def first_pcm_once(cmd, go=False):
        # mpg123 starts playing when it is executed; the guide plays when GO is pressed in a
        # process that is already running: docent-audio-bench --wait-go starts on a stdin line.
        n = len(events)
        if go:
            p = subprocess.Popen(cmd + ["--wait-go"], env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
            time.sleep(0.3)
            t0 = time.monotonic()
            p.stdin.write("go\n"); p.stdin.flush()
        else:
            t0 = time.monotonic()
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = t0 + 10
        while len(events) == n and time.monotonic() < deadline:
            time.sleep(0.001)
        p.kill(); p.wait()
        time.sleep(0.2)
        return events[n] - t0 if len(events) > n else None

    def first_pcm(docent_cmd, mpg123_cmd):
        # Interleaved, a run of each in turn, so both see the same moments of the machine.
        d, m = [], []
        for _ in range(RUNS):
            d.append(first_pcm_once(docent_cmd, go=True))
            m.append(first_pcm_once(mpg123_cmd))
        median = lambda ts: statistics.median(t for t in ts if t is not None) if any(t is not None for t in ts) else float("inf")
        return median(d), median(m)

    def cpu(cmd):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        wall = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall

    def guide_cpu(long_mp3):
        museum = os.path.join(tmp, "museum")
        shutil.copytree(os.path.join(ROOT, "SampleData"), museum)
        shutil.copyfile(long_mp3, os.path.join(museum, "audio", "2001-en.mp3"))
        home = os.path.join(tmp, "home")
        os.makedirs(home, exist_ok=True)
        notes = os.path.join(tmp, "guide-cpu")
        genv = dict(env, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_CACHE_HOME=home + "/cache",
                    XDG_DATA_HOME=home + "/data", XDG_STATE_HOME=home + "/state", TERM="xterm-256color",
                    LANG="C.UTF-8", DOCENT_BENCH_AUDIO_CPU=notes)
        # The guide with the bench's instrumentation injected (it reads DOCENT_BENCH_AUDIO_CPU).
        guide = os.path.join(os.path.dirname(BIN), "docent-guide-bench")
        sock = os.path.join(tmp, "tmux")
        tmux = lambda *a: subprocess.run(["tmux", "-S", sock, *a], env=genv, capture_output=True, text=True)
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in genv.items() if k in ("HOME", "PULSE_SERVER", "DOCENT_BENCH_AUDIO_CPU", "LANG") or k.startswith("XDG_"))
        tmux("new-session", "-d", "-s", "g", "-x", "100", "-y", "30", f"env {envs} {shlex.quote(guide)} --data {shlex.quote(museum + '/appData.json')}")
        def wait_for(check, what, limit=30):
            deadline = time.monotonic() + limit
            while time.monotonic() < deadline:
                if check():
                    return
                time.sleep(0.05)
            raise SystemExit(f"bench-audio: the guide never showed {what}:\n" + tmux("capture-pane", "-p", "-t", "g").stdout)
        pane = lambda: tmux("capture-pane", "-p", "-t", "g").stdout
        try:
            wait_for(lambda: "Enter or Esc to close" in pane(), "its introduction")
            for _ in range(5):  # the introduction, then the museum's announcement
                before = pane()
                if "Enter or Esc to close" not in before:
                    break
                tmux("send-keys", "-t", "g", "Escape")
                wait_for(lambda: pane() != before, "the next box or the Home tab")
            tmux("send-keys", "-t", "g", "101")
            wait_for(lambda: "1 0 1" in pane(), "the keypad with 101")
            tmux("send-keys", "-t", "g", "Enter")
            noted = lambda: dict(l.split() for l in open(notes) if l.strip())
            wait_for(lambda: "ended" in noted() or "failed" in noted(), "the end of the recording", limit=duration + 30)
            n = noted()
            if "failed" in n:
                raise SystemExit("bench-audio: the guide could not play:\n" + pane())
            return float(n["ended"]) - float(n["play"])
        finally:
            tmux("send-keys", "-t", "g", "q")
            tmux("kill-server")

    # CPU over about a minute of audio (the clip repeated: MP3 frames concatenate), so process
    # start-up does not dominate either player's figure.
    clip_seconds = float(sh("soxi", "-D", CLIP).strip())
    LONG = os.path.join(tmp, "long.mp3")
    reps = max(1, int(60 // clip_seconds))
    with open(LONG, "wb") as f:
        data = open(CLIP, "rb").read()
        for _ in range(reps):
            f.write(data)
    duration = clip_seconds * reps
    # DOCENT_BENCH_AUDIO=guide: only mpg123 and the guide on screen (while working on it).
    only_guide = os.environ.get("DOCENT_BENCH_AUDIO") == "guide"
    for label, source in () if only_guide else (("file", CLIP), ("nginx", URL)):
        d, m = first_pcm([BIN, source], ["mpg123", "-q", source])
        ratio = d / m
        ok = ratio <= 1.0
        failed |= not ok
        print(f"audio first PCM ({label}): docent {d*1000:.1f} ms vs mpg123 {m*1000:.1f} ms → ratio {ratio:.2f} (target ≤ 1.0) {'PASS' if ok else 'FAIL'}")
    # The anchor is measured before and after docent's runs and their mean is used: mpg123's
    # own CPU for the same minute moved between 0.11 and 0.23 s from one run to the next, and
    # one reading of it decided every ratio below.
    mc1, mw = cpu(["mpg123", "-q", LONG])
    per_min = lambda c: c / (duration / 60)
    if not only_guide:
        dc, dw = cpu([BIN, LONG])
        fc, fw = cpu([BIN, LONG, "--speed", "1.5"])
    # The same minute played by the guide itself, on screen (tmux, 100×30) with the artwork's
    # page and the ticking mini player: the guide's CPU from GO to the end, as it notes it
    # (DOCENT_BENCH_AUDIO_CPU: getrusage of the whole process at `play` and at `ended`).
    gc = guide_cpu(LONG)
    mc2, _ = cpu(["mpg123", "-q", LONG])
    mc = (mc1 + mc2) / 2
    if not only_guide:
        ratio = dc / mc if mc > 0 else float("inf")
        ok = ratio <= 1.0
        failed |= not ok
        print(f"audio CPU: docent {per_min(dc):.3f} s per minute of audio vs mpg123 -q {per_min(mc):.3f} s → ratio {ratio:.2f} (target ≤ 1.0) {'PASS' if ok else 'FAIL'}")
        ratio = fc / mc if mc > 0 else float("inf")
        # The wall time says the speed was applied: the recording lasts duration / 1.5, plus
        # starting and draining the null sink, which take 0.6-2.2 s from run to run for
        # mpg123 and the guide alike (so not "1x's wall / 1.5", which scaled that noise).
        ok = ratio <= 2.0 and fw < duration / 1.5 + 3.0
        failed |= not ok
        print(f"audio CPU at 1.5×: docent {per_min(fc):.3f} s per minute of audio vs mpg123 -q at 1× {per_min(mc):.3f} s → ratio {ratio:.2f} (target ≤ 2.0; wall {fw:.2f} s for {duration / 1.5:.2f} s of stretched audio, at most 3 s more) {'PASS' if ok else 'FAIL'}")
    ratio = gc / mc if mc > 0 else float("inf")
    # Issue 48 raised this goal from 1.0 to 0.6 (the guide's own loop, the sound server's
    # thread and the decoder together against mpg123 alone).
    ok = ratio <= GUIDE_CPU_RATIO_MAX
    failed |= not ok
    print(f"audio CPU with the guide on screen: docent {per_min(gc):.3f} s per minute of audio vs mpg123 -q {per_min(mc):.3f} s → ratio {ratio:.2f} (target ≤ {GUIDE_CPU_RATIO_MAX}) {'PASS' if ok else 'FAIL'}")
    print(f"  audio detail: clip {duration:.2f} s, wall mpg123 {mw:.2f} s, mpg123 CPU per minute before and after docent's runs {per_min(mc1):.3f} and {per_min(mc2):.3f} s (their mean is the anchor), {RUNS} interleaved runs of each per first-PCM median")
    sub.kill()
finally:
    subprocess.run([os.path.join(ROOT, "scripts/test-nginx.sh"), "stop", port_file], capture_output=True)
    subprocess.run([os.path.join(ROOT, "scripts/test-pulse.sh"), "stop", pulse_dir], capture_output=True)
sys.exit(1 if failed else 0)
