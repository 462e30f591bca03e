#!/usr/bin/env python3
"""plans.py — weir's EXPLAIN and COMPILE PLAN output against Apache Flink's, for every query and
INSERT of the golden tests and the conformance cases (tests/flink/plan_cases.py collects them).

  plans.py record [--run-dir D] [--only GLOB] [--stale]
      runs every probe (plan_cases.probes: EXPLAIN, EXPLAIN CHANGELOG_MODE, EXPLAIN PLAN_ADVICE,
      EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE, JSON_EXECUTION_PLAN, COMPILE PLAN) on the
      Flink cluster of flinkctl.py (default run dir /tmp/flink-plans; started when needed) and
      stores Flink's outputs in tests/flink/plans/<unit>/<nn>.txt (paths as $DATA / $WORK).
  plans.py check [--build DIR] [--only GLOB] [--report FILE] [--no-xfail]
      runs the same probes on weir (DIR/weir sql-client -f, embedded), compares every section
      with the stored Flink output after plan_normalize.py, and prints one line per compared
      section: "PASS name", "FAIL name: first differing line", "XFAIL name: reason" (listed in
      tests/flink/plans.xfail), "SKIP name: reason". Then the per-section figures. Exit 1 when
      a FAIL line was printed. --report writes the figures and every difference (the first
      differing line of each) to FILE (tests/flink/plans-report.txt).

A name is <unit>/<nn>.<section>, e.g. golden/explain_forms/04.physical-changelog. Sections:
  ast, physical, execution          of EXPLAIN <q>
  physical-changelog                the physical plan of EXPLAIN CHANGELOG_MODE <q>
  physical-advice                   the physical plan of EXPLAIN PLAN_ADVICE <q>
  physical-all, json-plan           of EXPLAIN ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE,
                                    JSON_EXECUTION_PLAN <q> (batch: without PLAN_ADVICE)
  compiled                          the JSON file of COMPILE PLAN ... FOR <INSERT or statement set>
A probe that fails on one engine only makes all its sections differ ("<engine> rejects: ...");
a probe both engines reject is counted as "both reject" and not compared further.
"""
import argparse
import concurrent.futures
import difflib
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plan_cases as pc          # noqa: E402
import plan_normalize as pn      # noqa: E402
import plan_causes               # noqa: E402

ROOT = pc.ROOT
STORE = os.path.join(HERE, "plans")
XFAIL = os.path.join(HERE, "plans.xfail")
SECTIONS = ["ast", "physical", "execution", "physical-changelog", "physical-advice", "physical-all",
            "json-plan", "compiled"]
PROBE_SECTIONS = {
    "explain": [("ast", "Abstract Syntax Tree"), ("physical", "Optimized Physical Plan"),
                ("execution", "Optimized Execution Plan")],
    "changelog": [("physical-changelog", "Optimized Physical Plan")],
    "advice": [("physical-advice", "Optimized Physical Plan With Advice")],
    "all": [("physical-all", "Optimized Physical Plan With Advice|Optimized Physical Plan"),
            ("json-plan", "Physical Execution Plan")],
    "compiled": [("compiled", None)],
}


def one_line(s, n=200):
    s = " ".join((s or "").split())
    return s if len(s) <= n else s[:n - 3] + "..."


# ------------------------------------------------------------------------------- the work list
def work_items(work, only=None):
    """[(unit, target, nn, [(probe, flink sql, weir sql)])] for the targets to compare, plus the
    skipped ones as (unit, target, nn, reason)."""
    items, skipped = [], []
    for u in pc.all_units(os.path.join(work, "tmp")):
        seen = {}
        for t in u.targets():
            nn = "%02d" % t.index
            if only and not fnmatch.fnmatch("%s/%s" % (u.name, nn), only) and not fnmatch.fnmatch(u.name, only):
                continue
            if t.skip:
                skipped.append((u, t, nn, t.skip))
                continue
            key = (tuple(s.flink for s in u.prefix(t)), t.flink)
            if key in seen:
                skipped.append((u, t, nn, "same statement and setup as %s/%s" % (u.name, seen[key])))
                continue
            seen[key] = nn
            items.append((u, t, nn, pc.probes(t)))
    return items, skipped


def script_text(unit, target, data, work):
    """The Flink-side script of one target (stored with Flink's outputs to detect staleness)."""
    parts = [s.flink for s in unit.prefix(target)] + [target.flink]
    return pn.paths(";\n".join(parts) + ";", data, work)


# ------------------------------------------------------------------------------- storage
def store_path(unit, nn):
    return os.path.join(STORE, unit.name, nn + ".txt")


def write_store(unit, target, nn, script, results):
    p = store_path(unit, nn)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w", encoding="utf-8") as f:
        f.write("#### flink %s: %s/%s\n" % (pc_flink_version(), unit.name, nn))
        f.write("#### script\n%s\n" % script)
        for probe, (status, text) in results:
            f.write("#### probe %s %s\n%s\n" % (probe, status, (text or "").rstrip("\n")))
        f.write("#### end\n")


def read_store(unit, nn):
    p = store_path(unit, nn)
    if not os.path.exists(p):
        return None, None
    script, results, cur, buf = None, {}, None, []
    for line in open(p, encoding="utf-8").read().split("\n"):
        m = re.match(r"^#### (script|probe (\S+) (ok|error)|end|flink .*)$", line)
        if m:
            if cur == "script":
                script = "\n".join(buf)
            elif cur:
                results[cur[0]] = (cur[1], "\n".join(buf))
            buf = []
            cur = "script" if m.group(1) == "script" else (m.group(2), m.group(3)) if m.group(2) else None
            continue
        buf.append(line)
    return script, results


def pc_flink_version():
    with open(os.path.join(ROOT, "FLINK_VERSION")) as f:
        return f.read().strip()


# ------------------------------------------------------------------------------- Flink
def kafka_connector_jar(unit):
    """Flink's Kafka SQL connector jar (scripts/install-kafka.sh) when the unit's setups declare a
    'kafka' or 'upsert-kafka' table, else None. Flink's distribution lacks the connector; its plans
    need no broker (EXPLAIN and COMPILE PLAN connect to none), so the session loads the jar."""
    if not any(s.kind == "setup" and re.search(r"'connector'\s*=\s*'(upsert-)?kafka'", s.flink) for s in unit.stmts):
        return None
    try:
        home = subprocess.run([os.path.join(ROOT, "scripts", "install-kafka.sh")], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    jars = sorted(glob.glob(os.path.join(home, "flink", "flink-sql-connector-kafka-*.jar")))
    return jars[-1] if jars else None


def run_flink_unit(gw, unit, entries, work):
    """Runs the unit's setups and the probes of `entries` [(target, nn, probes)] in one gateway
    session; returns {nn: [(probe, (status, text))]}."""
    sess = gw.open_session()
    out = {}
    try:
        jar = kafka_connector_jar(unit)
        if jar:
            gw.execute(sess, "ADD JAR '%s'" % jar)
        todo = {id(t): (t, nn, probes) for t, nn, probes in entries}
        for s in unit.stmts:
            if s.kind == "setup":
                gw.execute(sess, s.flink)
                continue
            if id(s) not in todo:
                continue
            t, nn, probes = todo[id(s)]
            res = []
            for probe, fl, _ in probes:
                plan = os.path.join(work, "flink", unit.name, nn + ".json")
                if probe == "compiled":
                    os.makedirs(os.path.dirname(plan), exist_ok=True)
                    if os.path.exists(plan):
                        os.remove(plan)
                    fl = fl.replace("@PLAN@", plan)
                r = gw.execute(sess, fl)
                if r[0] != "ok":
                    res.append((probe, ("error", one_line(r[1], 2000))))
                elif probe == "compiled":
                    if os.path.exists(plan):
                        res.append((probe, ("ok", open(plan, encoding="utf-8").read())))
                    else:
                        res.append((probe, ("error", "no plan file written")))
                else:
                    text = "\n".join(str(f[0]) for _, f in r[2] if f)
                    res.append((probe, ("ok", text)))
            out[nn] = res
    finally:
        gw.close_session(sess)
    return out


def cmd_record(a):
    from flinkctl import FlinkRun
    run = FlinkRun(a.run_dir)
    if not run.running():
        if not run.start():
            print("plans: Flink could not be started (see above)", file=sys.stderr)
            return 77
    gw = run.gateway()
    work = a.work or tempfile.mkdtemp(prefix="weir-plans-")
    items, _ = work_items(work, a.only)
    by_unit = {}
    for u, t, nn, probes in items:
        if a.stale:
            script, stored = read_store(u, nn)
            if stored is not None and script == script_text(u, t, pc.DATA, work):
                continue
        by_unit.setdefault(u.name, (u, []))[1].append((t, nn, probes))
    done = 0
    for name, (u, entries) in by_unit.items():
        prepare_unit_dirs(u, work)
        res = run_flink_unit(gw, u, entries, work)
        for t, nn, _ in entries:
            results = [(p, (st, pn.paths(txt, pc.DATA, work))) for p, (st, txt) in res.get(nn, [])]
            write_store(u, t, nn, script_text(u, t, pc.DATA, work), results)
            done += 1
        print("recorded %s (%d targets, %d so far)" % (name, len(entries), done), flush=True)
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def prepare_unit_dirs(unit, work):
    """Empty source files and scratch folders the DDL points to (both engines read no data:
    nothing is executed, but some connectors look at their path while planning)."""
    for s in unit.stmts:
        for p in re.findall(r"'path'\s*=\s*'([^']*)'", s.weir + s.flink):
            if p.startswith(os.path.join(work, "tmp")):
                if p.endswith(".csv"):
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    open(p, "a").close()
                else:
                    os.makedirs(p, exist_ok=True)


# ------------------------------------------------------------------------------- weir
def unwrap_table(body):
    """A statement result printed as Flink 2.3's client prints it (a one-column `result` table whose
    cell holds the EXPLAIN text) -> the text's lines; other bodies are returned as they are."""
    if len(body) >= 4 and body[0].startswith("+-") and body[2].startswith("+-") and \
            body[1].strip("| ").strip() == "result":
        inner = body[3:]
        while inner and (inner[-1].startswith("+-") or inner[-1].endswith("in set") or inner[-1] == ""):
            inner.pop()
        if inner and inner[-1].strip() == "|":
            inner.pop()
        elif inner and inner[-1].endswith(" |"):
            inner[-1] = inner[-1][:-2]      # the cell's last line closes the table row
        if inner and inner[0].startswith("| "):
            inner[0] = inner[0][2:]
        return inner
    return body


def echo_matches(lines, i, echo):
    """The client's echo of a statement at lines[i:]: `Flink SQL> ` + the first line and `> ` +
    the others; a statement that starts on the line after the previous `;` is echoed with an empty
    first line. Returns the number of lines it takes, or 0."""
    for lead in ([], [""]):
        e = lead + echo
        want = ["Flink SQL> " + e[0]] + ["> " + x for x in e[1:]]
        want[-1] += ";"
        if lines[i:i + len(want)] == want:
            return len(want)
    return 0


def parse_transcript(stdout, stmts):
    """weir's sql-client -f output -> [(status, text)] for the leading statements that ran."""
    lines = stdout.split("\n")
    i, out = 0, []
    for s in stmts:
        echo = s.split("\n")
        n = 0
        while i < len(lines):
            n = echo_matches(lines, i, echo)
            if n:
                break
            i += 1
        if not n:
            break
        i += n
        body = []
        while i < len(lines) and not lines[i].startswith("Flink SQL> ") and lines[i] != "Flink SQL> ":
            body.append(lines[i])
            i += 1
        if body and body[-1] == "":
            body.pop()
        # A statement that ends inside a comment or string (e.g. `SELECT /*;`) keeps the client
        # reading (Flink's SqlClientParserState): the following lines are echoed with it as `> `
        # lines and the whole text fails; the failure is this statement's.
        errs = [j for j, l in enumerate(body) if l.startswith("[ERROR]")]
        if errs and all(l.startswith("> ") for l in body[:errs[0]]):
            body = body[errs[0]:]
        body = unwrap_table(body)
        text = "\n".join(body)
        out.append(("error" if text.startswith("[ERROR]") else "ok", text))
        if text.startswith("[ERROR]"):
            break
    return out


def run_weir_unit(weir, unit, entries, work):
    """Runs the unit's setups and probes through `weir sql-client -f` (restarted after a failing
    statement, with the setups before it); returns {nn: [(probe, (status, text))]}."""
    seq = []     # (kind, payload, weir sql)
    todo = {id(t): (t, nn, probes) for t, nn, probes in entries}
    for s in unit.stmts:
        if s.kind == "setup":
            seq.append(("setup", None, s.weir))
        elif id(s) in todo:
            t, nn, probes = todo[id(s)]
            for probe, _, wr in probes:
                plan = os.path.join(work, "weir", unit.name, nn + ".json")
                seq.append(("probe", (nn, probe, plan), wr.replace("@PLAN@", plan)))
    results = {}
    failed_setups = set()
    pos = 0
    env = dict(os.environ, WEIR_EMBEDDED="1", WEIR_TEST_DATA=pc.DATA)
    scratch = os.path.join(work, "scripts", unit.name)
    os.makedirs(scratch, exist_ok=True)
    while pos < len(seq):
        run = [k for k in range(pos) if seq[k][0] == "setup" and k not in failed_setups] + \
              list(range(pos, len(seq)))
        for k in range(pos, len(seq)):
            if seq[k][0] == "probe":
                plan = seq[k][1][2]
                os.makedirs(os.path.dirname(plan), exist_ok=True)
                if os.path.exists(plan):
                    os.remove(plan)
        script = os.path.join(scratch, "run.sql")
        with open(script, "w", encoding="utf-8") as f:
            f.write("".join(seq[k][2] + ";\n" for k in run))
        try:
            p = subprocess.run([weir, "sql-client", "-f", script], cwd=unit.cwd, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
            stdout, rc = p.stdout.decode("utf-8", "replace"), "exit %d" % p.returncode
        except subprocess.TimeoutExpired:
            stdout, rc = "", "timed out"
        got = parse_transcript(stdout, [seq[k][2] for k in run])
        nrun = len(got)
        for j, (status, text) in enumerate(got):
            k = run[j]
            if k < pos:
                continue
            kind, payload, _ = seq[k]
            if kind == "setup":
                if status == "error":
                    failed_setups.add(k)
                continue
            nn, probe, plan = payload
            if status == "ok" and probe == "compiled":
                if os.path.exists(plan):
                    text = open(plan, encoding="utf-8").read()
                else:
                    status, text = "error", "no plan file written"
            if status == "error":
                text = one_line(text, 2000)
            results.setdefault(nn, []).append((probe, (status, text)))
        if nrun == len(run):
            break
        # the statement after the last parsed one did not run (or could not be parsed): it and
        # everything before it is done; a statement that produced no parsable output counts as
        # a failure of its own
        last = run[nrun - 1] if nrun else pos - 1
        if nrun and got[-1][0] == "error":
            pos = last + 1
        else:
            k = run[nrun] if nrun < len(run) else len(seq)
            kind, payload, _ = seq[k] if k < len(seq) else (None, None, None)
            if kind == "probe":
                results.setdefault(payload[0], []).append(
                    (payload[1], ("error", "weir printed no result (%s)" % rc)))
            elif kind == "setup":
                failed_setups.add(k)
            pos = k + 1
    return results


# ------------------------------------------------------------------------------- comparison
def first_difference(a, b):
    """The first differing line of two texts as 'flink: ... | weir: ...'."""
    al, bl = a.split("\n"), b.split("\n")
    for x, y in zip(al, bl):
        if x != y:
            return "flink: %s | weir: %s" % (one_line(x, 160), one_line(y, 160))
    if len(al) > len(bl):
        return "flink: %s | weir: <end>" % one_line(al[len(bl)], 160)
    return "flink: <end> | weir: %s" % one_line(bl[len(al)], 160)


def section_texts(probe, status, text, translated):
    """{section: normalised text} of one probe's result."""
    out = {}
    if probe == "compiled":
        out["compiled"] = pn.compiled_plan(text, translated)
        return out
    secs = pn.sections(text)
    for name, title in PROBE_SECTIONS[probe]:
        found = None
        for t, body in secs:
            if re.fullmatch(title, t):
                found = (t, body)
                break
        if found is None:
            out[name] = "<no section %s; sections: %s>" % (title.split("|")[0], ", ".join(t for t, _ in secs))
        elif name == "json-plan":
            out[name] = pn.json_execution_plan(found[1])
        else:
            out[name] = "== %s ==\n%s" % found
    return out


def compare(flink, weir, translated):
    """[(section, verdict, detail, flink text, weir text)] for one target; verdict is 'same',
    'diff', 'both-reject'."""
    rows = []
    for probe, (fst, ftext) in flink.items():
        wst, wtext = weir.get(probe, ("error", "weir did not run this probe"))
        names = [n for n, _ in PROBE_SECTIONS[probe]]
        if fst == "error" and wst == "error":
            for n in names:
                rows.append((n, "both-reject", "flink: %s | weir: %s" % (one_line(ftext, 120), one_line(wtext, 120)),
                             ftext, wtext))
            continue
        if fst == "error" or wst == "error":
            who, msg = ("flink", ftext) if fst == "error" else ("weir", wtext)
            for n in names:
                rows.append((n, "diff", "%s rejects: %s" % (who, one_line(msg, 240)), ftext, wtext))
            continue
        fs = section_texts(probe, fst, ftext, translated)
        ws = section_texts(probe, wst, wtext, translated)
        for n in names:
            a, b = fs[n], ws[n]
            if a == b:
                rows.append((n, "same", "", a, b))
            else:
                rows.append((n, "diff", first_difference(a, b), a, b))
    return rows


def load_xfail():
    out = []
    if os.path.exists(XFAIL):
        for line in open(XFAIL, encoding="utf-8"):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            out.append((parts[0], parts[1] if len(parts) > 1 else "(no reason given)"))
    return out


def cmd_check(a):
    build = os.path.abspath(a.build)
    weir = os.path.join(build, "weir")
    if not os.path.exists(weir):
        print("FAIL plans-vs-flink: %s not found" % weir)
        return 1
    if not os.path.isdir(STORE):
        print("SKIP plans-vs-flink: no stored Flink outputs in %s (run plans.py record)" % STORE)
        return 77
    work = tempfile.mkdtemp(prefix="weir-plans-check-")
    try:
        return check(a, weir, work)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("plans: kept %s" % work, file=sys.stderr)


def check(a, weir, work):
    items, skipped = work_items(work, a.only)
    xfail = [] if a.no_xfail or a.write_xfail else load_xfail()
    lines, rows_all, stale = [], [], []
    by_unit = {}
    for u, t, nn, probes in items:
        script, stored = read_store(u, nn)
        if stored is None:
            stale.append("%s/%s: no stored Flink output (run plans.py record)" % (u.name, nn))
            continue
        if script != script_text(u, t, pc.DATA, work):
            stale.append("%s/%s: the statement or its setup changed since Flink's output was recorded "
                         "(run plans.py record)" % (u.name, nn))
            continue
        by_unit.setdefault(u.name, (u, []))[1].append((t, nn, [p for p in probes if p[0] in stored], stored))

    def one(entry):
        u, entries = entry
        prepare_unit_dirs(u, work)
        return u, entries, run_weir_unit(weir, u, [(t, nn, p) for t, nn, p, _ in entries], work)

    jobs = int(os.environ.get("JOBS", "2"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        done = list(ex.map(one, by_unit.values()))
    counts = {s: {"same": 0, "diff": 0, "xfail": 0, "both-reject": 0} for s in SECTIONS}
    failed = 0
    for u, entries, wres in done:
        for t, nn, probes, stored in entries:
            w = {p: (st, pn.paths(txt, pc.DATA, work)) for p, (st, txt) in wres.get(nn, [])}
            for sec, verdict, detail, ftext, wtext in compare({p: stored[p] for p, _, _ in probes}, w,
                                                              u.translated):
                name = "%s/%s.%s" % (u.name, nn, sec)
                known = next((r for pat, r in xfail if fnmatch.fnmatch(name, pat)), None)
                if verdict == "same":
                    counts[sec]["same"] += 1
                    lines.append("PASS %s" % name + (" (XPASS: listed in plans.xfail)" if known else ""))
                elif verdict == "both-reject":
                    counts[sec]["both-reject"] += 1
                    lines.append("SKIP %s: both engines reject it: %s" % (name, detail))
                elif known:
                    counts[sec]["xfail"] += 1
                    lines.append("XFAIL %s: %s" % (name, known))
                else:
                    counts[sec]["diff"] += 1
                    failed += 1
                    lines.append("FAIL %s: %s" % (name, detail))
                rows_all.append((name, sec, verdict, detail, known, ftext, wtext))
    for u, t, nn, why in skipped:
        lines.append("SKIP %s/%s: %s" % (u.name, nn, why))
    for s in stale:
        lines.append("SKIP %s" % s)
    for line in lines:
        print(line)
    summary = figures(counts)
    print(summary, end="")
    if a.causes:
        groups = {}
        for name, sec, verdict, detail, known, ft, wt in rows_all:
            if verdict == "diff":
                groups.setdefault((sec if a.causes == "section" else "", plan_causes.cause(sec, detail, ft, wt)), []).append(name)
        for (sec, why), names in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print("%5d  %s%s   e.g. %s" % (len(names), sec + ": " if sec else "", why, names[0]))
    if a.report:
        write_report(a.report, summary, rows_all, skipped, stale)
    if a.write_xfail:
        write_xfail(rows_all)
    if a.diffs:
        with open(a.diffs, "w", encoding="utf-8") as f:
            for name, sec, verdict, detail, known, ftext, wtext in rows_all:
                if verdict != "diff":
                    continue
                f.write("### %s\n" % name)
                f.write("".join(difflib.unified_diff((ftext or "").splitlines(True), (wtext or "").splitlines(True),
                                                     "flink", "weir", n=2)))
                f.write("\n")
    return 1 if failed else 0


def write_xfail(rows):
    """tests/flink/plans.xfail from this run: every differing section with its cause."""
    out = []
    for name, sec, verdict, detail, known, ft, wt in rows:
        if verdict == "diff":
            out.append((plan_causes.cause(sec, detail, ft, wt), name))
    with open(XFAIL, "w", encoding="utf-8") as f:
        f.write("# Known differences between weir's plans and Flink %s's (tests/flink/plans.py check counts a listed\n"
                "# name that differs as XFAIL, i.e. skipped, and says XPASS when it matches: then drop its line).\n"
                "# One line per differing section: <unit>/<nn>.<section> (a glob), then the cause. Regenerate after a\n"
                "# fix with: tests/flink/plans.py check --write-xfail (the causes come from plan_causes.py).\n"
                % pc_flink_version())
        for why, name in sorted(out, key=lambda x: (x[1])):
            f.write("%s\t%s\n" % (name, why))


def figures(counts):
    out = ["%-20s %9s %9s %9s %9s" % ("section", "identical", "differ", "known", "both-rej")]
    tot = [0, 0, 0, 0]
    for s in SECTIONS:
        c = counts[s]
        row = [c["same"], c["diff"], c["xfail"], c["both-reject"]]
        tot = [x + y for x, y in zip(tot, row)]
        out.append("%-20s %9d %9d %9d %9d" % (s, *row))
    out.append("%-20s %9d %9d %9d %9d" % ("total", *tot))
    return "\n".join(out) + "\n"


def write_report(path, summary, rows, skipped, stale):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# weir's EXPLAIN / COMPILE PLAN against Flink %s: tests/flink/plans.py check --report\n"
                % pc_flink_version())
        f.write("# identical = equal after tests/flink/plan_normalize.py; differ = not equal (known: listed in\n"
                "# tests/flink/plans.xfail); both-rej = both engines reject the statement.\n\n")
        f.write(summary)
        groups = {}
        for name, sec, verdict, detail, known, ft, wt in rows:
            if verdict == "diff":
                groups.setdefault(plan_causes.cause(sec, detail, ft, wt), []).append(name)
        f.write("\n# differing sections by cause (plan_causes.py), most common first\n")
        for why, names in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            f.write("%5d  %s\n" % (len(names), why))
        f.write("\n# differing sections: name, then the first differing line (flink | weir)\n")
        for name, sec, verdict, detail, known, _, _ in rows:
            if verdict == "diff":
                f.write("%s%s\n    %s\n" % (name, "  [known: %s]" % known if known else "", detail))
        f.write("\n# not compared\n")
        for u, t, nn, why in skipped:
            f.write("%s/%s: %s\n" % (u.name, nn, why))
        for s in stale:
            f.write("%s\n" % s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--run-dir", default="/tmp/flink-plans")
    r.add_argument("--only")
    r.add_argument("--work")
    r.add_argument("--stale", action="store_true",
                   help="record only statements with no stored output or whose script changed")
    c = sub.add_parser("check")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    c.add_argument("--only")
    c.add_argument("--report")
    c.add_argument("--diffs", help="write a unified diff of every differing section to this file")
    c.add_argument("--no-xfail", action="store_true")
    c.add_argument("--write-xfail", action="store_true",
                   help="rewrite tests/flink/plans.xfail with every difference of this run (implies --no-xfail)")
    c.add_argument("--causes", nargs="?", const="all", choices=["all", "section"],
                   help="print the differences grouped by cause (per section with 'section')")
    c.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    return cmd_record(a) if a.cmd == "record" else cmd_check(a)


if __name__ == "__main__":
    sys.exit(main())
