#!/usr/bin/env python3
"""execute_plans.py — compiled plans that cross engines: weir's COMPILE PLAN executed by Apache
Flink's EXECUTE PLAN, and Flink's compiled plans executed by weir, with the results compared.

  execute_plans.py --run-dir D [--build DIR] [--only GLOB] [--report FILE] [--no-xfail]

The targets are the streaming INSERTs and statement sets of the golden tests and the conformance
cases (tests/flink/plan_cases.py collects them; the same units as plans.py). For each target:

  1. weir compiles it (DIR/weir sql-client -f, embedded): `COMPILE PLAN ... FOR <target>` after
     the unit's setup statements, in Flink's text of them (so both engines read the same sources);
  2. Flink's compiled plan of the same target is the one plans.py recorded (tests/flink/plans/);
  3. every sink of both plans is redirected to Flink's `print` connector with a unique
     `print-identifier` (the plan's catalog table entry carries the sink's options, so this is an
     edit of the JSON, not of the SQL); the sources stay as they are and read the golden data;
  4. each plan runs on both engines: weir (`EXECUTE PLAN`, embedded, the rows on its stdout) and
     the Flink cluster of flinkctl.py (`EXECUTE PLAN` through its SQL gateway, waited for on its
     REST API, the rows from the TaskManagers' stdout files).

Two comparisons per target, each printed as one line:
  weir->flink  the results of weir's plan on Flink equal those of the same plan on weir
  flink->weir  the results of Flink's plan on weir equal those of the same plan on Flink
"Equal" is the same multiset of changelog rows per sink (`changelog`), or, where the two runs
interleave updates differently, the same final rows after applying the changes (`final`); a
plan one engine refuses, or a job that fails, is a FAIL with the engine's message. Known
differences are listed with their reason in tests/flink/execute_plans.xfail (XFAIL lines, counted
as skipped). Targets that read data in weir's own changelog-csv format (Flink has no reader for
it), targets plans.py skips, and targets whose Flink plan was not recorded are SKIP lines.
The last line is `execute-plans: N passed, N failed, N skipped`. Exit 1 when a FAIL was printed.
"""
import argparse
import concurrent.futures
import csv
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import flinkctl                  # noqa: E402
import plan_cases as pc          # noqa: E402
import plans                     # noqa: E402

XFAIL = os.path.join(HERE, "execute_plans.xfail")
# the words of a listed reason that mark a result varying between runs on Flink alone: such an
# entry agreeing once is no reason to remove it
VARIES = "between runs"
JOB_TIMEOUT = int(os.environ.get("WEIR_EXECUTE_PLAN_TIMEOUT", "120"))
# identifier, then a static partition's :k=v items and the subtask's :n (Flink's PrintSink)
PRINT_LINE = re.compile(r"^(EP\d+_\d+[a-z]\d+)(?::[^>]*)?> ([+-][IUD])\[(.*)\]$")


class FlinkText(pc.Unit):
    """A unit whose statements run in Flink's text on both engines."""

    def __init__(self, unit):
        super().__init__(unit.name, unit.cwd)
        self.translated = unit.translated
        for s in unit.stmts:
            text = s.flink
            if unit.name.startswith("case/") and s.kind == "setup":
                text = text.replace("'format' = 'csv'", "'format' = 'json'")
            c = pc.Stmt(s.kind, text, text, s.batch, s.skip)
            c.index = s.index
            c.orig = s
            self.stmts.append(c)


def external_connectors(unit, target):
    """The first connector of the target's setups that needs a server (Kafka, PostgreSQL) and a
    connector jar Flink's distribution lacks, or None."""
    for s in unit.prefix(target):
        m = re.search(r"'connector'\s*=\s*'(kafka|upsert-kafka|jdbc)'", s.flink)
        if m:
            return m.group(1)
    return None


def reads_translated(unit, target):
    """The weir-only source tables (changelog-csv data of a golden test) the target or its setups
    read. A conformance case's sources are written here in the format of Flink's text."""
    if not unit.name.startswith("golden/"):
        return []
    text = "\n".join([s.flink for s in unit.prefix(target)] + [target.flink])
    return [t for t in unit.translated
            if re.search(r"(?i)(?<![\w$`])`?%s`?(?![\w$])" % re.escape(t), text)]


def retarget_plan(plan_text, tag, json_dir=None):
    """The plan with every sink's options replaced by a print sink, and (json_dir) the 'csv'
    sources under json_dir read as 'json' (a conformance case's insert-only inputs, which have
    NULLs that CSV cannot carry in numeric columns); returns (json text, [identifier per sink],
    {identifier: upsert key}). A sink whose input sends no UPDATE_BEFORE (the plan was compiled for
    a sink that does not need it, e.g. blackhole or an upsert table) gets its input's upsert key:
    its rows are an upsert stream, folded by that key (the print sink that replaces it prints +U
    without -U, and which updates share a mini-batch decides how many)."""
    plan = json.loads(plan_text)
    ids = []
    upsert_keys = {}
    for node in plan.get("nodes", []):
        src = node.get("scanTableSource")
        if src and json_dir:
            opts = src["table"].get("resolvedTable", {}).get("options", {})
            if opts.get("format") == "csv" and opts.get("path", "").startswith(json_dir):
                opts["format"] = "json"
        sink = node.get("dynamicTableSink")
        if not sink:
            continue
        ident = "%s%d" % (tag, len(ids))
        rt = sink["table"].setdefault("resolvedTable", {})
        rt["options"] = {"connector": "print", "print-identifier": ident}
        ids.append(ident)
        modes = node.get("inputChangelogMode") or []
        if "UPDATE_AFTER" in modes and "UPDATE_BEFORE" not in modes and node.get("inputUpsertKey"):
            upsert_keys[ident] = list(node["inputUpsertKey"])
    return json.dumps(plan, indent=2), ids, upsert_keys


def parse_rows(text, ids):
    """print-sink lines of `ids` in text -> {id: [(kind, fields text)]}."""
    out = {i: [] for i in ids}
    for line in text.split("\n"):
        m = PRINT_LINE.match(line.rstrip("\r"))
        if m and m.group(1) in out:
            out[m.group(1)].append((m.group(2), m.group(3)))
    return out


def fold(rows):
    """A changelog -> the final multiset of rows (sorted list)."""
    live = {}
    for kind, fields in rows:
        if kind in ("+I", "+U"):
            live[fields] = live.get(fields, 0) + 1
        elif live.get(fields, 0) > 0:
            live[fields] -= 1
        else:
            live[fields] = live.get(fields, 0) - 1     # a retraction of a row never added
    return sorted((f, n) for f, n in live.items() if n != 0)


def upsert_fold(rows, key):
    """An upsert stream (no -U) -> the final rows: the last +I/+U per key, a -D/-U removes it. None
    when a row does not split into fields where the key needs them."""
    live = {}
    for kind, fields in rows:
        parts = fields.split(", ")
        if max(key) >= len(parts):
            return None
        k = tuple(parts[i] for i in key)
        if kind in ("+I", "+U"):
            live[k] = fields
        else:
            live.pop(k, None)
    return sorted((f, 1) for f in live.values())


def compare(a, b, ids_a, ids_b, upsert_keys=None):
    """(level, detail): level 'changelog', 'final' or None (differ)."""
    if len(ids_a) != len(ids_b):
        return None, "%d sinks against %d" % (len(ids_a), len(ids_b))
    level = "changelog"
    for ia, ib in zip(ids_a, ids_b):
        ra, rb = a[ia], b[ib]
        if sorted(ra) == sorted(rb):
            continue
        if fold(ra) == fold(rb):
            level = "final"
            continue
        key = (upsert_keys or {}).get(ia)
        if key is not None and upsert_fold(ra, key) is not None and upsert_fold(ra, key) == upsert_fold(rb, key):
            level = "final (upsert key %s)" % key
            continue
        fa, fb = fold(ra), fold(rb)
        only_a = [f for f in fa if f not in fb][:2]
        only_b = [f for f in fb if f not in fa][:2]
        return None, "sink %d: %d rows against %d; first only in one: %s | %s" % (
            ids_a.index(ia), len(ra), len(rb), only_a, only_b)
    return level, "%d sinks, %d rows" % (len(ids_a), sum(len(a[i]) for i in ids_a))


# ------------------------------------------------------------------------------- case data
NUMERIC = re.compile(r"(?i)^(TINYINT|SMALLINT|INT|INTEGER|BIGINT|FLOAT|DOUBLE|REAL|DECIMAL|NUMERIC|DEC)\b")


def physical_columns(ddl):
    """[(name, type)] of a CREATE TABLE's physical columns (computed, metadata, watermark and
    constraint items left out)."""
    start = ddl.index("(")
    depth, items, cur = 0, [], []
    for ch in ddl[start + 1:]:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            items.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    items.append("".join(cur))
    cols = []
    for it in items:
        it = it.strip()
        m = re.match(r"(?is)^(`[^`]+`|\w+)\s+(.*)$", it)
        if not m or re.match(r"(?i)^(WATERMARK|PRIMARY|CONSTRAINT)\b", it):
            continue
        rest = m.group(2)
        if re.match(r"(?i)^AS\b", rest) or re.search(r"(?i)\bMETADATA\b", rest):
            continue
        cols.append((m.group(1).strip("`"), rest))
    return cols


def json_value(value, typ):
    if value is None:
        return None
    if re.match(r"(?i)^BOOLEAN", typ):
        return value.lower() == "true"
    if NUMERIC.match(typ):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def write_case_data(unit, work):
    """Writes the input rows of a conformance case into its sources' files: JSON lines for
    insert-only sources (whose 'csv' format the plans read as 'json', see retarget_plan),
    'debezium-json' for changelog sources (-U followed by +U as one update message). Returns
    None, or the first input value given as a SQL expression (`@sql:...`; nothing written)."""
    base = unit.name.split("/", 1)[1]
    path = None
    for d in (os.path.join(pc.SHARED_CONF, "cases"), pc.OWN_CONF):
        if os.path.exists(os.path.join(d, base + ".case")):
            path = os.path.join(d, base + ".case")
    if not path:
        return
    objs = pc.parse_case(path)[0]
    for o in objs:
        for r in o["rows"]:
            if "@sql:" in r:
                return re.search(r"@sql:[^,\"]*", r).group(0)
    data = os.path.join(work, "tmp", "case", base)
    os.makedirs(data, exist_ok=True)
    for o in objs:
        if o["sink"] or not o["ddl"]:
            continue
        rows = list(csv.reader(o["rows"]))
        cols = physical_columns(o["ddl"])
        mode = pc.kinds(o["mode"] or "I")
        with open(os.path.join(data, o["name"] + ".csv"), "w", encoding="utf-8", newline="") as f:
            if mode == {"I"}:     # read as 'json' (see retarget_plan): CSV has no NULL for numbers
                for r in rows:
                    f.write(json.dumps({c: json_value(None if v == "NULL" else v, t)
                                        for (c, t), v in zip(cols, r[1:])}) + "\n")
                continue
            pending = None
            for r in rows:
                kind = r[0]
                vals = {c: json_value(None if v == "NULL" else v, t)
                        for (c, t), v in zip(cols, r[1:])}
                if kind == "-U":
                    if pending is not None:
                        f.write(json.dumps({"before": pending, "after": None, "op": "d"}) + "\n")
                    pending = vals
                    continue
                if kind == "+U" and pending is not None:
                    msg = {"before": pending, "after": vals, "op": "u"}
                elif kind in ("+I", "+U"):
                    msg = {"before": None, "after": vals, "op": "c"}
                else:
                    msg = {"before": vals, "after": None, "op": "d"}
                if pending is not None and kind != "+U":
                    f.write(json.dumps({"before": pending, "after": None, "op": "d"}) + "\n")
                pending = None
                f.write(json.dumps(msg) + "\n")
            if pending is not None:
                f.write(json.dumps({"before": pending, "after": None, "op": "d"}) + "\n")


# ------------------------------------------------------------------------------- weir
def run_on_weir(weir, unit, target, plan_file, work):
    """Executes plan_file on weir after the unit's setups; (status, stdout or message)."""
    script = plan_file[:-5] + ".sql"
    with open(script, "w", encoding="utf-8") as f:
        for s in unit.prefix(target):
            f.write(s.flink + ";\n")
        f.write("EXECUTE PLAN '%s';\n" % plan_file)
    env = dict(os.environ, WEIR_EMBEDDED="1", WEIR_TEST_DATA=pc.DATA)
    try:
        p = subprocess.run([weir, "sql-client", "-f", script], cwd=unit.cwd, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=JOB_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "error", "weir did not finish within %d s (an unbounded source?)" % JOB_TIMEOUT
    except OSError as e:
        return "error", "cannot run weir: %s" % e
    out = p.stdout.decode("utf-8", "replace")
    tail = out.split("EXECUTE PLAN '%s';" % plan_file, 1)
    body = tail[1] if len(tail) == 2 else out
    err = re.search(r"^\[ERROR\].*(?:\n(?!Flink SQL>).*)*", body, re.M)
    if err:
        return "error", plans.one_line(err.group(0), 400)
    if p.returncode != 0:
        return "error", "weir exited %d: %s" % (p.returncode, plans.one_line(p.stderr.decode(), 300))
    return "ok", body


# ------------------------------------------------------------------------------- Flink
def job_cause(ex):
    """The innermost cause of a failed job's exception (REST /jobs/:jid/exceptions)."""
    trace = ex.get("root-exception") or ""
    entries = (ex.get("exceptionHistory") or {}).get("entries") or []
    if entries:
        trace = entries[0].get("stacktrace") or trace
    causes = re.findall(r"^Caused by: (.*)$", trace, re.M)
    return plans.one_line(causes[-1] if causes else trace.split("\n")[0], 400)


class FlinkSide:
    def __init__(self, run):
        self.run = run
        self.gw = run.gateway()

    def out_text(self):
        texts = []
        for f in sorted(glob.glob(os.path.join(self.run.info["log"], "*taskexecutor*.out"))):
            with open(f, encoding="utf-8", errors="replace") as fh:
                texts.append(fh.read())
        return "\n".join(texts)

    def cancel(self, jid):
        req = urllib.request.Request("http://127.0.0.1:%d/jobs/%s?mode=cancel" % (
            self.run.info["rest_port"], jid), method="PATCH")
        try:
            urllib.request.urlopen(req, timeout=30).read()
        except (urllib.error.URLError, OSError):
            pass

    def execute(self, unit, target, plan_file):
        """execute_once, again while Flink has no free slot for the job (other jobs of this run
        hold them)."""
        for attempt in range(5):
            r = self.execute_once(unit, target, plan_file)
            if r[0] == "ok" or "acquire the minimum required resources" not in r[1]:
                return r
            time.sleep(2 + 3 * attempt)
        return r

    def execute_once(self, unit, target, plan_file):
        """Runs the setups and EXECUTE PLAN in a fresh session and waits for the job;
        (status, TaskManager output or message)."""
        sess = self.gw.open_session()
        try:
            for s in unit.prefix(target):
                self.gw.execute(sess, s.flink)
            r = self.gw.execute(sess, "EXECUTE PLAN '%s'" % plan_file, timeout=JOB_TIMEOUT)
        finally:
            self.gw.close_session(sess)
        if r[0] != "ok":
            return "error", plans.one_line(r[1], 400)
        jid = r[2][0][1][0] if r[2] and r[2][0][1] else None
        if not jid:
            return "error", "Flink returned no job id"
        deadline, state = time.time() + JOB_TIMEOUT, None
        while time.time() < deadline:
            st, j = self.run.rest("/jobs/%s" % jid)
            state = j.get("state") if st == 200 else None
            if state in ("FINISHED", "FAILED", "CANCELED"):
                break
            time.sleep(0.2)
        if state != "FINISHED":
            if state not in ("FAILED", "CANCELED"):
                self.cancel(jid)
                return "error", "Flink's job did not finish within %d s (state %s)" % (JOB_TIMEOUT, state)
            st, ex = self.run.rest("/jobs/%s/exceptions" % jid)
            return "error", "Flink's job %s: %s" % (state, job_cause(ex or {}))
        time.sleep(0.3)     # the print sink's last lines reach the .out file
        return "ok", self.out_text()


# ------------------------------------------------------------------------------- the run
def load_xfail():
    out = {}
    if os.path.exists(XFAIL):
        for line in open(XFAIL, encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, why = line.partition(" ")
                out[name] = why.strip()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run-dir", required=True, help="the flinkctl.py run dir (started when needed)")
    ap.add_argument("--build", default=os.path.join(pc.ROOT, "build"))
    ap.add_argument("--only")
    ap.add_argument("--report")
    ap.add_argument("--no-xfail", action="store_true")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    weir = os.path.join(os.path.abspath(a.build), "weir")
    if not os.path.exists(weir):
        print("FAIL execute-plans: %s not found" % weir)
        return 1
    run = flinkctl.FlinkRun(a.run_dir)
    if not run.start():
        print("SKIP execute-plans: Flink could not be started (see %s)" % a.run_dir)
        return 77
    work = tempfile.mkdtemp(prefix="weir-execute-plans-")
    try:
        return execute(a, weir, FlinkSide(run), work)
    finally:
        if a.keep:
            print("execute-plans: kept %s" % work, file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def execute(a, weir, flink, work):
    xfail = {} if a.no_xfail else load_xfail()
    items, skipped = plans.work_items(work, a.only)
    lines, counts = [], {"pass": 0, "fail": 0, "skip": 0}

    def emit(status, name, text):
        key = {"PASS": "pass", "FAIL": "fail"}.get(status, "skip")
        if status == "FAIL" and name in xfail:
            status, text, key = "XFAIL", xfail[name], "skip"
        elif status == "PASS" and name in xfail:
            if VARIES in xfail[name]:
                status, text = "XPASS", "agreed this run (listed: its result varies between runs)"
            else:
                status, text = "XPASS", "passes now; remove it from execute_plans.xfail"
        counts[key] += 1
        line = "%s %s: %s" % (status, name, text)
        lines.append(line)
        print(line, flush=True)

    for u, t, nn, reason in skipped:
        if re.match(r"(?is)^(INSERT|STATEMENT\s+SET)\b", t.flink) and not t.batch:
            for d in ("weir->flink", "flink->weir"):
                emit("SKIP", "%s/%s.%s" % (u.name, nn, d), reason)
    by_unit = {}
    for u, t, nn, probes in items:
        if any(p[0] == "compiled" for p in probes):
            by_unit.setdefault(u.name, (u, []))[1].append((t, nn))
    seq, token = 0, int(time.time() * 1000) % 10000000
    tasks = []      # (full name, side, engine names, path, ids) or (full name, FAIL/SKIP, message)
    for name, (unit, targets) in by_unit.items():
        fu = FlinkText(unit)
        if name.startswith("case/"):
            sql_values = write_case_data(unit, work)
            if sql_values:
                for t, nn in targets:
                    for d in ("weir->flink", "flink->weir"):
                        emit("SKIP", "%s/%s.%s" % (name, nn, d), "the case gives inputs as SQL expressions "
                             "(%s), which this harness does not write into files" % sql_values)
                continue
        plans.prepare_unit_dirs(fu, work)
        ft = {id(c.orig): c for c in fu.stmts}
        entries = []
        for t, nn in targets:
            servers = external_connectors(unit, t)
            if servers:
                for d in ("weir->flink", "flink->weir"):
                    emit("SKIP", "%s/%s.%s" % (name, nn, d), "uses the %s connector: it needs a server and "
                         "Flink's connector jar (tests/kafka and tests/jdbc compare those with Flink)" % servers)
                continue
            tr = reads_translated(unit, t)
            if tr:
                for d in ("weir->flink", "flink->weir"):
                    emit("SKIP", "%s/%s.%s" % (name, nn, d),
                         "reads %s, data in weir's changelog-csv format (Flink has no reader for it)"
                         % ", ".join(tr))
                continue
            entries.append((ft[id(t)], nn, [p for p in pc.probes(ft[id(t)]) if p[0] == "compiled"]))
        if not entries:
            continue
        compiled = plans.run_weir_unit(weir, fu, entries, work)
        for t, nn, _ in entries:
            seq += 1
            _, stored = plans.read_store(unit, nn)
            results = {"w": dict(compiled.get(nn, [])).get("compiled", ("error", "weir did not compile it")),
                       "f": (stored or {}).get("compiled")}
            both = all(r is not None and r[0] != "ok" for r in results.values())
            for side, d in (("w", "weir->flink"), ("f", "flink->weir")):
                full = "%s/%s.%s" % (name, nn, d)
                res = results[side]
                if both:
                    tasks.append((full, "SKIP", "both engines reject it (plans.py compares the errors)"))
                    continue
                if res is None:
                    tasks.append((full, "SKIP", "Flink's compiled plan of it was not recorded (plans.py record)"))
                    continue
                if res[0] != "ok" and side == "f":
                    tasks.append((full, "SKIP", "Flink rejects the statement (plans.py compares the "
                                  "engines' errors): %s" % plans.one_line(res[1], 200)))
                    continue
                if res[0] != "ok":
                    tasks.append((full, "FAIL", "weir cannot compile it: %s" % plans.one_line(res[1], 300)))
                    continue
                text = res[1].replace("$DATA", pc.DATA).replace("$WORK", work)
                json_dir = os.path.join(work, "tmp", "case") if name.startswith("case/") else None
                plan_text, ids, upsert_keys = retarget_plan(text, "EP%d_%d%s" % (token, seq, side), json_dir)
                path = os.path.join(work, "exec", name, "%s-%s.json" % (nn, side))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(plan_text)
                tasks.append((full, side, (fu, t), path, ids, upsert_keys))

    def run_task(task):
        full, side, (fu, t), path, ids, upsert_keys = task
        on_weir = run_on_weir(weir, fu, t, path, os.path.dirname(path))
        on_flink = flink.execute(fu, t, path)
        bad = [(e, m) for e, (s, m) in (("weir", on_weir), ("Flink", on_flink)) if s != "ok"]
        if bad:
            return "FAIL", "; ".join("%s: %s" % (e, m) for e, m in bad)
        rw, rf = parse_rows(on_weir[1], ids), parse_rows(on_flink[1], ids)
        mine, other = (rw, rf) if side == "w" else (rf, rw)
        level, detail = compare(mine, other, ids, ids, upsert_keys)
        if level is None:
            return "FAIL", "%s's plan gives other results on %s: %s" % (
                "weir" if side == "w" else "Flink", "Flink" if side == "w" else "weir", detail)
        return "PASS", "same %s (%s)" % (level, detail)

    jobs = int(os.environ.get("JOBS", "4"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [(t, pool.submit(run_task, t) if len(t) == 6 else None) for t in tasks]
        for t, fut in futures:
            if fut is None:
                emit(t[1], t[0], t[2])
            else:
                status, text = fut.result()
                emit(status, t[0], text)
    summary = "execute-plans: %d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"])
    print(summary)
    if a.report:
        with open(a.report, "w", encoding="utf-8") as f:
            f.write("\n".join(lines + [summary]) + "\n")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
