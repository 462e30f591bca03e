#!/usr/bin/env python3
"""record_goldens.py — records the SQL golden tests (tests/golden/*.sql) from real Apache Flink.

Usage:
  python3 tests/flink/record_goldens.py [names...]     record these tests (default: all)
  python3 tests/flink/record_goldens.py --no-run       re-normalize the raw transcripts kept from
                                                       an earlier run (no Flink needed)
Options: --run-dir D (the Flink cluster's folder, default /tmp/flink-goldens; the cluster is
started there when it is not running and stopped again at the end unless --keep), --raw-dir D
(raw transcripts, default <run-dir>/raw), --timeout S (per script, default 300).

For each test <name> it
  1. substitutes the script (and <name>.init.sql) exactly as tests/run.sh does: $DATA becomes the
     absolute path of tests/golden/data, $TMP a fresh scratch folder (<scratch>/work);
  2. runs Flink's own `sql-client.sh [-i init] -f script` with the working directory tests/golden
     (tests/flink/flinkctl.py: FlinkRun.sql_client), one script at a time;
  3. keeps the raw stdout/stderr/exit status under the raw folder and writes Flink's normalized
     transcript (tests/flink/normalize.py) to tests/golden/flink/<name>.out and its exit status to
     tests/golden/flink/<name>.exit;
  4. compares it with weir's recording tests/golden/<name>.out (normalized the same way) and
     classifies the test:
       same       Flink's and weir's normalized transcripts are equal;
       differs    they differ: the unified diff goes to <raw folder>/<name>.diff (and
                  tests/flink/goldens_check.py prints it);
       weir-only  Flink cannot run the script because it uses something only weir has (a weir
                  connector or format); the test stays weir-recorded, listed with its reason in
                  tests/golden/flink/WEIR_ONLY (and no .out is stored for it).
A summary goes to tests/golden/flink/SUMMARY (one "<class> <name>" line per test).

Extra weir arguments in <name>.args (`-v`: job reports on stderr) are not passed to Flink; they
only add stderr, and stdout is what is compared, so those tests are recorded as usual.
"""
import argparse
import difflib
import os
import re
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(ROOT, "tests", "golden")
DATA = os.path.join(GOLDEN, "data")
OUT = os.path.join(GOLDEN, "flink")
sys.path.insert(0, HERE)
import flinkctl   # noqa: E402
import normalize  # noqa: E402

# Things Flink 2.3 does not have: a test whose script or init script uses one is weir-only.
WEIR_ONLY_FEATURES = [
    (re.compile(r"'format'\s*=\s*'changelog-csv'"),
     "uses weir's changelog-csv format (Flink has no such format)"),
    (re.compile(r"'connector'\s*=\s*'nexmark'"),
     "uses weir's built-in nexmark connector (Flink's distribution has none)"),
    (re.compile(r"'sink\.changelog-mode'"),
     "uses weir's print-connector option sink.changelog-mode (Flink rejects it)"),
    (re.compile(r"'weir\.exec\.simulated-clock\.step'"),
     "uses weir's simulated processing-time clock (weir.exec.simulated-clock.step): state TTL "
     "expiry is reproducible only there"),
]


def tests(names):
    all_names = sorted(f[:-4] for f in os.listdir(GOLDEN)
                       if f.endswith(".sql") and not f.endswith(".init.sql"))
    if not names:
        return all_names
    bad = [n for n in names if n not in all_names]
    if bad:
        sys.exit("record_goldens: no such golden test: %s" % " ".join(bad))
    return names


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def weir_only_reason(name):
    text = read(os.path.join(GOLDEN, name + ".sql"))
    init = os.path.join(GOLDEN, name + ".init.sql")
    if os.path.exists(init):
        text += read(init)
    for rx, why in WEIR_ONLY_FEATURES:
        if rx.search(text):
            return why
    return None


def substitute(src, dst, scratch):
    text = read(src).replace("$DATA", DATA).replace("$TMP", os.path.join(scratch, "work"))
    write(dst, text)


def run_flink(run, name, raw_dir, timeout):
    """Runs one golden script through Flink's client; keeps the raw transcript in raw_dir."""
    scratch = os.path.join(raw_dir, "scratch", name)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.join(scratch, "work"))
    job = os.path.join(scratch, name + ".sql")
    substitute(os.path.join(GOLDEN, name + ".sql"), job, scratch)
    init = None
    if os.path.exists(os.path.join(GOLDEN, name + ".init.sql")):
        init = os.path.join(scratch, name + ".init.sql")
        substitute(os.path.join(GOLDEN, name + ".init.sql"), init, scratch)
    tm_out = taskmanager_stdout(run)
    start = os.path.getsize(tm_out) if tm_out else 0
    status, out, err = run.sql_client(job, init, cwd=GOLDEN, timeout=timeout)
    wait_for_jobs(run, timeout)
    printed = ""
    if tm_out:
        with open(tm_out, "rb") as f:
            f.seek(start)
            printed = f.read().decode("utf-8", "replace")
    write(os.path.join(raw_dir, name + ".print"), printed)
    write(os.path.join(raw_dir, name + ".stdout"), out)
    write(os.path.join(raw_dir, name + ".stderr"), err)
    write(os.path.join(raw_dir, name + ".exit"), "%d\n" % status)
    write(os.path.join(raw_dir, name + ".scratch"), scratch + "\n")
    return status


def taskmanager_stdout(run):
    """The TaskManager's stdout file: where the print connector's rows go on a Flink cluster."""
    log = run.info["log"]
    outs = [f for f in os.listdir(log) if "taskexecutor" in f and f.endswith(".out")]
    return os.path.join(log, sorted(outs)[0]) if outs else None


def wait_for_jobs(run, timeout):
    """Waits until no job of the cluster is still running (an asynchronous INSERT outlives the
    client), so that its print output is complete and the next script starts on an idle cluster;
    jobs still running after the timeout are cancelled."""
    deadline = time.time() + timeout
    while True:
        st, r = run.rest("/jobs/overview")
        running = [j["jid"] for j in (r or {}).get("jobs", []) if st == 200 and
                   j.get("state") not in ("FINISHED", "FAILED", "CANCELED")]
        if not running:
            return
        if time.time() > deadline:
            for jid in running:
                flinkctl.http_json("http://127.0.0.1:%d/jobs/%s/stop" % (run.info["rest_port"], jid),
                                   {"drain": False})
                req = flinkctl.urllib.request.Request(
                    "http://127.0.0.1:%d/jobs/%s?mode=cancel" % (run.info["rest_port"], jid),
                    method="PATCH")
                try:
                    flinkctl.urllib.request.urlopen(req, timeout=10).read()
                except flinkctl.urllib.error.URLError:
                    pass
            return
        time.sleep(0.2)


def paths_for(scratch):
    """Absolute paths of one run and the placeholders they become (as tests/run.sh writes them)."""
    return [(os.path.join(scratch, "work"), "$TMP"), (scratch, "$GOLDEN"), (GOLDEN, "$GOLDEN"),
            (DATA, "$DATA")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--run-dir", default="/tmp/flink-goldens")
    ap.add_argument("--raw-dir")
    ap.add_argument("--no-run", action="store_true")
    ap.add_argument("--keep", action="store_true", help="leave a cluster this run started running")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--weir-rev", help="with --no-run: compare with weir's recordings at this git "
                    "revision (e.g. for before/after figures; nothing is written but SUMMARY-<rev>)")
    a = ap.parse_args()
    raw_dir = a.raw_dir or os.path.join(a.run_dir, "raw")
    os.makedirs(raw_dir, exist_ok=True)
    os.makedirs(OUT, exist_ok=True)
    names = tests(a.names)

    run, started = None, False
    if not a.no_run:
        run = flinkctl.FlinkRun(a.run_dir)
        if not run.running():
            if not run.start():
                sys.exit("record_goldens: Flink could not be started (see above)")
            started = True

    weir_only = normalize.read_list(os.path.join(OUT, "WEIR_ONLY"))
    summary = normalize.read_list(os.path.join(OUT, "SUMMARY"))
    try:
        for name in names:
            why = weir_only_reason(name)
            for ext in (".out", ".exit", ".diff"):
                if not a.weir_rev and os.path.exists(os.path.join(OUT, name + ext)):
                    os.remove(os.path.join(OUT, name + ext))
            if why:
                if not a.weir_rev:
                    weir_only[name] = why
                summary[name] = "weir-only"
                print("weir-only %s: %s" % (name, why), flush=True)
                continue
            weir_only.pop(name, None)
            if not a.no_run:
                run_flink(run, name, raw_dir, a.timeout)
            elif not os.path.exists(os.path.join(raw_dir, name + ".stdout")):
                print("missing   %s: no raw transcript in %s" % (name, raw_dir), flush=True)
                continue
            cls = classify(name, raw_dir, a.weir_rev)
            summary[name] = cls
            print("%-9s %s" % (cls, name), flush=True)
    finally:
        if a.weir_rev:
            normalize.write_list(os.path.join(raw_dir, "SUMMARY-" + a.weir_rev), summary,
                                 "Comparison with weir's recordings at %s" % a.weir_rev)
            summary = {n: summary[n] for n in names if n in summary}
        else:
            normalize.write_list(os.path.join(OUT, "WEIR_ONLY"), weir_only,
                                 "Golden tests Flink cannot run (they use weir's own extensions): "
                                 "they stay recorded from weir.\n<name> <reason>")
            normalize.write_list(os.path.join(OUT, "SUMMARY"), summary,
                                 "How each golden test compares with Flink's recording (written "
                                 "by tests/flink/record_goldens.py).\n<name> same|differs|weir-only")
        if started and not a.keep:
            run.stop()
    counts = {}
    for v in summary.values():
        counts[v] = counts.get(v, 0) + 1
    print(", ".join("%d %s" % (counts[k], k) for k in sorted(counts)))


def git_show(rev, path):
    import subprocess
    p = subprocess.run(["git", "-C", ROOT, "show", "%s:%s" % (rev, os.path.relpath(path, ROOT))],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return p.stdout.decode("utf-8") if p.returncode == 0 else None


def classify(name, raw_dir, weir_rev=None):
    raw = read(os.path.join(raw_dir, name + ".stdout"))
    status = int(read(os.path.join(raw_dir, name + ".exit")).strip() or 0)
    scratch = read(os.path.join(raw_dir, name + ".scratch")).strip()
    script = read(os.path.join(GOLDEN, name + ".sql"))
    if weir_rev:
        script = git_show(weir_rev, os.path.join(GOLDEN, name + ".sql")) or script
    printed = read(os.path.join(raw_dir, name + ".print")) \
        if os.path.exists(os.path.join(raw_dir, name + ".print")) else None
    init_path = os.path.join(GOLDEN, name + ".init.sql")
    init = read(init_path) if os.path.exists(init_path) else None
    flink = normalize.normalize(raw, script, paths=paths_for(scratch), source="flink",
                                printed=printed, init=init)
    weir_path = os.path.join(GOLDEN, name + ".out")
    weir_exit_path = os.path.join(GOLDEN, name + ".exit")
    if weir_rev:
        weir = git_show(weir_rev, weir_path) or ""
        weir_exit = git_show(weir_rev, weir_exit_path)
    else:
        write(os.path.join(OUT, name + ".out"), flink)
        write(os.path.join(OUT, name + ".exit"), "%d\n" % status)
        weir = read(weir_path) if os.path.exists(weir_path) else ""
        weir_exit = read(weir_exit_path) if os.path.exists(weir_exit_path) else None
    weir = normalize.normalize(weir, script, source="weir", init=init)
    weir_status = int(weir_exit.strip()) if weir_exit else 0
    want_status = normalize.expected_weir_exit(flink, status)
    if weir == flink and weir_status == want_status:
        return "same"
    diff = difflib.unified_diff(flink.splitlines(True), weir.splitlines(True),
                                "tests/golden/flink/%s.out (Flink)" % name,
                                "tests/golden/%s.out (weir, normalized)" % name)
    diff = "".join(diff)
    if weir_status != want_status:
        diff += "exit status: weir %d, expected %d (Flink exits %d)\n" % (weir_status, want_status,
                                                                          status)
    if not weir_rev:
        write(os.path.join(raw_dir, name + ".diff"), diff)
    return "differs"


if __name__ == "__main__":
    main()
