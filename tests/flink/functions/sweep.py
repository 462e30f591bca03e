#!/usr/bin/env python3
"""sweep.py — the built-in function sweep: every case of cases.py evaluated on weir and on real Flink,
over literals (the planner folds them) and over a VALUES table (evaluated at run time), compared value
by value (an error on both sides counts as agreement; whether the messages match is reported).

Usage: sweep.py --weir build/weir --run-dir /tmp/funcs-flink [--only GROUP,...] [--out DIR] [--quiet]
  Flink answers through its SQL gateway (batch mode, one session per group and time zone) and are
  cached in RUN/funcs-cache.json (re-running after a weir fix asks Flink nothing new); weir runs each
  statement as `weir sql-client -f`. The time group runs under two session time zones (UTC and
  America/Los_Angeles). Prints per function: evaluations identical / total and the differing ones;
  writes DIR/report.txt and DIR/results.json (default /tmp/funcs-sweep).
  --goldens DIR: writes tests/golden/functions_<group>.sql scripts of the agreeing evaluations
  (those with values on both sides, in the literal and the VALUES form).
An "evaluation" is one argument tuple of one case in one form (literal / values) and one time zone;
the literal form batches a case's tuples as the columns of one SELECT, the values form as the rows of
one VALUES table, and splits into one statement per tuple when either engine fails on the batch.
"""
import argparse
import json
import os
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "differential"))
sys.path.insert(0, os.path.dirname(HERE))
import cases      # noqa: E402
import flinkctl   # noqa: E402
from fuzz import run_weir, to_cells, norm_msg   # noqa: E402

TZS = {"time": ["UTC", "America/Los_Angeles"]}


def arg(v, t):
    return v if t is None else "CAST(%s AS %s)" % (v, t)


def expr(tmpl, types, row, cols=None):
    """The case's expression for one tuple: literals (cols None) or the VALUES columns c0.. for the
    typed arguments (inline ones stay literal)."""
    vals = []
    for k, (t, v) in enumerate(zip(types, row)):
        vals.append(v if t is None else ("c%d" % k if cols else arg(v, t)))
    return tmpl.format(*vals)


def lit_stmt(case, rows):
    _, _, tmpl, types, _ = case
    return "SELECT " + ", ".join(expr(tmpl, types, r) for r in rows)


def values_stmt(case, rows):
    """Rows carry their index (Flink's union of one-row projections answers in any order); a single
    row is written twice: Flink folds a one-row VALUES into the projection (a literal again), while
    several rows become a union of projections evaluated at run time."""
    _, _, tmpl, types, _ = case
    typed = [k for k, t in enumerate(types) if t is not None]
    rows = rows * 2 if len(rows) == 1 else rows
    vals = ", ".join("(%d, %s)" % (i, ", ".join(arg(r[k], types[k]) for k in typed)) for i, r in enumerate(rows))
    return "SELECT i, %s FROM (VALUES %s) AS t(i, %s)" % (
        expr(tmpl, types, rows[0], cols=True), vals, ", ".join("c%d" % k for k in typed))


def sets(tz):
    return {"execution.runtime-mode": "batch", "table.local-time-zone": tz, "parallelism.default": "1"}


def transient(res):
    """A Flink failure of the cluster, not of the statement (not cached; asked again)."""
    return res[0] == "error" and ("network buffers" in res[1] or res[1].startswith("timed out"))


class Flink:
    def __init__(self, run_dir):
        self.run = flinkctl.FlinkRun(run_dir)
        if not self.run.running():
            sys.exit("sweep: no Flink cluster in %s (flinkctl.py start first)" % run_dir)
        self.gw = self.run.gateway()
        self.cache_path = os.path.join(run_dir, "funcs-cache.json")
        self.cache = json.load(open(self.cache_path)) if os.path.exists(self.cache_path) else {}
        self.cache = {k: v for k, v in self.cache.items() if not transient(v)}
        self.sess = {}
        self.lock = threading.Lock()

    def query(self, tz, stmt):
        key = tz + "\n" + stmt
        if key in self.cache:
            return self.cache[key]
        if tz not in self.sess:
            self.sess[tz] = self.gw.open_session()
            for k, v in sets(tz).items():
                self.gw.execute(self.sess[tz], "SET '%s' = '%s'" % (k, v))
        r = self.gw.execute(self.sess[tz], stmt, timeout=180)
        res = ["error", r[1]] if r[0] == "error" else ["ok", [to_cells(f) for _, f in r[2]]]
        if not transient(res):
            with self.lock:
                self.cache[key] = res
        return res

    def save(self):
        with self.lock:
            snap = dict(self.cache)
        with open(self.cache_path + ".tmp", "w") as f:
            json.dump(snap, f, ensure_ascii=False)
        os.replace(self.cache_path + ".tmp", self.cache_path)


def weir_query(weir, tz, stmt, work):
    d = tempfile.mkdtemp(dir=work)
    r = run_weir(weir, [], sets(tz), stmt, d)
    if r[0] != "ok":
        return [r[0] if r[0] != "crash" else "error", "CRASH " + r[1] if r[0] == "crash" else r[1]]
    return ["ok", [c for _, c in r[2]]]


def per_tuple(res, n, form):
    """Per tuple results from a batched answer, or None when it failed."""
    if res[0] != "ok":
        return None
    rows = res[1]
    if form == "literal":
        if len(rows) != 1 or len(rows[0]) != n:
            return [["ok", "<shape %r>" % (rows,)]] * n
        return [["ok", c] for c in rows[0]]
    try:
        rows = [r[1:] for r in sorted(rows, key=lambda r: int(r[0]))]
    except (ValueError, IndexError):
        return [["ok", "<rows %r>" % (rows,)]] * n
    if n == 1 and len(rows) == 2 and rows[0] == rows[1]:
        rows = rows[:1]
    if len(rows) != n:
        return [["ok", "<rows %r>" % (rows,)]] * n
    return [["ok", r[0] if len(r) == 1 else repr(r)] for r in rows]


def run_case(case, tz, flink, weir, work):
    """[(form, row, flink result, weir result, statement)] for every tuple of the case."""
    out = []
    rows = case[4]
    for form in ("literal", "values"):
        if form == "literal":
            batches = [rows]
        else:  # one VALUES table per distinct inline (untyped) arguments
            groups = {}
            for r in rows:
                groups.setdefault(tuple(v for t, v in zip(case[3], r) if t is None), []).append(r)
            batches = list(groups.values())
        mk = lit_stmt if form == "literal" else values_stmt
        for b in batches:
            st = mk(case, b)
            f, w = flink.query(tz, st), weir_query(weir, tz, st, work)
            fp, wp = per_tuple(f, len(b), form), per_tuple(w, len(b), form)
            if fp is not None and wp is not None:
                out += [(form, r, x, y, st) for r, x, y in zip(b, fp, wp)]
                continue
            for r in b:
                s1 = mk(case, [r])
                f1, w1 = flink.query(tz, s1), weir_query(weir, tz, s1, work)
                f1p = per_tuple(f1, 1, form) or [f1]
                w1p = per_tuple(w1, 1, form) or [w1]
                out.append((form, r, f1p[0], w1p[0], s1))
    return out


def verdict(f, w):
    if f[0] == "ok" and w[0] == "ok":
        return "same" if f[1] == w[1] else "differ"
    if f[0] == "error" and w[0] == "error":
        return "both-error-same" if norm_msg(f[1]) == norm_msg(w[1]) else "both-error"
    return "differ"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weir", required=True)
    ap.add_argument("--run-dir", default="/tmp/funcs-flink")
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="/tmp/funcs-sweep")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    weir = os.path.abspath(a.weir)
    only = set(x for x in a.only.split(",") if x)
    flink = Flink(a.run_dir)
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="funcs-", dir="/tmp")
    jobs = []
    for c in cases.CASES:
        if only and c[0] not in only:
            continue
        for tz in TZS.get(c[0], ["UTC"]):
            jobs.append((c, tz))
    results = []
    # Flink is the slow side; two cases at a time (one gateway session per time zone serves both)
    with ThreadPoolExecutor(2) as ex:
        for (c, tz), res in zip(jobs, ex.map(lambda j: run_case(j[0], j[1], flink, weir, work), jobs)):
            results.append((c, tz, res))
            flink.save()
    lines, tot, same, perfunc = [], {}, {}, {}
    for c, tz, res in results:
        key = c[1]
        for form, r, f, w, st in res:
            v = verdict(f, w)
            pf = perfunc.setdefault(key, [0, 0, []])
            pf[1] += 1
            g = c[0]
            tot[g] = tot.get(g, 0) + 1
            if v != "differ":
                pf[0] += 1
                same[g] = same.get(g, 0) + 1
            if v != "same" and v != "both-error-same":
                pf[2].append((v, form, tz, r, f, w, st))
    for key, (s, n, diffs) in perfunc.items():
        lines.append("%-32s %4d/%-4d%s" % (key, s, n, "" if s == n else "  DIFFER"))
        for v, form, tz, r, f, w, st in diffs:
            lines.append("    [%s %s %s] args=%s\n      flink: %s\n      weir:  %s" % (
                v, form, tz, ", ".join(r), json.dumps(f, ensure_ascii=False)[:300],
                json.dumps(w, ensure_ascii=False)[:300]))
    nfunc = len(perfunc)
    nall, sall = sum(tot.values()), sum(same.values())
    lines.append("")
    for g in tot:
        lines.append("group %-12s %5d/%-5d agree" % (g, same[g], tot[g]))
    lines.append("functions-sweep: %d/%d evaluations agree over %d cases (%d identical cases)" % (
        sall, nall, nfunc, sum(1 for s, n, _ in perfunc.values() if s == n)))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "report.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump([[c[0], c[1], tz, [list(x) for x in res]] for c, tz, res in results], f, ensure_ascii=False)
    sys.stdout.write(text if not a.quiet else lines[-1] + "\n")


if __name__ == "__main__":
    main()
