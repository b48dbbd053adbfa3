#!/usr/bin/env python3
"""The generated reaction function against the hand-written one it replaced (issue 28).

Not part of `make bench`: a one-off comparison at the database alone. One PostgreSQL started
here (initdb in a temporary directory, as the postgres user when root, 127.0.0.1, a free
port); `docent-pulse serve` (the debug build) migrates it, which makes the generated
`pulse_react_<hash>`; the hand-written function (migration step 2's text, still in
`PostgresPulseStore.swift`) is created beside it as `pulse_react_old`. pgbench then calls each
with random visitors (500), subjects (300) and values, C connections (16), T seconds (6), R
interleaved rounds (5), and prints each median and new / old. Counts are checked against a
recount at the end.
"""
import os
import pwd
import re
import socket
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C = int(os.environ.get("C", "16"))
T = int(os.environ.get("T", "6"))
R = int(os.environ.get("R", "5"))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def as_postgres(cmd, **kw):
    if os.getuid() == 0:
        cmd = ["runuser", "-u", "postgres", "--"] + cmd
    return subprocess.run(cmd, check=True, stdin=subprocess.DEVNULL, **kw)


def old_function():
    s = open(os.path.join(ROOT, "Sources/PulseService/PostgresPulseStore.swift")).read()
    a = s.index("CREATE OR REPLACE FUNCTION pulse_react(")
    b = s.index('$$\n        """', a) + 2
    lines = s[a:b].split("\n")
    return "\n".join(l[8:] if l.startswith("        ") else l for l in lines).replace("pulse_react(", "pulse_react_old(", 1) + ";\n"


def main():
    root = "/usr/lib/postgresql"
    bin_dir = f"{root}/{sorted((int(x) for x in os.listdir(root) if x.isdigit()), reverse=True)[0]}/bin"
    tmp = tempfile.mkdtemp(prefix="bench-react-")
    if os.getuid() == 0:
        pw = pwd.getpwnam("postgres")
        os.chown(tmp, pw.pw_uid, pw.pw_gid)
    data, port = os.path.join(tmp, "data"), free_port()
    as_postgres([f"{bin_dir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"], stdout=subprocess.DEVNULL)
    as_postgres([f"{bin_dir}/pg_ctl", "-D", data, "-l", f"{tmp}/server.log", "-o", f"-h 127.0.0.1 -p {port} -k {tmp}", "-w", "start"], stdout=subprocess.DEVNULL)
    try:
        as_postgres([f"{bin_dir}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "pulse"])
        url = f"postgres://postgres@127.0.0.1:{port}/pulse?sslmode=disable"
        svc = subprocess.Popen([f"{ROOT}/.build/debug/docent-pulse", "serve", "--database", url, "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
        line = svc.stdout.readline()
        svc.terminate()
        svc.wait()
        if "listening" not in line:
            sys.exit(f"bench-pulse-react: docent-pulse did not start: {line!r}")

        def psql(*args):
            return as_postgres([f"{bin_dir}/psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", "pulse", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", *args],
                               capture_output=True, text=True).stdout

        path = os.path.join(tmp, "old.sql")
        with open(path, "w") as f:
            f.write(old_function())
        os.chmod(path, 0o644)
        psql("-f", path)
        new = psql("-c", "SELECT proname FROM pg_proc WHERE proname LIKE 'pulse_react_%' AND proname <> 'pulse_react_old'").strip()
        psql("-c", "INSERT INTO visitor (id, secret, created) SELECT 'bench' || lpad(i::text, 5, '0'), 's', 0 FROM generate_series(0, 499) i")

        def script(fn, columns):
            p = os.path.join(tmp, fn + ".sql")
            with open(p, "w") as f:
                f.write(f"""\\set v random(0, 499)
\\set s random(1, 300)
\\set val random(-1, 1)
SELECT {columns} FROM {fn}('bench' || lpad(:v::text, 5, '0'), 's', 'artwork:' || :s, (:val)::smallint, extract(epoch from clock_timestamp()), 100000000, :v % 16);
""")
            os.chmod(p, 0o644)
            return p

        old_script, new_script = script("pulse_react_old", "outcome, up, meh, down, wait"), script(new, "o_outcome, o_up, o_meh, o_down, o_wait")

        def run(p):
            out = as_postgres([f"{bin_dir}/pgbench", "-n", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", f"-c{C}", f"-j{min(2, C)}", f"-T{T}", "-f", p, "pulse"],
                              capture_output=True, text=True).stdout
            return float(re.search(r"tps = ([\d.]+)", out).group(1))

        run(new_script)  # warm-up: every counts row exists
        old, gen = [], []
        for _ in range(R):
            old.append(run(old_script))
            gen.append(run(new_script))
        print(f"hand-written pulse_react: {[round(x) for x in old]} tps, median {statistics.median(old):.0f}")
        print(f"generated {new}: {[round(x) for x in gen]} tps, median {statistics.median(gen):.0f}")
        print(f"generated / hand-written: {statistics.median(gen) / statistics.median(old):.2f}x ({C} connections, {R} interleaved {T} s rounds)")
        bad = psql("-c", """SELECT count(*) FROM counts c LEFT JOIN (SELECT subject, SUM((value = 1)::int) u, SUM((value = 0)::int) m, SUM((value = -1)::int) d
            FROM reaction GROUP BY subject) r ON r.subject = c.subject
            WHERE c.up <> COALESCE(r.u, 0) OR c.meh <> COALESCE(r.m, 0) OR c.down <> COALESCE(r.d, 0)""").strip()
        print(f"counts not equal to a recount: {bad}")
        if bad != "0":
            sys.exit(1)
    finally:
        as_postgres([f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
