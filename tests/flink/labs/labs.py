#!/usr/bin/env python3
"""labs.py — the seed labs (../shared/seeds 001: state and TTL, 004: reading EXPLAIN) done end to end
on real Apache Flink and on weir, and Flink's REST API against weir's, artifact by artifact and
field by field.

Usage: labs.py --weir BUILD/weir [--run-dir D] [--out DIR] [--only lab001,lab004,rest] [--quiet]
  --run-dir  the Flink cluster of tests/flink/flinkctl.py to use (started when none runs there, and
             then stopped at the end); tests/run.sh passes the one of its section (f).
  --out      where both engines' lab folders are written (default: a temporary folder, removed
             unless --keep): <out>/flink/<lab>/ and <out>/weir/<lab>/ hold the scripts as run
             (with the paths filled in) and every artifact, exactly as a person doing the lab keeps
             them.
Output: one line per artifact — "PASS <lab>/<artifact> (N fields)", "XFAIL <lab>/<artifact>: K
expected differences (reasons)", "FAIL <lab>/<artifact>: K fields differ" followed by the fields
("  <field>: flink <value> | weir <value>") — then
    flink-labs: A/T artifacts identical, F/N fields identical (X expected differences, U unexpected)
and exit status 1 when a difference is not listed in EXPECTED_DIFFERENCES (77 when Flink cannot
be installed here).

The labs, with our own data and names (tests/flink/labs/data; the seed texts use other tables):
  lab001  rides / tips / riders CSV tables and two blackhole sinks (ddl.sql). COMPILE PLAN files
          for a filter (calc), an unbounded GROUP BY without and with 'table.exec.state.ttl'
          (agg, agg-ttl), a STATE_TTL-hinted join (join-hint) and a hinted three-way cascade
          (cascade); window.sql writes a TUMBLE window's plan and streams the window results
          (window.out, the client's transcript); rocks.sql runs a per-rider aggregate on RocksDB
          under a pipeline.name (rocks.out), the job is found by name in /jobs/overview, and
          /jobs/<jid> and /jobs/<jid>/checkpoints/config are saved (rocks-job.json,
          rocks-ckpt.json); report.json holds the seed's numbers, read from those files as the seed
          tells (grader.json: the same numbers recomputed from the CSVs, and whether each engine's
          files agree with them).
  lab004  plays CSV table: EXPLAIN's three sections (explain.txt), the details (details.txt:
          ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE; json-plan.txt: JSON_EXECUTION_PLAN of the
          INSERT), the INSERT run as a job with operator chaining on and off (chain-on-job.json,
          chain-off-job.json: /jobs/<jid>), mini-batch two-phase aggregation (minibatch.txt), the
          COUNT DISTINCT split (distinct.txt), and answers.json (what a person reads off these:
          sections, the Exchange and what is above and below it, the pushed-down filter, the
          advice, the non-forward edges of the JSON plan, the vertex counts with chaining on and
          off, Local/Global and PARTIAL/FINAL, the bucket count).
  rest    Flink's REST endpoints that weir serves, for the same jobs on both: the finished RocksDB
          job of lab001 and a running checkpointed job (rest/job.sql), then that job cancelled
          (rest-*.json); compared by key set, value types and values (labcompare.py rule N5).

How each engine is driven: weir through its own cluster daemon (`weir cluster start` with a private
configuration on a free loopback port, stopped at the end) and `weir sql-client -i ddl.sql -f
<script>.sql` run in the lab folder, as a person would; Flink through the cluster of flinkctl.py.
Flink's scripts whose artifact is the client's transcript (window.sql, rocks.sql) run through
Flink's own bin/sql-client.sh; the others run statement by statement through Flink's SQL gateway,
one session per script with ddl.sql first (what `sql-client.sh -i ddl.sql -f x.sql` does), because
each start of Flink's client costs ~20 s of JVM start-up here; the plan files and EXPLAIN texts are
the planner's, the same through either path.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
FLINK_DIR = os.path.dirname(HERE)
sys.path.insert(0, FLINK_DIR)
sys.path.insert(0, HERE)
import flinkctl             # noqa: E402
import labcompare as lc     # noqa: E402
import plans as plans_tool  # noqa: E402  (parse_transcript: weir's EXPLAIN results)

DATA = os.path.join(HERE, "data")
EXPECTED = os.path.join(HERE, "EXPECTED_DIFFERENCES")
TERMINAL = {"FINISHED", "CANCELED", "FAILED"}
TIMES = []          # (engine, step, seconds) for --times


def timed(eng, step, fn, *args):
    t = time.time()
    try:
        return fn(*args)
    finally:
        TIMES.append((eng.name, step, time.time() - t))


# ============================================================================== engines
class Weir:
    name = "weir"

    def __init__(self, weir, work):
        self.weir = os.path.abspath(weir)
        self.dir = os.path.join(work, "weir-cluster")
        shutil.rmtree(self.dir, ignore_errors=True)     # no log of an earlier run
        for d in ("conf", "log"):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        with open(os.path.join(self.dir, "conf", "config.yaml"), "w") as f:
            # the same cluster settings as flinkctl.py gives Flink's cluster
            f.write("rest:\n  address: 127.0.0.1\n  bind-address: 127.0.0.1\n  port: 0\n"
                    "sql-gateway.endpoint.rest.port: 0\n"
                    "parallelism.default: 1\ntaskmanager.numberOfTaskSlots: 4\n")
        self.env = dict(os.environ, WEIR_CONF_DIR=os.path.join(self.dir, "conf"),
                        WEIR_LOG_DIR=os.path.join(self.dir, "log"))
        self.env.pop("WEIR_EMBEDDED", None)
        p = subprocess.run([self.weir, "cluster", "start"], env=self.env, capture_output=True,
                           stdin=subprocess.DEVNULL, timeout=60)
        if p.returncode != 0:
            raise RuntimeError("weir's cluster did not start: %s" % p.stdout.decode() + p.stderr.decode())
        with open(os.path.join(self.dir, "log", "weir-cluster.rest")) as f:
            host, port = f.read().split()[:2]
        self.base = "http://%s:%s" % (host, port)

    def stop(self):
        pidf = os.path.join(self.dir, "log", "weir-cluster.pid")
        pid = open(pidf).read().strip() if os.path.exists(pidf) else ""
        subprocess.run([self.weir, "cluster", "stop"], env=self.env, capture_output=True,
                       stdin=subprocess.DEVNULL, timeout=60)
        if pid.isdigit():
            try:
                os.kill(int(pid), 0)
                os.kill(int(pid), 9)
            except OSError:
                pass

    def log_problems(self):
        logf = os.path.join(self.dir, "log", "weir-cluster.log")
        if not os.path.exists(logf):
            return ""
        text = open(logf, encoding="utf-8", errors="replace").read()
        m = re.search(r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:", text)
        return text[m.start():m.start() + 2000] if m else ""

    def client(self, cwd, init, script, timeout=180):
        args = [self.weir, "sql-client"] + (["-i", init] if init else []) + ["-f", script]
        try:
            p = subprocess.run(args, cwd=cwd, env=self.env, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, "", "timed out after %d s" % timeout
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def statements(self, cwd, init, script):
        """[(statement, status, text, job id or None)] of the script's statements that ran."""
        rc, out, err = self.client(cwd, init, script)
        stmts = flinkctl.split_statements(open(os.path.join(cwd, script), encoding="utf-8").read())
        got = plans_tool.parse_transcript(out, stmts)
        res = []
        for s, (st, text) in zip(stmts, got):
            m = re.search(r"^Job ID: ([0-9a-f]{32})$", text, re.M)
            res.append((s, st, text, m.group(1) if m else None))
        if len(res) < len(stmts) and not (res and res[-1][1] == "error"):
            res.append((stmts[len(res)], "error", "weir printed no result (exit %d): %s" % (rc, err[-500:]), None))
        return res

    def rest(self, path, method="GET"):
        req = urllib.request.Request(self.base + path, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read())
            except ValueError:
                return e.code, None


class Flink:
    name = "flink"

    def __init__(self, run):
        self.run = run

    def client(self, cwd, init, script, timeout=300):
        return self.run.sql_client(script, init, cwd=cwd, timeout=timeout)

    def statements(self, cwd, init, script):
        gw = self.run.gateway()
        sess = gw.open_session()
        res = []
        try:
            for s in flinkctl.split_statements(open(os.path.join(cwd, init), encoding="utf-8").read()):
                r = gw.execute(sess, s)
                if r[0] != "ok":
                    return [(s, "error", "init: " + r[1], None)]
            for s in flinkctl.split_statements(open(os.path.join(cwd, script), encoding="utf-8").read()):
                r = gw.execute(sess, s)
                if r[0] != "ok":
                    res.append((s, "error", r[1], None))
                    break
                cols, rows = r[1], r[2]
                cell = rows[0][1][0] if rows and rows[0][1] else ""
                jid = cell if cols and cols[0][0] == "job id" else None
                res.append((s, "ok", cell if cols and cols[0][0] == "result" else "", jid))
        finally:
            gw.close_session(sess)
        return res

    def rest(self, path, method="GET"):
        if method == "GET":
            return self.run.rest(path)
        url = "http://127.0.0.1:%d%s" % (self.run.info["rest_port"], path)
        req = urllib.request.Request(url, method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read())
            except ValueError:
                return e.code, None


# ============================================================================== helpers
def prepare(lab, folder):
    """Copies the lab's scripts into folder with $DATA and $LAB filled in; returns folder."""
    os.makedirs(folder, exist_ok=True)
    for name in sorted(os.listdir(os.path.join(HERE, lab))):
        if name.endswith(".sql"):
            text = open(os.path.join(HERE, lab, name), encoding="utf-8").read()
            text = text.replace("$DATA", DATA).replace("$LAB", folder)
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
    return folder


def save(folder, name, content):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write(content if isinstance(content, str) else
                json.dumps(content, indent=2, ensure_ascii=False) + "\n")


def wait_job(eng, jid, states=TERMINAL, timeout=90):
    deadline = time.time() + timeout
    doc = None
    while time.time() < deadline:
        st, doc = eng.rest("/jobs/%s" % jid)
        if st == 200 and doc.get("state") in states:
            return doc
        time.sleep(0.2)
    return doc


def job_by_name(eng, name):
    st, doc = eng.rest("/jobs/overview")
    jobs = [j for j in (doc or {}).get("jobs", []) if j.get("name") == name]
    jobs.sort(key=lambda j: j.get("start-time", 0))
    return jobs[-1]["jid"] if jobs else None


def explain_text(results, index=0):
    """The text of the index-th EXPLAIN among a script's statement results."""
    ex = [r for r in results if re.match(r"(?is)^\s*(--[^\n]*\n\s*)*EXPLAIN\b", r[0])]
    if index < len(ex):
        return ex[index][2] if ex[index][1] == "ok" else "[ERROR] " + ex[index][2]
    return "[ERROR] the EXPLAIN did not run: " + "; ".join(r[2][:300] for r in results if r[1] == "error")


def plan_states(plan):
    """[(node type, [(state name, ttl)])] of a compiled plan, in node order (the seed's jq
    '.nodes[] | {id, type, state}')."""
    out = []
    for n in plan.get("nodes", []):
        out.append((n.get("type"), [(s.get("name"), s.get("ttl")) for s in (n.get("state") or [])]))
    return out


def load_json(folder, name):
    try:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def result_rows(transcript):
    """Rows (op, cells) of the last result table of a tableau transcript."""
    rows, cols, in_table = [], None, False
    lines = transcript.split("\n")
    for i, ln in enumerate(lines):
        if ln.startswith("| op ") or (ln.startswith("|") and i > 0 and lines[i - 1].startswith("+-")
                                      and i + 1 < len(lines) and lines[i + 1].startswith("+-")):
            cols = [c.strip() for c in ln.strip("|").split("|")]
            rows, in_table = [], True
            continue
        if in_table and ln.startswith("| "):
            rows.append([c.strip() for c in ln.strip("|").split("|")])
        elif in_table and ln.startswith("+-") and rows:
            in_table = False
    return cols, rows


def fold(cols, rows):
    """A changelog folded into its final rows (multiset of tuples without the op column)."""
    final = []
    for r in rows:
        op, vals = r[0], tuple(r[1:])
        if op in ("+I", "+U"):
            final.append(vals)
        elif op in ("-U", "-D") and vals in final:
            final.remove(vals)
    return final


# ============================================================================== lab 001
def lab001(eng, folder):
    prepare("lab001", folder)
    log = {}

    def plans():
        for s in ("calc", "agg", "agg-ttl", "join-hint", "cascade"):
            log[s] = timed(eng, "lab001 " + s, eng.statements, folder, "ddl.sql", s + ".sql")

    def window():
        rc, out, err = timed(eng, "lab001 window client", eng.client, folder, "ddl.sql", "window.sql")
        save(folder, "window.out", out)

    def rocks():
        rc, out, err = timed(eng, "lab001 rocks client", eng.client, folder, "ddl.sql", "rocks.sql")
        save(folder, "rocks.out", out)
        jid = job_by_name(eng, "lab-rides-rocks")
        if not jid:
            return
        wait_job(eng, jid)
        st, doc = eng.rest("/jobs/%s" % jid)
        save(folder, "rocks-job.json", doc)
        st, doc = eng.rest("/jobs/%s/checkpoints/config" % jid)
        save(folder, "rocks-ckpt.json", doc)
        log["rocks-jid"] = jid

    with concurrent.futures.ThreadPoolExecutor(3) as ex:
        for f in [ex.submit(plans), ex.submit(window), ex.submit(rocks)]:
            f.result()
    for s, res in log.items():
        if s != "rocks-jid":
            for stmt, st, text, _ in res:
                if st == "error":
                    save(folder, s + ".error", text)
    save(folder, "report.json", report001(folder))
    return log.get("rocks-jid")


def report001(folder):
    """The seed's report.json, read off the saved files as the seed says (jq over the plans)."""
    def ttl(plan, node_prefix, state, which=0):
        if not plan:
            return None
        hits = [s for t, s in plan_states(plan) if t and t.startswith(node_prefix)]
        if which >= len(hits):
            return None
        return dict(hits[which]).get(state)
    agg = load_json(folder, "agg-plan.json")
    join = load_json(folder, "join-hint-plan.json")
    cascade = load_json(folder, "cascade-plan.json")
    window = load_json(folder, "window-plan.json")
    ckpt = load_json(folder, "rocks-ckpt.json") or {}
    rocks = open(os.path.join(folder, "rocks.out"), encoding="utf-8").read() \
        if os.path.exists(os.path.join(folder, "rocks.out")) else ""
    cols, rows = result_rows(rocks)
    return {
        "default_ttl": ttl(agg, "stream-exec-group-aggregate", "groupAggregateState"),
        "join_left_ttl": ttl(join, "stream-exec-join", "leftState"),
        "join_right_ttl": ttl(join, "stream-exec-join", "rightState"),
        "cascade_second_left_ttl": ttl(cascade, "stream-exec-join", "leftState", 1),
        "window_state_entries": sum(len(s) for _, s in plan_states(window)) if window else None,
        "state_backend": ckpt.get("state_backend"),
        "rocks_groups": len(fold(cols, rows)) if rows else None,
    }


def grader001():
    """What the seed's grader recomputes from the CSVs: the window results and the per-rider
    totals (compared with each engine's window.out / rocks.out)."""
    from decimal import Decimal
    rides = [ln.strip().split(",") for ln in open(os.path.join(DATA, "rides.csv")) if ln.strip()]
    win, per = {}, {}
    for _, rider, fare, ts in rides:
        start = int(ts) // 900 * 900
        w = win.setdefault(start, [0, Decimal("0")])
        w[0] += 1
        w[1] += Decimal(fare)
        p = per.setdefault(rider, [0, Decimal("0")])
        p[0] += 1
        p[1] += Decimal(fare)
    fmt = lambda t: time.strftime("%Y-%m-%d %H:%M:%S.000", time.localtime(t))   # noqa: E731
    windows = sorted([fmt(s), fmt(s + 900), str(c), str(a)] for s, (c, a) in win.items())
    riders = sorted([r, str(c), str(a)] for r, (c, a) in per.items())
    return windows, riders


# ============================================================================== lab 004
def lab004(eng, folder):
    prepare("lab004", folder)
    out = {}

    def explains():
        for s in ("explain", "details", "minibatch", "distinct"):
            out[s] = timed(eng, "lab004 " + s, eng.statements, folder, "ddl.sql", s + ".sql")

    def job(name, script):
        res = timed(eng, "lab004 " + name, eng.statements, folder, "ddl.sql", script)
        jid = next((r[3] for r in res if r[3]), None)
        if jid:
            timed(eng, "lab004 %s wait" % name, wait_job, eng, jid)
            st, doc = eng.rest("/jobs/%s" % jid)
            save(folder, name + "-job.json", doc)
        else:
            save(folder, name + ".error", "\n".join(r[2] for r in res if r[1] == "error") or "no job id")

    with concurrent.futures.ThreadPoolExecutor(3) as ex:
        fs = [ex.submit(explains), ex.submit(job, "chain-on", "chain-on.sql"),
              ex.submit(job, "chain-off", "chain-off.sql")]
        for f in fs:
            f.result()
    save(folder, "explain.txt", explain_text(out["explain"]))
    save(folder, "details.txt", explain_text(out["details"], 0))
    save(folder, "json-plan.txt", explain_text(out["details"], 1))
    save(folder, "minibatch.txt", explain_text(out["minibatch"]))
    save(folder, "distinct.txt", explain_text(out["distinct"]))
    save(folder, "answers.json", answers004(folder))


def section(text, title):
    for t, body in lc.pn.sections(text):
        if t == title:
            return body.split("\n")
    return []


def op_name(line):
    m = re.match(r"^[ |+-]*([A-Za-z]+)\(", line)
    return m.group(1) if m else None


def rebase_list(names):
    """Exec-node ids [N] replaced by their rank among the list's ids (see exec_ranks)."""
    if not names:
        return names
    ranks = exec_ranks(names)
    return [rebase_exec_ids(n, ranks) for n in names]


def answers004(folder):
    """What the lab asks a person to read off the plans, as a JSON answer sheet."""
    rd = lambda n: open(os.path.join(folder, n), encoding="utf-8").read()   # noqa: E731
    explain, details, jplan = rd("explain.txt"), rd("details.txt"), rd("json-plan.txt")
    mini, dist = rd("minibatch.txt"), rd("distinct.txt")
    phys = section(explain, "Optimized Physical Plan")
    ex = next((i for i, ln in enumerate(phys) if op_name(ln) == "Exchange"), None)
    scan = next((ln for ln in phys if op_name(ln) == "TableSourceScan"), "")
    fil = re.search(r"filter=\[(.*?)\]\]?, (?:project|metadata)", scan)
    adv_body = section(details, "Optimized Physical Plan With Advice")
    try:
        jdoc = json.loads("\n".join(section(jplan, "Physical Execution Plan")))
        edges = [p.get("ship_strategy") for n in jdoc.get("nodes", []) for p in n.get("predecessors", [])]
        nodes = [n.get("type") for n in jdoc.get("nodes", [])]
    except ValueError:
        edges, nodes = None, None

    def vertices(name):
        doc = load_json(folder, name) or {}
        vs = doc.get("vertices")
        return [v.get("name") for v in vs] if isinstance(vs, list) else None
    von, voff = vertices("chain-on-job.json"), vertices("chain-off-job.json")
    nodes, von = rebase_list(nodes), rebase_list(von)
    mphys = section(mini, "Optimized Physical Plan")
    dphys = section(dist, "Optimized Physical Plan")
    buckets = re.search(r"MOD\(HASH_CODE\(\w+\), (\d+)\)", "\n".join(dphys))
    return {
        "sections": [t for t, _ in lc.pn.sections(explain)],
        "exchange": phys[ex].strip(" +-|") if ex is not None else None,
        "above_exchange": op_name(phys[ex - 1]) if ex else None,
        "below_exchange": op_name(phys[ex + 1]) if ex is not None and ex + 1 < len(phys) else None,
        "source_filter": fil.group(1) if fil else None,
        "changelog_modes": re.findall(r"^[ |+-]*(\w+)\(.*changelogMode=\[([A-Z,]+)\]", "\n".join(adv_body), re.M),
        "advice": [ln for ln in adv_body if re.match(r"^advice\[\d+\]:", ln)],
        "root_estimate": (re.search(r": (rowcount = .*)$", adv_body[0]).group(1)
                          if adv_body and ": rowcount" in adv_body[0] else None),
        "json_plan_nodes": nodes,
        "json_plan_ship_strategies": edges,
        "non_forward_edges": sum(1 for e in edges if e != "FORWARD") if edges is not None else None,
        "vertices_chained": len(von) if von is not None else None,
        "vertices_unchained": len(voff) if voff is not None else None,
        "vertex_names_chained": von,
        "operators_chained": sum(len(v.split(" -> ")) for v in von) if von else None,
        "minibatch_operators": [op_name(ln) for ln in mphys if op_name(ln)],
        "two_phase": any(op_name(ln) == "LocalGroupAggregate" for ln in mphys)
        and any(op_name(ln) == "GlobalGroupAggregate" for ln in mphys),
        "distinct_partial_final": sorted(set(re.findall(r"partialFinalType=\[(\w+)\]", "\n".join(dphys)))),
        "distinct_buckets": int(buckets.group(1)) if buckets else None,
    }


# ============================================================================== REST shapes
REST_JOB_ENDPOINTS = ["", "/status", "/plan", "/config", "/exceptions", "/accumulators",
                      "/checkpoints", "/checkpoints/config"]
REST_CLUSTER_ENDPOINTS = ["/config", "/overview", "/jobmanager/config", "/taskmanagers"]


def rest_grab(eng, docs, name, path, method="GET"):
    st, doc = eng.rest(path, method)
    docs[name] = {"status": st, "body": doc}


def rest_running(eng, folder):
    """The running checkpointed job of rest/job.sql: its endpoints while it runs, then cancelled."""
    prepare("rest", folder)
    docs = {}
    res = eng.statements(folder, "ddl.sql", "job.sql")
    jid = next((r[3] for r in res if r[3]), None)
    if not jid:
        save(folder, "job.error", "\n".join(r[2] for r in res if r[1] == "error") or "no job id")
        return
    wait_job(eng, jid, {"RUNNING"} | TERMINAL)
    deadline = time.time() + 30
    while time.time() < deadline:      # the first completed checkpoint
        st, ck = eng.rest("/jobs/%s/checkpoints" % jid)
        if st == 200 and ((ck or {}).get("counts") or {}).get("completed", 0) >= 1:
            break
        time.sleep(0.3)
    for p in REST_JOB_ENDPOINTS + ["/execution-result"]:
        rest_grab(eng, docs, "running-job" + p.replace("/", "-"), "/jobs/%s%s" % (jid, p))
    st, doc = eng.rest("/jobs/%s" % jid)
    for i, v in enumerate((doc or {}).get("vertices", [])):
        rest_grab(eng, docs, "running-vertex%d" % i, "/jobs/%s/vertices/%s" % (jid, v["id"]))
    rest_grab(eng, docs, "cancel", "/jobs/%s?mode=cancel" % jid, "PATCH")
    wait_job(eng, jid)
    rest_grab(eng, docs, "cancelled-job", "/jobs/%s" % jid)
    rest_grab(eng, docs, "cancelled-job-execution-result", "/jobs/%s/execution-result" % jid)
    for name, d in docs.items():
        save(folder, "rest-%s.json" % name, d)


def rest_finished(eng, folder, rocks_jid):
    """The finished RocksDB job of lab001, and the cluster endpoints once no job runs."""
    os.makedirs(folder, exist_ok=True)
    docs = {}
    if rocks_jid:
        for p in REST_JOB_ENDPOINTS + ["/execution-result"]:
            rest_grab(eng, docs, "finished-job" + p.replace("/", "-"), "/jobs/%s%s" % (rocks_jid, p))
        st, doc = eng.rest("/jobs/overview")
        docs["finished-jobs-overview"] = {"status": st, "body": {"jobs": [
            j for j in (doc or {}).get("jobs", []) if j.get("jid") == rocks_jid]}}
        st, doc = eng.rest("/jobs")
        docs["finished-jobs"] = {"status": st, "body": {"jobs": [
            j for j in (doc or {}).get("jobs", []) if j.get("id") == rocks_jid]}}
        st, doc = eng.rest("/jobs/%s" % rocks_jid)
        for i, v in enumerate((doc or {}).get("vertices", [])):
            rest_grab(eng, docs, "finished-vertex%d" % i, "/jobs/%s/vertices/%s" % (rocks_jid, v["id"]))
            rest_grab(eng, docs, "finished-vertex%d-watermarks" % i,
                      "/jobs/%s/vertices/%s/watermarks" % (rocks_jid, v["id"]))
    for p in REST_CLUSTER_ENDPOINTS:
        rest_grab(eng, docs, "cluster" + p.replace("/", "-"), p)
    st, tms = eng.rest("/taskmanagers")
    tm = ((tms or {}).get("taskmanagers") or [{}])[0].get("id")
    if tm:
        rest_grab(eng, docs, "cluster-taskmanager", "/taskmanagers/%s" % tm)
    for name, d in docs.items():
        save(folder, "rest-%s.json" % name, d)


# ============================================================================== comparison
def compare(out, expected, quiet=False):
    """Compares <out>/flink/* with <out>/weir/*; prints the lines; returns (unexpected, figures)."""
    fl, we = os.path.join(out, "flink"), os.path.join(out, "weir")
    arts = set()
    for lab in ("lab001", "lab004", "rest"):
        for side in (fl, we):
            d = os.path.join(side, lab)
            if os.path.isdir(d):
                arts |= {(lab, n) for n in os.listdir(d)
                         if not n.endswith(".sql") and (n.endswith((".json", ".out", ".txt", ".error")))}
    totals = dict(artifacts=0, identical=0, fields=0, same=0, expected=0, unexpected=0)
    lines = []
    for lab, name in sorted(arts):
        fa, wa = os.path.join(fl, lab, name), os.path.join(we, lab, name)
        art = "%s/%s" % (lab, name)
        fields, diffs = compare_artifact(lab, name, fa, wa, fl, we)
        totals["artifacts"] += 1
        totals["fields"] += fields
        exp, unexp = [], []
        for d in diffs:
            why = expected.reason(art, d[0])
            (exp if why else unexp).append((d, why))
        totals["same"] += fields - len(diffs)
        totals["expected"] += len(exp)
        totals["unexpected"] += len(unexp)
        if not diffs:
            totals["identical"] += 1
            lines.append("PASS %s (%d fields)" % (art, fields))
        elif not unexp:
            reasons = sorted({w for _, w in exp})
            lines.append("XFAIL %s: %d of %d fields differ as expected (%s)" % (
                art, len(exp), fields, "; ".join(reasons)))
        else:
            lines.append("FAIL %s: %d of %d fields differ (%d not expected)" % (art, len(diffs), fields, len(unexp)))
            for (k, x, y), _ in unexp[:25]:
                lines.append("  %s: flink %s | weir %s" % (k, lc.short(x), lc.short(y)))
            if len(unexp) > 25:
                lines.append("  ... %d more" % (len(unexp) - 25))
    for ln in lines:
        if not quiet or not ln.startswith("PASS"):
            print(ln)
    for pat in expected.unused():
        print("UNUSED expected difference (remove it): %s" % pat)
    return totals


def compare_artifact(lab, name, fa, wa, fl, we):
    """(fields, [(field, flink value, weir value)]) for one artifact."""
    if not os.path.exists(fa) or not os.path.exists(wa):
        return 1, [("<file>", "present" if os.path.exists(fa) else MISSING_FILE,
                    "present" if os.path.exists(wa) else MISSING_FILE)]
    ta = open(fa, encoding="utf-8").read()
    tb = open(wa, encoding="utf-8").read()
    la, lb = os.path.join(fl, lab), os.path.join(we, lab)
    ta, tb = lc.paths(ta, la, DATA), lc.paths(tb, lb, DATA)
    if name.endswith(".error"):
        return 1, [("<error>", ta, tb)] if ta != tb else []
    if name.endswith("-plan.json") and not name.startswith("rest-"):
        return lc.diff_fields(lc.plan_fields(ta), lc.plan_fields(tb))
    if name.endswith(".out"):
        script_name = name[:-4] + ".sql"
        script = open(os.path.join(HERE, lab, script_name), encoding="utf-8").read()
        init = open(os.path.join(HERE, lab, "ddl.sql"), encoding="utf-8").read()
        # the scripts as run name $LAB / $DATA already (rule N1 turned the paths back)
        a, _ = lc.transcript_fields(ta, script, init, "", "", "flink")
        b, _ = lc.transcript_fields(tb, script, init, "", "", "weir")
        return lc.diff_fields(a, b)
    if name.endswith(".txt"):
        return lc.diff_explain(lc.explain_fields(ta), lc.explain_fields(tb))
    try:
        da, db = json.loads(ta), json.loads(tb)
    except ValueError as e:
        return 1, [("<json>", ta[:200], "unparsable: %s" % e)]
    if name in ("report.json", "answers.json", "grader.json"):
        return lc.diff_fields(lc.flat(da), lc.flat(db))
    # REST documents: rule N5 (ids of each engine mapped in the same order)
    return lc.diff_fields(rest_doc_fields(da, fl, name), rest_doc_fields(db, we, name))


MISSING_FILE = "<no such file>"


def job_index(side):
    """{jid: ({vertex id: "<vertex i>"}, {exec-node id: rank})} from every saved /jobs/<jid>
    document of one engine (rule N5: a vertex is named by its place in the job's vertex list, an
    exec-node id [N] by its rank among the ids the job's vertex names carry)."""
    idx = {}
    for lab in ("lab001", "lab004", "rest"):
        d = os.path.join(side, lab)
        if not os.path.isdir(d):
            continue
        for n in os.listdir(d):
            if not n.endswith(".json"):
                continue
            doc = load_json(d, n)
            if isinstance(doc, dict) and "body" in doc and "status" in doc:
                doc = doc["body"]
            if not isinstance(doc, dict) or not isinstance(doc.get("vertices"), list) or "jid" not in doc:
                continue
            vids = {v.get("id"): "<vertex %d>" % (i + 1) for i, v in enumerate(doc["vertices"])}
            idx[doc["jid"]] = (vids, exec_ranks(v.get("name", "") for v in doc["vertices"]))
    return idx


def exec_ranks(names):
    """{exec-node id: its rank among the ids in names}. Flink draws exec-node ids from one counter
    of the process, which concurrent sessions share: only their order within a job means anything."""
    nums = sorted({int(x) for n in names for x in re.findall(r"\[(\d+)\]", n or "")})
    return {n: i + 1 for i, n in enumerate(nums)}


def rebase_exec_ids(text, ranks):
    return re.sub(r"\[(\d+)\]", lambda m: "[%s]" % ranks.get(int(m.group(1)), "?" + m.group(1)), text) \
        if ranks else text


def rest_doc_fields(doc, side, name):
    idx = job_index(side)
    text = json.dumps(doc)
    jid = next((j for j in idx if j in text), None)
    if not jid:     # a vertex document names no job: it belongs to the job its file is named after
        owner = {"rest-running": "rest-running-job.json", "rest-cancel": "rest-cancelled-job.json",
                 "rest-finished": "rest-finished-job.json"}
        for prefix, f in owner.items():
            if name.startswith(prefix):
                d = (load_json(os.path.join(side, "rest"), f) or {}).get("body") or {}
                jid = d.get("jid") if d.get("jid") in idx else None
    ids, offset = {}, {}
    if jid:
        vids, offset = idx[jid]
        ids = dict(vids)
        ids[jid] = "<jid>"
    measured = set()
    if re.match(r"rest-(running|cancel)", name):
        # records counted while the job runs depend on when the counters were read
        measured = {"read-records", "write-records"}
    fields = lc.rest_fields(doc, ids=ids, measured=measured)
    return {k: rebase_exec_ids(v, offset) if isinstance(v, str) else v for k, v in fields.items()}


def grade(out):
    """The files read off the artifacts (report.json, answers.json; derived again here so that a
    --compare-only run uses the current rules), and grader.json per engine: the seed grader's
    recomputation from the CSVs against the files."""
    for side in ("flink", "weir"):
        folder = os.path.join(out, side, "lab004")
        if os.path.exists(os.path.join(folder, "explain.txt")):
            save(folder, "answers.json", answers004(folder))
    windows, riders = grader001()
    for side in ("flink", "weir"):
        folder = os.path.join(out, side, "lab001")
        if not os.path.isdir(folder):
            continue
        save(folder, "report.json", report001(folder))
        res = {}
        for name, want in (("window.out", windows), ("rocks.out", riders)):
            p = os.path.join(folder, name)
            text = open(p, encoding="utf-8").read() if os.path.exists(p) else ""
            cols, rows = result_rows(text)
            got = sorted(list(r) for r in fold(cols, rows)) if rows else []
            res[name] = "matches the CSVs" if got == want else "differs from the CSVs"
        rep = load_json(folder, "report.json") or {}
        res["report.rocks_groups"] = "matches" if rep.get("rocks_groups") == len(riders) else \
            "differs (%s, CSVs %d)" % (rep.get("rocks_groups"), len(riders))
        save(folder, "grader.json", res)


# ============================================================================== main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weir", required=True)
    ap.add_argument("--run-dir", default="/tmp/flink-labs")
    ap.add_argument("--out")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--only", default="lab001,lab004,rest")
    ap.add_argument("--compare-only", action="store_true", help="compare an existing --out")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--times", action="store_true", help="print how long each step took")
    a = ap.parse_args()
    t0 = time.time()
    sanitizer_failed = []
    out = os.path.abspath(a.out) if a.out else tempfile.mkdtemp(prefix="weir-labs-")
    only = set(a.only.split(","))
    if not a.compare_only:
        run = flinkctl.FlinkRun(a.run_dir)
        started = False
        if not run.running():
            if not run.start():
                print("flink-labs: skipped, Flink cannot be started here")
                return flinkctl.SKIP if run.info is None else 1
            started = True
        for side in ("flink", "weir"):
            shutil.rmtree(os.path.join(out, side), ignore_errors=True)
        weir = None
        try:
            weir = Weir(a.weir, out)
            engines = [Flink(run), weir]

            def one(eng):
                """The labs of one engine; independent parts run side by side."""
                base = os.path.join(out, eng.name)
                with concurrent.futures.ThreadPoolExecutor(3) as ex:
                    f1 = ex.submit(timed, eng, "lab001", lab001, eng, os.path.join(base, "lab001")) \
                        if "lab001" in only or "rest" in only else None
                    f4 = ex.submit(timed, eng, "lab004", lab004, eng, os.path.join(base, "lab004")) \
                        if "lab004" in only else None
                    fr = ex.submit(timed, eng, "rest running", rest_running, eng, os.path.join(base, "rest")) \
                        if "rest" in only else None
                    jid = f1.result() if f1 else None
                    for f in (f4, fr):
                        if f:
                            f.result()
                if "rest" in only:
                    timed(eng, "rest finished", rest_finished, eng, os.path.join(base, "rest"), jid)

            with concurrent.futures.ThreadPoolExecutor(2) as ex:
                for f in [ex.submit(one, e) for e in engines]:
                    f.result()
        finally:
            if weir:
                weir.stop()
                prob = weir.log_problems()
                if prob:
                    print("FAIL weir's cluster log shows a sanitizer report:\n" + prob)
                    sanitizer_failed.append(True)
            if started:
                run.stop()
        if a.times:
            for e, step, sec in TIMES:
                print("time %-5s %-28s %6.1f s" % (e, step, sec))
    grade(out)
    expected = lc.Expected(EXPECTED)
    t = compare(out, expected, a.quiet)
    print("flink-labs: %d/%d artifacts identical, %d/%d fields identical (%d expected differences, "
          "%d unexpected) in %d s" % (t["identical"], t["artifacts"], t["same"], t["fields"],
                                      t["expected"], t["unexpected"], time.time() - t0))
    if not a.out and not a.keep:
        shutil.rmtree(out, ignore_errors=True)
    elif not a.quiet:
        print("artifacts in %s" % out)
    return 1 if t["unexpected"] or sanitizer_failed else 0


if __name__ == "__main__":
    sys.exit(main())
