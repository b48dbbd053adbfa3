#!/usr/bin/env python3
"""The staff console's pages on a big museum (issue 29, `make bench`).

A Pulse SQLite store filled here with 100,000 notes (2,000 of them reported, 1,000 hidden by
votes), 30,000 visitors, a year of activity (about 3,000 events a day: 1.1 million rows),
20 featured subjects and 20 announcements; `docent-pulse serve` on it with the sample appData.
Each console page is fetched over one keep-alive connection on loopback (signed in with the
staff token), 5 times to warm up, then 30 times timed.

  anchor   GET /healthz on the same connection (the HTTP round trip and Hummingbird alone)
  pages    /staff/queue, visitors, featured, announcements, pulse, audit, pulse.csv

Goal: every page's median < 50 ms (p95 printed too). Exits 1 when a goal is missed.
"""
import http.client
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "bench-staff-token-0123456789"


def binary():
    for kind in ("release", "debug"):
        b = os.path.join(ROOT, ".build", kind, "docent-pulse")
        if os.access(b, os.X_OK):
            return b, kind
    sys.exit("bench-console: no docent-pulse built (make build-release)")


def fill(path):
    rnd = random.Random(29)
    db = sqlite3.connect(path)
    now = time.time()
    visitors = [f"v{i:09d}" for i in range(30000)]
    db.executemany("INSERT INTO visitor (id, secret, created) VALUES (?, ?, ?)", ((v, "sha256:" + v, now - 400 * 86400) for v in visitors))
    subjects = [f"artwork:{1100 + i}" for i in range(400)] + [f"stop:{4000 + t}/{s}" for t in range(10) for s in range(1, 9)]
    notes = []
    for i in range(100000):
        v = visitors[i % len(visitors)]
        notes.append((f"{v}.{i}", v, i, rnd.choice(subjects[:400]), "en", f"Note {i}: the light in this room changes by the hour.",
                      now - rnd.uniform(0, 40 * 86400), 3 if i % 50 == 0 else 0))
    db.executemany("INSERT INTO note (id, visitor, seq, subject, language, text, created, author, reports) VALUES (?, ?, ?, ?, ?, ?, ?, 'visitor', ?)", notes)
    db.executemany("INSERT INTO report (note, visitor, at) VALUES (?, ?, ?)",
                   ((n[0], visitors[(k + j * 7 + 1) % len(visitors)], n[6] + 60) for k, n in enumerate(notes) if n[7] for j in range(3)))
    db.executemany("INSERT INTO counts (subject, up, meh, down) VALUES (?, 0, 0, 6)", (("note:" + n[0],) for n in notes[1::100]))
    db.executemany("INSERT OR REPLACE INTO counts (subject, up, meh, down) VALUES (?, ?, ?, ?)",
                   ((s, rnd.randint(0, 500), rnd.randint(0, 50), rnd.randint(0, 80)) for s in subjects))

    def activity():
        for day in range(365):
            base = now - day * 86400
            for _ in range(3000):
                r = rnd.random()
                kind = "play" if r < 0.66 else "reaction" if r < 0.9 else "note" if r < 0.99 else "report"
                yield (rnd.choice(subjects), kind, None if kind == "play" else rnd.choice(visitors), base - rnd.uniform(0, 86400))
    db.executemany("INSERT INTO activity (subject, kind, visitor, at) VALUES (?, ?, ?, ?)", activity())
    for i in range(20):
        db.execute("INSERT OR REPLACE INTO featured (subject, tier, from_at, until_at) VALUES (?, ?, NULL, NULL)", (subjects[i], i % 5))
        for lang in ("en", "es", "fr"):
            db.execute("INSERT OR REPLACE INTO featured_tagline VALUES (?, ?, ?)", (subjects[i], lang, f"Tagline {i} in {lang}"))
        db.execute("INSERT OR REPLACE INTO announcement VALUES (?, 'card', ?, '1', '', NULL, NULL, NULL)", (f"ann-{i}", "gallery:2\\d\\d\ntab:home"))
        db.execute("INSERT OR REPLACE INTO announcement_text VALUES (?, 'en', ?)", (f"ann-{i}", f"Announcement {i}"))
    db.executemany("INSERT INTO staff_audit (at, staff, action, target, before, after) VALUES (?, 'ana', 'decide', ?, 'decision=none', 'decision=removed')",
                   ((now - i * 60, f"note:{notes[i][0]}") for i in range(5000)))
    db.commit()
    db.close()


def main():
    exe, kind = binary()
    tmp = tempfile.mkdtemp(prefix="docent-console-bench-")
    path = os.path.join(tmp, "pulse.sqlite")
    try:
        subprocess.run([exe, "staff", "list", "--database", "sqlite:" + path], check=True, capture_output=True, timeout=60)
        t0 = time.monotonic()
        fill(path)
        filled = time.monotonic() - t0
        env = dict(os.environ, DOCENT_PULSE_STAFF_TOKEN=TOKEN)
        svc = subprocess.Popen([exe, "serve", "--database", "sqlite:" + path, "--listen", "127.0.0.1:0", "--data",
                                os.path.join(ROOT, "SampleData", "appData.json"), "--time-zone", "UTC"],
                               stdout=subprocess.PIPE, stderr=open(os.path.join(tmp, "serve.log"), "w"), env=env)
        try:
            line = svc.stdout.readline().decode()
            port = int(line.strip().rsplit(":", 1)[1])
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/staff/sign-in")
            r = c.getresponse()
            page = r.read().decode()
            form_token = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
            cookie = re.search(r"docent_signin=([0-9a-f]+)", r.getheader("Set-Cookie")).group(1)
            c.request("POST", "/staff/sign-in", body=f"csrf={form_token}&name=&password={TOKEN}",
                      headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": "docent_signin=" + cookie})
            r = c.getresponse()
            r.read()
            session = re.search(r"docent_staff=([0-9a-f]+)", r.getheader("Set-Cookie") or "")
            if r.status != 303 or not session:
                sys.exit(f"bench-console: sign-in failed ({r.status}); the service said:\n" + open(os.path.join(tmp, "serve.log")).read()[-2000:])
            headers = {"Cookie": "docent_staff=" + session.group(1)}

            def timed(path, n=30):
                times = []
                for i in range(5 + n):
                    t = time.perf_counter()
                    c.request("GET", path, headers=headers)
                    resp = c.getresponse()
                    body = resp.read()
                    if resp.status != 200:
                        sys.exit(f"bench-console: {path} answered {resp.status}; the service said:\n" + open(os.path.join(tmp, "serve.log")).read()[-2000:])
                    if i >= 5:
                        times.append((time.perf_counter() - t) * 1000)
                times.sort()
                return statistics.median(times), times[int(len(times) * 0.95) - 1]

            anchor, _ = timed("/healthz")
            print(f"console bench: {kind} build; store filled in {filled:.0f} s (100,000 notes, 1.1 M activity rows); "
                  f"anchor GET /healthz median {anchor:.2f} ms")
            failed = False
            for p in ["/staff/queue", "/staff/visitors", "/staff/featured", "/staff/announcements", "/staff/pulse", "/staff/audit", "/staff/pulse.csv"]:
                med, p95 = timed(p)
                ok = med < 50
                failed |= not ok
                print(f"console page {p}: median {med:.1f} ms, p95 {p95:.1f} ms ({med / anchor:.0f}x /healthz; goal median < 50 ms){'' if ok else '  MISSED'}")
            return 1 if failed else 0
        finally:
            svc.terminate()
            svc.wait(10)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
