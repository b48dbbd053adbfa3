#!/usr/bin/env python3
"""Browser tests of the staff console (issue 29): the real `docent-pulse` on a real store,
driven in headless Chromium through selenium (Debian's chromium and chromium-driver; PyPI's
selenium 4.39 and axe-core-python, installed by scripts/deps.sh).

    console_test.py --binary .build/debug/docent-pulse --database sqlite:/tmp/x.sqlite --out DIR

Seeds visitors, notes, reports, votes and plays through the public API, adds staff accounts with
`docent-pulse staff add`, then checks, each with a screenshot in DIR: sign-in, a wrong password
and the lockout, a forged form refused (CSRF), hiding and restoring a reported note as the
guide's store sees it, banning a writer, keyboard-only moderation, two staff on one note, a
tagline edited and seen in GET /v1/snapshot, an announcement pattern's live preview, the charts
drawn from the seeded activity, erasing a visitor, the audit log, the staff accounts page (an
admin adds, sets a password, ends sessions, removes; plain staff get 403), sign-out; axe-core on every
page (no serious or critical finding) and no page wider than a 360 px phone. Exits 0 when all
pass; every wait is bounded, and the whole run stops itself (SIGALRM) after --deadline seconds.
"""
import argparse
import datetime
import hashlib
import hmac
import json
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request

os.environ.setdefault("SE_AVOID_STATS", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# A page being replaced answers a look with any of these for a moment (a stale or missing body,
# or Chromium's "cannot find context" while the new document starts): the wait looks again.
PAGE_CHANGES = (StaleElementReferenceException, NoSuchElementException, WebDriverException)

STAFF_TOKEN = "front-desk-token-0123456789abcdef"
# The service runs with a posting gate (issue 32): notes carry today's visit code, computed
# here apart from the service (HMAC-SHA256 of the UTC date, as DECISIONS.md states it), and the
# Pulse page shows the same code for the front desk.
VISIT_SECRET = "console-test-visit-secret-0123456789"


def visit_code(day=None):
    day = day or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    mac = hmac.new(VISIT_SECRET.encode(), ("docent-visit-code:" + day).encode(), hashlib.sha256).digest()
    bits = int.from_bytes(mac[:8], "big")
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    return "".join(alphabet[(bits >> (59 - 5 * i)) & 31] for i in range(6))
PASSWORDS = {"alice": "alice-password-1", "bob": "bob-password-22", "locky": "locky-password-3"}
WAIT = 15


class Check(Exception):
    pass


def check(cond, message):
    if not cond:
        raise Check(message)


class Service_:
    """`docent-pulse serve` on a free port, its standard error kept for the log check."""

    def __init__(self, binary, database, data, seed, out):
        env = dict(os.environ, DOCENT_PULSE_STAFF_TOKEN=STAFF_TOKEN)
        secret = os.path.join(out, "visit-code.secret")
        with open(secret, "w") as f:
            f.write(VISIT_SECRET + "\n")
        args = [binary, "serve", "--database", database, "--listen", "127.0.0.1:0", "--log-level", "info", "--time-zone", "UTC", "--seed", seed,
                "--posting", "visit-code", "--visit-code-secret-file", secret,
                # One address seeds many plays and visitors here: the per-address limits and the
                # play batching are Pulse in public's, proved by PulsePublicTests, not this test's.
                "--client-limits", "off", "--play-flush", "0"]
        if data:
            args += ["--data", data]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        line = self.proc.stdout.readline().decode()
        if not line.startswith("docent-pulse listening on"):
            err = self.proc.stderr.read().decode()
            raise Check(f"docent-pulse did not start: {line!r} {err[-2000:]}")
        self.url = "http://127.0.0.1:" + line.strip().rsplit(":", 1)[1]
        self.log = []
        threading.Thread(target=self._drain, daemon=True).start()
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line.decode(errors="replace"))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def api(svc, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(svc.url + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            raw = r.read()
            return r.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, raw


def visitor(svc, name):
    vid = (name + "00000000")[:12]
    secret = "s3cret-" + vid + "-xxxxxxxx"
    status, _ = api(svc, "POST", "/v1/visitors", {"visitor": vid, "secret": secret})
    check(status in (200, 201), f"registering {vid}: {status}")
    return vid, vid + "." + secret


def note(svc, who, seq, subject, text):
    vid, token = who
    body = {"id": f"{vid}.{seq}", "subject": subject, "language": "en", "text": text, "visit_code": visit_code()}
    status, body = api(svc, "POST", "/v1/notes", body, token)
    check(status == 201, f"posting a note: {status} {body}")
    return f"{vid}.{seq}"


def export_notes(svc):
    status, body = api(svc, "GET", "/v1/staff/export", token=STAFF_TOKEN)
    check(status == 200, f"export: {status}")
    return {n["id"]: n for n in body["visitor_notes"]}


def visible(svc, subject):
    status, body = api(svc, "GET", "/v1/notes?subject=" + subject)
    check(status == 200, f"notes: {status}")
    return {n["id"] for n in body["notes"]}


def staff_add(binary, database, name, password, role=None):
    r = subprocess.run([binary, "staff", "add", name, "--database", database, "--cost", "10"] + (["--role", role] if role else []), input=password + "\n",
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"staff add {name}: {r.stderr}")


class Run:
    def __init__(self, args):
        self.args = args
        self.out = args.out
        os.makedirs(self.out, exist_ok=True)
        self.browsers = []
        self.axe = open(os.path.join(os.path.dirname(__import__("axe_core_python").__file__), "axe.min.js")).read()
        self.results = []

    def browser(self, width=1280, height=900):
        o = webdriver.ChromeOptions()
        o.binary_location = "/usr/bin/chromium"
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                  "--lang=en-US", "--no-first-run", "--disable-extensions"]:
            o.add_argument(a)
        d = webdriver.Chrome(options=o, service=Service("/usr/bin/chromedriver"))
        d.set_page_load_timeout(WAIT)
        d.set_script_timeout(WAIT * 2)
        if width < 500:
            # Headless Chromium's windows are at least 500 px wide: a phone's width is emulated.
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        self.browsers.append(d)
        return d

    def shot(self, d, name):
        d.save_screenshot(os.path.join(self.out, name + ".png"))

    def go(self, d, path):
        d.get(self.svc.url + path)

    def text(self, d):
        return d.find_element(By.TAG_NAME, "body").text

    def wait_text(self, d, needle):
        try:
            WebDriverWait(d, WAIT, ignored_exceptions=PAGE_CHANGES).until(lambda x: needle in x.find_element(By.TAG_NAME, "body").text)
        except Exception as e:
            raise Check(f"'{needle}' never appeared on {d.current_url} ({type(e).__name__}: {str(e)[:300]}):\n{self.text(d)[:1500]}")

    def sign_in(self, d, name, password):
        self.go(d, "/staff/sign-in")
        d.find_element(By.ID, "name").clear()
        d.find_element(By.ID, "name").send_keys(name)
        d.find_element(By.ID, "password").send_keys(password)
        d.find_element(By.CSS_SELECTOR, "form.signin button[type=submit]").click()

    def axe_check(self, d, page):
        """axe-core in the page: no serious or critical violation; and nothing wider than 360 px."""
        d.execute_script(self.axe)
        result = d.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(function (r) { done(JSON.stringify(r.violations)); })"
            ".catch(function (e) { done(JSON.stringify([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}])); });")
        bad = [v for v in json.loads(result) if v.get("impact") in ("serious", "critical")]
        check(not bad, f"axe on {page}: " + "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at "
                                                      + ", ".join(str(n.get('target')) for n in v['nodes'][:3]) for v in bad))
        return len(json.loads(result))

    def narrow(self, page_path, name):
        d = self.narrow_browser
        self.go(d, page_path)
        width = d.execute_script("return document.documentElement.scrollWidth")
        inner = d.execute_script("return window.innerWidth")
        check(inner == 360, f"the phone window is {inner} px wide, not 360")
        check(width <= inner + 1, f"{page_path} is {width} px wide in a {inner} px window")
        self.shot(d, name + "-360px")

    # MARK: the steps

    def seed(self):
        svc = self.svc
        self.writer = visitor(svc, "writer")
        self.rogue = visitor(svc, "rogue")
        self.low = visitor(svc, "lowscore")
        self.reporters = [visitor(svc, f"reporter{i}") for i in range(1, 6)]
        self.note_a = note(svc, self.writer, 1, "artwork:1101", "A: the weaver's blue is lovely")
        self.note_b = note(svc, self.writer, 2, "artwork:1102", "B: a second reported note")
        self.note_c = note(svc, self.rogue, 1, "artwork:1103", "C: a rude note from the rogue")
        self.note_d = note(svc, self.low, 1, "artwork:1104", "D: voted down by five")
        for r in self.reporters[:3]:
            for n in (self.note_a, self.note_b):
                status, _ = api(svc, "PUT", "/v1/reports/" + n, None, r[1])
                check(status == 200, f"report: {status}")
        status, _ = api(svc, "PUT", "/v1/reports/" + self.note_c, None, self.reporters[0][1])
        check(status == 200, "report C")
        for r in self.reporters:
            status, _ = api(svc, "PUT", "/v1/reactions/note:" + self.note_d, {"value": -1}, r[1])
            check(status == 200, f"down-vote: {status}")
            status, _ = api(svc, "PUT", "/v1/reactions/artwork:1101", {"value": 1}, r[1])
            check(status == 200, f"like: {status}")
        self.plays = {"artwork:1101": 12, "stop:4002/1": 5, "stop:4002/2": 2}
        for subject, n in self.plays.items():
            for _ in range(n):
                status, _ = api(svc, "POST", "/v1/plays/" + subject)
                check(status == 204, f"play: {status}")

    def step(self, name, fn):
        t0 = time.monotonic()
        try:
            fn()
            self.results.append((name, "ok", time.monotonic() - t0, ""))
        except Exception as e:
            for i, d in enumerate(self.browsers):
                try:
                    self.shot(d, f"FAILED-{name}-{i}")
                except Exception:
                    pass
            self.results.append((name, "FAILED", time.monotonic() - t0, f"{e}\n{traceback.format_exc()[-1500:]}"))

    def test_wrong_password_and_lockout(self):
        d = self.anon
        self.sign_in(d, "locky", "not-the-password")
        self.wait_text(d, "do not match")
        self.axe_check(d, "sign-in (refused)")
        for _ in range(4):
            self.sign_in(d, "locky", "still-not-it")
            self.wait_text(d, "do not match")
        self.sign_in(d, "locky", PASSWORDS["locky"])
        self.wait_text(d, "Too many failed sign-ins")
        check("/staff/sign-in" in d.current_url, "a locked account was let in")
        self.shot(d, "01-lockout")

    def test_sign_in(self):
        d = self.alice
        self.go(d, "/staff/queue")
        check("/staff/sign-in" in d.current_url, "the queue was shown without signing in")
        self.axe_check(d, "sign-in")
        self.narrow("/staff/sign-in", "02-sign-in")
        self.sign_in(d, "alice", PASSWORDS["alice"])
        self.wait_text(d, "Signed in as alice")
        self.wait_text(d, "4 notes waiting")
        for n in (self.note_a, self.note_b, self.note_c, self.note_d):
            check(d.find_elements(By.CSS_SELECTOR, f'.queue .item[data-note="{n}"]'), f"{n} is not in the queue")
        body = self.text(d)
        check("hidden by votes" in body and "reported" in body, "the queue does not say why notes wait")
        cookie = d.get_cookie("docent_staff")
        check(cookie and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict", f"session cookie: {cookie}")
        self.axe_check(d, "queue")
        self.shot(d, "02-queue")

    def test_csrf_refused(self):
        d = self.alice
        self.go(d, "/staff/queue")
        d.execute_script("document.querySelectorAll('input[name=csrf]').forEach(function (i) { i.value = 'forged'; });")
        d.find_element(By.CSS_SELECTOR, f'.item[data-note="{self.note_a}"] button[value=removed]').click()
        self.wait_text(d, "did not come from the console")
        self.axe_check(d, "refused form")
        self.shot(d, "03-csrf-refused")
        check(export_notes(self.svc)[self.note_a].get("decision") in (None, ""), "a forged form changed the note")

    def test_hide_and_restore(self):
        d = self.alice
        self.go(d, "/staff/queue")
        d.find_element(By.CSS_SELECTOR, f'.item[data-note="{self.note_a}"] button[value=removed]').click()
        self.wait_text(d, "Done: Hide on note " + self.note_a)
        check(export_notes(self.svc)[self.note_a]["decision"] == "removed", "hiding did not reach the store")
        check(self.note_a not in visible(self.svc, "artwork:1101"), "a hidden note is still shown to guides")
        self.shot(d, "04-hidden")
        d.find_element(By.CSS_SELECTOR, f'#r-{self.note_a.replace(".", "-")} button[value=restored]').click()
        # Restoring a removed note says so (issue 44 #14: it said "Keep").
        self.wait_text(d, "Done: Restore on note " + self.note_a)
        check(export_notes(self.svc)[self.note_a]["decision"] == "restored", "restoring did not reach the store")
        check(self.note_a in visible(self.svc, "artwork:1101"), "a restored note is not shown to guides")
        self.shot(d, "04-restored")

    def test_ban(self):
        d = self.alice
        self.go(d, "/staff/queue")
        d.find_element(By.CSS_SELECTOR, f'.item[data-note="{self.note_c}"] form[action$="/ban"] button').click()
        # It asks first (issue 44 #14): nothing is banned until the answer.
        self.wait_text(d, f"Ban {self.rogue[0]}?")
        status, _ = api(self.svc, "GET", "/v1/snapshot?day_start=0", None, self.rogue[1])
        check(status == 200, f"the writer was banned before the staff member said yes: {status}")
        self.axe_check(d, "ban: are you sure")
        d.find_element(By.CSS_SELECTOR, 'main form[action$="/ban"] button.danger').click()
        self.wait_text(d, "Banned " + self.rogue[0])
        check("1 note hidden," in self.text(d), f"one note, in the singular (issue 44 #14): {self.text(d)[:600]}")
        status, _ = api(self.svc, "POST", "/v1/notes", {"id": self.rogue[0] + ".2", "subject": "artwork:1101", "language": "en", "text": "again"}, self.rogue[1])
        check(status == 401, f"a banned writer could still post: {status}")
        status, _ = api(self.svc, "PUT", "/v1/reactions/artwork:1101", {"value": 1}, self.rogue[1])
        check(status == 401, f"a banned writer could still react: {status}")
        check(export_notes(self.svc)[self.note_c]["decision"] == "removed", "the banned writer's note is still shown")
        self.axe_check(d, "visitors")
        self.narrow("/staff/visitors", "05-visitors")
        self.shot(d, "05-banned")

    def test_keyboard_moderation(self):
        d = self.alice
        self.go(d, "/staff/queue")
        items = [e.get_attribute("data-note") for e in d.find_elements(By.CSS_SELECTOR, ".queue .item")]
        check(items == [self.note_b, self.note_d], f"the queue should hold B then D, oldest first: {items}")
        keys = ActionChains(d)
        keys.send_keys("j").perform()
        check(d.switch_to.active_element.get_attribute("data-note") == self.note_d, "j did not move to the next note")
        ActionChains(d).send_keys("k").perform()
        check(d.switch_to.active_element.get_attribute("data-note") == self.note_b, "k did not move back")
        self.shot(d, "06-keyboard-selected")
        ActionChains(d).send_keys("h").perform()
        self.wait_text(d, "Done: Hide on note " + self.note_b)
        notes = export_notes(self.svc)
        check(notes[self.note_b]["decision"] == "removed", "h did not hide the selected note")
        check(notes[self.note_d].get("decision") in (None, ""), "h changed another note")
        # Focus lands on what is left, so the next key works at once.
        check(d.switch_to.active_element.get_attribute("data-note") == self.note_d, "after h, the next note is not selected")
        self.shot(d, "06-keyboard-hidden")

    def test_two_sessions(self):
        a, b = self.alice, self.bob
        self.sign_in(b, "bob", PASSWORDS["bob"])
        self.wait_text(b, "Signed in as bob")
        self.go(a, "/staff/queue")
        self.go(b, "/staff/queue")
        a.find_element(By.CSS_SELECTOR, f'.item[data-note="{self.note_d}"] button[value=restored]').click()
        self.wait_text(a, "Done: Keep on note " + self.note_d)
        b.find_element(By.CSS_SELECTOR, f'.item[data-note="{self.note_d}"] button[value=removed]').click()
        self.wait_text(b, "Someone else decided first: alice set restored")
        check(export_notes(self.svc)[self.note_d]["decision"] == "restored", "bob's late click overwrote alice's decision")
        self.shot(b, "07-two-sessions-bob")
        self.shot(a, "07-two-sessions-alice")

    def test_tagline(self):
        d = self.alice
        self.go(d, "/staff/featured")
        # Exhibitions by their title (issue 44 #14: they showed as exhibition:7101 alone).
        check("Tidewater: Painting the Working Harbour" in d.find_element(By.ID, "f-exhibition-7101").text,
              f"exhibition:7101 has no title: {d.find_element(By.ID, 'f-exhibition-7101').text!r}")
        field = d.find_element(By.ID, "tl-tour-4002-en")
        field.clear()
        long = "Follow the light through four rooms of northern painting, then rest by the fountain"
        field.send_keys(long)
        # The preview follows the typing, before any save (issue 44 #14: data-preview was unused).
        self.wait_text(d, "Follow the light through four rooms")
        live = d.find_element(By.CSS_SELECTOR, "#pv-tour-4002-en .row").text
        check(live.startswith("Follow the light through four rooms") and len(live) <= 60, f"the live preview: {live!r}")
        field.find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait_text(d, "Saved tour:4002")
        status, snap = api(self.svc, "GET", "/v1/snapshot?day_start=0")
        check(status == 200, f"snapshot: {status}")
        tour = [f for f in snap["featured"] if f["subject"] == "tour:4002"]
        check(tour, "tour:4002 is no longer featured")
        shown = tour[0]["taglines"]["en"]
        check(shown.startswith("Follow the light through four rooms") and len(shown) <= 60, f"snapshot tagline: {shown!r}")
        preview = d.find_element(By.CSS_SELECTOR, "#pv-tour-4002-en .row").text
        check(preview == shown, f"the preview {preview!r} is not what guides get {shown!r}")
        check(live == shown, f"the live preview {live!r} is not what guides get {shown!r}")
        # A subject the museum's data does not have is refused, as `docent-pulse feature --data`
        # refuses it (issue 44 #14), and the page keeps the console's navigation.
        d.find_element(By.ID, "new-subject").send_keys("artwork:999999")
        d.find_element(By.ID, "new-subject").find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait_text(d, "the museum's data has no artwork:999999")
        status, snap = api(self.svc, "GET", "/v1/snapshot?day_start=0")
        check(not [f for f in snap["featured"] if f["subject"] == "artwork:999999"], "artwork:999999 was featured")
        self.go(d, "/staff/queue?after=not-a-cursor")
        check(d.find_elements(By.CSS_SELECTOR, "form.signout"), "an error page lost the navigation (issue 44 #14)")
        self.go(d, "/staff/featured")
        self.axe_check(d, "featured")
        self.narrow("/staff/featured", "08-featured")
        self.shot(d, "08-tagline")

    def test_announcement_preview(self):
        d = self.alice
        self.go(d, "/staff/announcements")
        box = d.find_element(By.ID, "check-patterns")
        box.clear()
        box.send_keys("artwork:110\\d")

        def listed(x):
            keys = [e.text for e in x.find_elements(By.CSS_SELECTOR, "#match-list li .key")]
            return keys if keys and all(k.startswith("artwork:110") and len(k) == 12 for k in keys) else None
        try:
            keys = WebDriverWait(d, WAIT, ignored_exceptions=PAGE_CHANGES).until(listed)
        except Exception:
            raise Check(f"the live preview never listed only artwork:110N: {self.text(d)[:1500]}")
        check("artwork:1101" in keys, f"preview lists {keys}")
        listed = keys
        check("Pages this matches (" + str(len(listed)) + ")" in self.text(d), "the count is not the list's")
        self.shot(d, "09-announcement-preview")
        new = d.find_element(By.ID, "id-new")
        new.send_keys("late-thursday")
        d.find_element(By.ID, "feeds-new").send_keys("tab:home")
        d.find_element(By.ID, "at-new-en").send_keys("Open late on Thursdays")
        new.find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait_text(d, "Saved late-thursday")
        status, snap = api(self.svc, "GET", "/v1/snapshot?day_start=0")
        check(any(a.get("id") == "late-thursday" for a in snap["announcements"]), "the announcement did not reach the snapshot")
        self.axe_check(d, "announcements")
        self.narrow("/staff/announcements", "09-announcements")

    def test_charts(self):
        d = self.alice
        before = visit_code()
        self.go(d, "/staff/pulse")
        shown = d.find_element(By.CSS_SELECTOR, "#visit-code strong").text
        check(shown in (before, visit_code()), f"the Pulse page shows visit code {shown!r}, not today's {before}")
        bars = d.find_elements(By.CSS_SELECTOR, "#chart-plays svg rect")
        check(len(bars) == 30, f"{len(bars)} bars for 30 days")
        titles = [b.find_element(By.TAG_NAME, "title").get_attribute("textContent") for b in bars]
        total = sum(self.plays.values())
        check(titles[-1].endswith(": " + str(total)), f"today's bar says {titles[-1]}, not {total} plays")
        check(int(float(bars[-1].get_attribute("height"))) > 0, "today's bar is flat")
        d.find_element(By.CSS_SELECTOR, "#chart-plays summary").click()
        rows = d.find_elements(By.CSS_SELECTOR, "#chart-plays tbody tr")
        check(rows[-1].find_element(By.TAG_NAME, "td").text == str(total), "the numbers table disagrees with the chart")
        body = self.text(d)
        check("artwork:1101 — 12" in body, "most played does not list artwork:1101 with 12 plays")
        check("stop:4002/1" in body, "abandonment does not name stop 1 of tour 4002")
        csv = d.execute_async_script(
            "var done = arguments[arguments.length - 1]; fetch('/staff/pulse.csv').then(function (r) { return r.text(); }).then(done);")
        check(csv.strip().splitlines()[-1].split(",")[1] == str(total), f"CSV today: {csv.strip().splitlines()[-1]}")
        self.axe_check(d, "pulse")
        self.narrow("/staff/pulse", "10-pulse")
        # Chart labels readable on a phone (issue 44 #14: about 6 px).
        label = self.narrow_browser.execute_script("var t = document.querySelector('.chart svg text'); return t ? t.getBoundingClientRect().height : 0")
        check(label >= 10, f"a chart label is {label:.1f} px tall on a 360 px phone")
        self.shot(d, "10-charts")

    def test_erase_and_audit(self):
        d = self.alice
        self.go(d, "/staff/visitors")
        gone = self.reporters[4]
        d.find_element(By.ID, "erase-visitor").send_keys(gone[0])
        d.find_element(By.ID, "erase-confirm").click()
        d.find_element(By.CSS_SELECTOR, 'form[action="/staff/visitors/erase"] button').click()
        self.wait_text(d, "Erased " + gone[0])
        status, _ = api(self.svc, "PUT", "/v1/reactions/artwork:1101", {"value": 1}, gone[1])
        check(status == 401, f"an erased visitor still writes: {status}")
        status, counts = api(self.svc, "GET", "/v1/subjects/artwork:1101")
        check(counts["up"] == 4, f"the erased visitor's like still counts: {counts}")
        self.go(d, "/staff/audit?staff=alice")
        body = self.text(d)
        for action in ("sign-in", "decide", "ban", "feature", "announce", "erase"):
            check(action in body, f"the audit log has no {action} by alice")
        check("bob" not in body.split("Contains")[-1], "the filter by alice shows bob's actions")
        self.axe_check(d, "audit")
        self.narrow("/staff/audit", "11-audit")
        # Words in the audit table are not broken into letters on a phone (issue 44 #14).
        narrowest = self.narrow_browser.execute_script(
            "var w = Array.prototype.map.call(document.querySelectorAll('.audit tbody td'), function (c) { return c.getBoundingClientRect().width; }); return w.length ? Math.min.apply(null, w) : -1")
        check(narrowest >= 48, f"an audit cell is {narrowest:.0f} px wide on a 360 px phone")
        self.shot(d, "11-audit")
        self.go(d, "/staff/queue?lang=fr")
        self.wait_text(d, "Modération")
        self.axe_check(d, "queue in French")
        self.shot(d, "12-french")
        self.go(d, "/staff/queue?lang=en")

    def test_accounts(self):
        """The staff accounts page (issue 44 #14): plain staff get no link and a 403; alice adds
        an account, sets its password, ends bob's sessions and removes the account, each asked
        first where it cannot be undone, each in the audit log under her name."""
        a, b = self.alice, self.bob
        self.go(b, "/staff/queue")
        check("Signed in as bob" in self.text(b), "bob is not signed in")
        check(not b.find_elements(By.CSS_SELECTOR, 'nav a[href="/staff/accounts"]'), "plain staff see the accounts link")
        self.go(b, "/staff/accounts")
        self.wait_text(b, "may not manage staff accounts")
        self.shot(b, "14-accounts-refused")
        self.go(a, "/staff/queue")
        a.find_element(By.CSS_SELECTOR, 'nav a[href="/staff/accounts"]').click()
        self.wait_text(a, "Add an account")
        check(a.find_elements(By.CSS_SELECTOR, 'li[data-account="bob"] form[action$="/remove"]'), "no remove button for bob")
        check(not a.find_elements(By.CSS_SELECTOR, 'li[data-account="alice"] form[action$="/remove"]'), "alice may remove herself")
        self.axe_check(a, "accounts")
        self.narrow("/staff/accounts", "14-accounts")
        a.find_element(By.ID, "acct-name").send_keys("dora")
        a.find_element(By.ID, "acct-password").send_keys("dora-password-1")
        a.find_element(By.ID, "acct-name").find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait_text(a, "Added the account dora.")
        a.find_element(By.ID, "pw-dora").send_keys("dora-new-password-2")
        a.find_element(By.ID, "pw-dora").find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait_text(a, "New password set for dora")
        a.find_element(By.CSS_SELECTOR, 'li[data-account="bob"] form[action$="/sessions"] button').click()
        self.wait_text(a, "End every session of bob?")
        self.axe_check(a, "accounts: are you sure")
        self.go(b, "/staff/queue")
        check("Signed in as bob" in self.text(b), "asking ended bob's sessions")
        a.find_element(By.CSS_SELECTOR, 'main form[action$="/sessions"] button.danger').click()
        self.wait_text(a, "of bob.")
        self.go(b, "/staff/queue")
        check("/staff/sign-in" in b.current_url, "bob's session outlived its ending")
        a.find_element(By.CSS_SELECTOR, 'li[data-account="dora"] form[action$="/remove"] button').click()
        self.wait_text(a, "Remove the account dora?")
        a.find_element(By.CSS_SELECTOR, 'main form[action$="/remove"] button.danger').click()
        self.wait_text(a, "Removed the account dora.")
        check(not a.find_elements(By.CSS_SELECTOR, 'li[data-account="dora"]'), "dora is still listed")
        self.shot(a, "14-accounts")
        self.go(a, "/staff/audit?staff=alice")
        body = self.text(a)
        for action, target in (("staff-add", "staff:dora"), ("staff-password", "staff:dora"), ("staff-sessions", "staff:bob"), ("staff-remove", "staff:dora")):
            check(any(action in row.text and target in row.text for row in a.find_elements(By.CSS_SELECTOR, ".audit tbody tr")),
                  f"the audit log has no {action} of {target} by alice: {body[:1500]}")
        self.go(a, "/staff/accounts?lang=ko")
        self.wait_text(a, "직원 계정")
        self.go(a, "/staff/queue?lang=en")

    def test_queue_pages(self):
        # A queue longer than a page: 101 more reported notes (ten a writer, the store's
        # hourly limit), then the first page, the next, and back.
        svc = self.svc
        writers = [visitor(svc, f"pagewriter{i:02d}") for i in range(11)]
        reporters = [visitor(svc, f"pagereport{i}") for i in range(4)]
        added = []
        for k in range(101):
            n = note(svc, writers[k // 10], k % 10 + 1, "artwork:1105", f"Page note {k}")
            status, _ = api(svc, "PUT", "/v1/reports/" + n, None, reporters[k % 4][1])
            check(status == 200, f"report: {status}")
            added.append(n)
        d = self.alice
        self.go(d, "/staff/queue")
        first = [e.get_attribute("data-note") for e in d.find_elements(By.CSS_SELECTOR, ".queue .item")]
        check(len(first) == 100, f"the first page holds {len(first)} notes, not 100")
        check(not d.find_elements(By.LINK_TEXT, "← Back to the oldest"), "the first page offers to go back to itself")
        d.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
        self.wait_text(d, "← Back to the oldest")
        second = [e.get_attribute("data-note") for e in d.find_elements(By.CSS_SELECTOR, ".queue .item")]
        check(second and not set(first) & set(second), f"the second page repeats the first: {set(first) & set(second)}")
        check(not d.find_elements(By.CSS_SELECTOR, "a[rel=next]"), "the last page offers a next one")
        whole = first + second
        check(set(added) <= set(whole), f"{len(set(added) - set(whole))} queued notes are on no page")
        check([n for n in whole if n in added] == added, "the pages are not oldest first")
        check(f"{len(whole)} notes waiting" in self.text(d), f"the page does not say {len(whole)} notes waiting")
        self.axe_check(d, "queue, second page")
        self.shot(d, "12-queue-second-page")
        d.find_element(By.LINK_TEXT, "← Back to the oldest").click()
        self.wait_text(d, "Next 100 →")

    def test_sign_out(self):
        d = self.alice
        self.go(d, "/staff/queue")
        d.find_element(By.CSS_SELECTOR, "form.signout button").click()
        self.wait_text(d, "Password or staff token")
        self.go(d, "/staff/queue")
        check("/staff/sign-in" in d.current_url, "the session outlived sign-out")
        # The staff token signs in too, recorded as staff-token.
        self.sign_in(d, "", STAFF_TOKEN)
        self.wait_text(d, "Signed in as staff-token")
        self.shot(d, "13-token-sign-in")

    def test_no_secret_in_logs(self):
        log = "".join(self.svc.log)
        check("failed sign-in" in log, "a failed sign-in was not logged")
        for secret in [STAFF_TOKEN, VISIT_SECRET] + list(PASSWORDS.values()):
            check(secret not in log, "a secret appears in the service's log")

    def main(self):
        a = self.args
        for name, pw in PASSWORDS.items():
            # alice manages accounts (the accounts page); bob and locky are plain staff.
            staff_add(a.binary, a.database, name, pw, "admin" if name == "alice" else None)
        self.svc = Service_(a.binary, a.database, a.data, a.seed, a.out)
        try:
            self.seed()
            self.anon = self.browser()
            self.alice = self.browser()
            self.bob = self.browser()
            self.narrow_browser = self.browser(360, 800)
            self.sign_in(self.narrow_browser, "alice", PASSWORDS["alice"])
            steps = [
                ("sign-in", self.test_sign_in), ("wrong-password-and-lockout", self.test_wrong_password_and_lockout),
                ("csrf-refused", self.test_csrf_refused), ("hide-and-restore", self.test_hide_and_restore), ("ban", self.test_ban),
                ("keyboard-moderation", self.test_keyboard_moderation), ("two-sessions", self.test_two_sessions),
                ("tagline-in-snapshot", self.test_tagline), ("announcement-preview", self.test_announcement_preview),
                ("charts", self.test_charts), ("erase-and-audit", self.test_erase_and_audit), ("accounts", self.test_accounts), ("queue-pages", self.test_queue_pages), ("sign-out", self.test_sign_out),
                ("no-secret-in-logs", self.test_no_secret_in_logs),
            ]
            for name, fn in steps:
                self.step(name, fn)
        finally:
            for d in self.browsers:
                try:
                    d.quit()
                except Exception:
                    pass
            self.svc.stop()
        failed = [r for r in self.results if r[1] != "ok"]
        for name, status, secs, why in self.results:
            print(f"{status:6} {name} ({secs:.1f} s)")
        print(f"{len(self.results) - len(failed)} of {len(self.results)} console checks passed; screenshots in {self.out}")
        # Why a check failed comes last, so the tail of a long CI log shows it.
        for name, status, secs, why in failed:
            print(f"why {name} failed:\n       " + why.replace("\n", "\n       "))
        return 1 if failed or not self.results else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--database", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--data", default=None)
    p.add_argument("--seed", required=True)
    p.add_argument("--deadline", type=int, default=420)
    a = p.parse_args()

    def expired(*_):
        print(f"console tests: over the {a.deadline} s deadline", flush=True)
        os._exit(3)
    signal.signal(signal.SIGALRM, expired)
    signal.alarm(a.deadline)
    sys.exit(Run(a).main())


if __name__ == "__main__":
    main()
