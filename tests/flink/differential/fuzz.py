#!/usr/bin/env python3
"""fuzz.py — the differential tester: random typed tables and queries run on weir and on real
Apache Flink (the oracle), compared result by result.

Usage: fuzz.py --weir BUILD/weir [-n N] [--seed S] [--cdc-share P] [--run-dir D] [--found DIR] [--quiet]
  N queries from seed S (each query i uses the random stream seed S*1000003+i, so any one of them
  can be re-run alone with --only i). A share P of the queries (default 0.2; 1 = only those, 0 =
  none; drawn from a stream of its own, so the other queries of a seed stay the same) read
  changelog inputs: tables written as debezium-json (inserts, updates, deletes; with and without
  a PRIMARY KEY; gen.gen_cdc_tables), their categories named cdc_<category>; their runs also draw
  table.exec.source.cdc-events-duplicate (ChangelogNormalize over a PRIMARY KEY source). Each query runs on both engines at parallelism 1 and 2 (one
  engine run each; the state backend, mini-batch, two-phase aggregation and distinct split are
  drawn per run and set identically on both). The last line is
      flink-differential: K/N agree (M invalid on both, S skipped)
  and the exit status is 1 when a query disagrees. A query counts as agreeing when every one of its
  runs agrees. A skip is a run that could not be compared, with its reason printed (Flink did not
  answer in time).

What is compared (see compare()):
  - both engines accept the query: the rows. "changelog" queries (one source, parallelism 1, no
    mini-batch) compare the exact sequence of changes (op + values), because Flink's order is
    deterministic there; all others compare the final table (the changelog folded, as a multiset).
  - both reject it: agreement; whether the messages are equal is counted separately (the message
    a user reads: Flink's root cause, weir's "Reason:" line without the exception class).
  - one accepts and the other rejects: a disagreement.
A disagreement is reduced (fewer rows, by halving each table until the disagreement goes away) and
written to DIR/<seed>-<i>.sql with both engines' outputs beside it (default tests/flink/found).
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import gen        # noqa: E402
import flinkctl   # noqa: E402

LATE_SENSITIVE = ("window", "over", "dedup")
KIND = {"INSERT": "+I", "UPDATE_BEFORE": "-U", "UPDATE_AFTER": "+U", "DELETE": "-D"}


# ----------------------------------------------------------------------------------------- weir
def parse_weir(out):
    """('ok', columns, [(op, cells)]) or ('error', message) from weir's transcript of a script
    whose last statement is the query."""
    m = re.search(r"\[ERROR\] Could not execute SQL statement\. Reason:\n(.*)", out)
    if m:
        msg = m.group(1).strip()
        rest = out[m.end():].split("\n\nShutting down", 1)[0].strip("\n")
        if rest and not msg.endswith(rest):
            msg = (msg + "\n" + rest).strip()
        return ("error", re.sub(r"^[\w.$]+(?:Exception|Error): ", "", msg))
    m = re.search(r"\[ERROR\] (.*)", out)
    if m:
        return ("error", m.group(1).strip())
    chunks = [c for c in out.split("Flink SQL> ") if c.strip() and not c.lstrip().startswith("Shutting down")]
    last = chunks[-1] if chunks else ""
    lines = last.split("\n")
    tab = [l for l in lines if l.startswith("|")]
    if not tab:
        return ("ok", [], [])
    header = [c.strip() for c in tab[0].strip("|").split(" | ")]
    rows = []
    for l in tab[1:]:
        # "| " cell " | " cell " |": tableau right-aligns, so a value keeps its trailing spaces;
        # its leading spaces cannot be told from the padding (to_cells drops them on Flink's side)
        cells = [c.lstrip(" ") for c in l[2:-2].split(" | ")]
        if header and header[0] == "op":
            rows.append((cells[0], cells[1:]))
        else:
            rows.append(("+I", cells))
    cols = header[1:] if header and header[0] == "op" else header
    return ("ok", cols, rows)


def run_weir(weir, ddls, sets, query, workdir, timeout=60):
    script = os.path.join(workdir, "job.sql")
    with open(script, "w", encoding="utf-8") as f:
        for d in ddls:
            f.write(d + ";\n")
        f.write("SET 'sql-client.execution.result-mode' = 'tableau';\n")
        # whole values (LISTAGG builds long strings; the gateway gives Flink's untruncated)
        f.write("SET 'table.display.max-column-width' = '100000';\n")
        for k, v in sets.items():
            f.write("SET '%s' = '%s';\n" % (k, v))
        f.write(query + ";\n")
    env = dict(os.environ, WEIR_EMBEDDED="1")
    try:
        p = subprocess.run([weir, "sql-client", "-f", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout, env=env, cwd=workdir)
    except subprocess.TimeoutExpired:
        return ("crash", "timed out after %d s" % timeout)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode not in (0, 1) or "Sanitizer" in err or "runtime error" in err:
        return ("crash", "exit %d: %s" % (p.returncode, err.strip()[-2000:]))
    return parse_weir(out)


# ---------------------------------------------------------------------------------------- flink
def to_cells(fields):
    # leading spaces dropped as parse_weir must (tableau pads on the left)
    return ["<NULL>" if v is None else str(v).lstrip(" ") for v in fields]


class FlinkSide:
    def __init__(self, run):
        self.gw = run.gateway()
        self.sess = None

    def reset(self, ddls):
        if self.sess:
            self.gw.close_session(self.sess)
        self.sess = self.gw.open_session()
        for d in ddls:
            r = self.gw.execute(self.sess, d)
            if r[0] != "ok":
                raise RuntimeError("Flink refused the DDL: %s\n%s" % (r[1], d))

    def run(self, sets, query, timeout=90):
        for k, v in sets.items():
            self.gw.execute(self.sess, "SET '%s' = '%s'" % (k, v))
        r = self.gw.execute(self.sess, query, timeout=timeout)
        if r[0] == "error":
            if r[1].startswith("timed out"):
                return ("skip", "Flink did not answer within %d s" % timeout), []
            return r, []
        _, cols, rows = r
        return ("ok", [c[0] for c in cols], [(KIND.get(k, k), to_cells(f)) for k, f in rows]), [c[1] for c in cols]


# -------------------------------------------------------------------------------------- compare
def fold(rows):
    acc = {}
    for op, cells in rows:
        key = tuple(cells)
        acc[key] = acc.get(key, 0) + (1 if op in ("+I", "+U") else -1)
    return sorted((k, n) for k, n in acc.items() if n != 0)


def cell_eq(a, b, approx):
    if a == b:
        return True
    if not approx:
        return False
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


def rows_eq(a, b, approx):
    if len(a) != len(b):
        return False
    for (ka, na), (kb, nb) in zip(a, b):
        if na != nb or len(ka) != len(kb) or not all(cell_eq(x, y, approx) for x, y in zip(ka, kb)):
            return False
    return True


def per_key(rows, key_idx):
    out = {}
    for op, cells in rows:
        out.setdefault(tuple(cells[i] for i in key_idx if i < len(cells)), []).append(((op,) + tuple(cells), 1))
    return out


def compare(w, f, exact_order, float_cols, key_idx=None):
    """(verdict, detail): verdict in agree / agree-invalid / differ."""
    if w[0] == "crash":
        return "differ", "weir crashed: " + w[1]
    if w[0] == "error" and f[0] == "error":
        return "agree-invalid", "same message" if norm_msg(w[1]) == norm_msg(f[1]) else "messages differ"
    if w[0] != f[0]:
        return "differ", "weir %s, Flink %s" % (w[0], f[0])
    wr, fr = w[2], f[2]
    approx = bool(float_cols)
    if exact_order:
        a = [((op,) + tuple(c), 1) for op, c in wr]
        b = [((op,) + tuple(c), 1) for op, c in fr]
        if rows_eq(a, b, approx):
            return "agree", ""
        if key_idx:
            pw, pf = per_key(wr, key_idx), per_key(fr, key_idx)
            if sorted(pw) == sorted(pf) and all(rows_eq(pw[k], pf[k], approx) for k in pw):
                return "agree", ""
        if rows_eq(fold(wr), fold(fr), approx):
            return "differ", "same final table, different changelog"
        return "differ", "different rows"
    if rows_eq(fold(wr), fold(fr), approx):
        return "agree", ""
    return "differ", "different final table"


# Flink 2.3's own failures on queries weir answers (docs/user-guide.md, differences)
FLINK_INTERNAL_FAILURES = [
    (r"RexCall cannot be cast to class org\.apache\.calcite\.rex\.RexLiteral",
     "Flink 2.3 fails reducing a constant NULLIF division (Calcite ClassCastException)"),
    (r"This function does not support retraction, Please choose SumWithRetractAggFunction",
     "Flink 2.3 cannot run SUM(DISTINCT ..) in a HOP window aggregate"),
    (r"divisionComparable",
     "Flink 2.3 internal error (divisionComparable is null)"),
    (r"is NOT NULL, however, a null value is being written into it",
     "Flink 2.3 types a nullable result NOT NULL and its own enforcer fails the job"),
]


def flink_internal_failure(w, f):
    """The reason when Flink failed with one of its listed internal errors and weir answered."""
    if w[0] != "ok" or f[0] != "error":
        return None
    for pattern, reason in FLINK_INTERNAL_FAILURES:
        if re.search(pattern, f[1]):
            return reason + " (docs/user-guide.md, differences)"
    return None


def norm_msg(m):
    return re.sub(r"\s+", " ", m.strip().splitlines()[0] if m.strip() else "")


# ------------------------------------------------------------------------------------------ run
def is_cdc(seed, i, share):
    """Is query i of seed a changelog-input one? From its own random stream (the main stream of a
    query that is not stays as it was before this category existed)."""
    return share >= 1 or (share > 0 and random.Random((seed * 1000003 + i) * 31 + 17).random() < share)


def draw_sets(rng, par, cdc=False):
    sets = {"parallelism.default": str(par),
            "state.backend.type": rng.choice(["hashmap", "hashmap", "rocksdb"]),
            "table.exec.mini-batch.enabled": "false",
            "table.exec.mini-batch.allow-latency": "0 ms",
            "table.exec.mini-batch.size": "-1",
            "table.optimizer.agg-phase-strategy": "AUTO",
            "table.optimizer.distinct-agg.split.enabled": "false"}
    if rng.random() < 0.2:
        sets.update({"table.exec.mini-batch.enabled": "true", "table.exec.mini-batch.allow-latency": "100 ms",
                     "table.exec.mini-batch.size": "1000",
                     "table.optimizer.agg-phase-strategy": rng.choice(["AUTO", "TWO_PHASE"]),
                     "table.optimizer.distinct-agg.split.enabled": rng.choice(["true", "false"])})
    if cdc:
        sets["table.exec.source.cdc-events-duplicate"] = rng.choice(["false", "false", "true"])
    return sets


def one_query(args, flink, seed, i, workdir, log):
    rng = random.Random(seed * 1000003 + i)
    qdir = os.path.join(workdir, "q%d" % i)
    os.makedirs(qdir, exist_ok=True)
    cdc = is_cdc(seed, i, args.cdc_share)
    if cdc:
        tables = gen.gen_cdc_tables(rng, qdir)
        q = gen.gen_cdc_query(rng, tables)
    else:
        tables = gen.gen_tables(rng, qdir)
        q = gen.gen_query(rng, tables)
    ddls = [t.ddl() for t in tables]
    try:
        flink.reset(ddls)
    except RuntimeError as e:
        return q, [("skip", str(e))]
    outcomes = []
    for par in (1, 2):
        sets = draw_sets(rng, par, cdc)
        exact = q.order == "changelog" and par == 1 and sets["table.exec.mini-batch.enabled"] == "false"
        if q.category == "interval_join" and any(t.has_late_rows() for t in q.tables):
            outcomes.append(("skip", "late rows into a join of two sources: which rows Flink drops depends on "
                             "how far each source has got", par, sets, None, None))
            continue
        if par > 1 and any(t.has_late_rows() for t in q.tables) and q.category in LATE_SENSITIVE:
            outcomes.append(("skip", "late rows at parallelism %d: which rows Flink drops depends on when each "
                             "source subtask's watermark arrives" % par, par, sets, None, None))
            continue
        fres, ftypes = flink.run(sets, q.sql)
        if fres[0] == "skip":
            outcomes.append(("skip", fres[1], par, sets, None, fres))
            continue
        wres = run_weir(args.weir, ddls, sets, q.sql, qdir)
        float_cols = [t for t in ftypes if t in ("DOUBLE", "FLOAT")] if (par > 1 or not exact) else []
        verdict, detail = compare(wres, fres, exact, float_cols, q.key_idx)
        if verdict == "differ":
            known = flink_internal_failure(wres, fres)
            if known:
                verdict, detail = "known", known
        outcomes.append((verdict, detail, par, sets, wres, fres))
        if verdict == "differ":
            break
    return q, outcomes, tables, ddls


def reduce_case(args, flink, q, tables, sets, exact, workdir):
    """Halve each table's rows while the disagreement stays; returns the rows kept per table."""
    kept = {t.name: list(t.rows) for t in tables}

    def still_differs():
        for t in tables:
            t.write(kept[t.name])
        ddls = [t.ddl() for t in tables]
        try:
            flink.reset(ddls)
        except RuntimeError:
            return False
        fres, ftypes = flink.run(sets, q.sql)
        if fres[0] == "skip":
            return False
        wres = run_weir(args.weir, ddls, sets, q.sql, workdir)
        fc = [t for t in ftypes if t in ("DOUBLE", "FLOAT")] if not exact else []
        return compare(wres, fres, exact, fc, q.key_idx)[0] == "differ"

    budget = 24
    for t in tables:
        chunk = max(1, len(kept[t.name]) // 2)
        while chunk >= 1 and budget > 0 and kept[t.name]:
            progress = False
            for start in range(0, len(kept[t.name]), chunk):
                if budget <= 0:
                    break
                trial = kept[t.name][:start] + kept[t.name][start + chunk:]
                saved = kept[t.name]
                kept[t.name] = trial
                budget -= 1
                if still_differs():
                    progress = True
                    break
                kept[t.name] = saved
            if not progress:
                chunk //= 2
    for t in tables:
        t.write(kept[t.name])
    return kept


def write_found(found, seed, i, q, tables, sets, wres, fres, detail):
    os.makedirs(found, exist_ok=True)
    base = os.path.join(found, "%d-%d" % (seed, i))
    with open(base + ".sql", "w", encoding="utf-8") as f:
        f.write("-- flink-differential seed %d query %d (%s): %s\n" % (seed, i, q.category, detail))
        f.write("-- re-run: tests/flink/differential/fuzz.py --seed %d --only %d\n" % (seed, i))
        for t in tables:
            data = open(t.path, encoding="utf-8").read()
            f.write("-- %s (%s):\n" % (os.path.basename(t.path), t.format))
            for line in data.splitlines():
                f.write("--   %s\n" % line)
            f.write(t.ddl().replace(t.path, "$DATA/" + os.path.basename(t.path)) + ";\n")
        for k, v in sets.items():
            f.write("SET '%s' = '%s';\n" % (k, v))
        f.write(q.sql + ";\n")
    with open(base + ".flink.json", "w", encoding="utf-8") as f:
        json.dump(fres, f, ensure_ascii=False, indent=1)
    with open(base + ".weir.json", "w", encoding="utf-8") as f:
        json.dump(wres, f, ensure_ascii=False, indent=1)
    for t in tables:
        shutil.copy(t.path, base + "." + os.path.basename(t.path))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weir", required=True)
    ap.add_argument("-n", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", type=int)
    ap.add_argument("--cdc-share", type=float, default=0.2,
                    help="share of queries over changelog (debezium-json) inputs: 0..1")
    ap.add_argument("--run-dir", default=None)
    ap.add_argument("--found", default=os.path.join(HERE, "..", "found"))
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--report", help="write per-category figures as JSON here")
    ap.add_argument("--expected", help="known differences: lines 'seed query reason'")
    args = ap.parse_args()
    args.weir = os.path.abspath(args.weir)
    run_dir = args.run_dir or os.path.join(flinkctl.ROOT, "build-test", "flink-run")
    run = flinkctl.FlinkRun(run_dir)
    if not run.running() and not run.start():
        if run.info is None:
            print("flink-differential: 0/0 agree (0 invalid on both, %d skipped): Flink cannot be installed here" % args.n)
            return 77
        return 1
    flink = FlinkSide(run)
    expected = {}
    if args.expected and os.path.exists(args.expected):
        for line in open(args.expected, encoding="utf-8"):
            parts = line.split(None, 2)
            if len(parts) == 3 and not line.startswith("#"):
                expected[(int(parts[0]), int(parts[1]))] = parts[2].strip()
    workdir = tempfile.mkdtemp(prefix="flink-diff-")
    stats = {}
    agree = invalid = skipped = differ = msg_same = 0
    total = 0
    run_skips = {}
    idx = [args.only] if args.only is not None else range(args.n)
    t0 = time.time()
    for i in idx:
        total += 1
        res = one_query(args, flink, args.seed, i, workdir, None)
        q, outcomes = res[0], res[1]
        cat = stats.setdefault(q.category, {"runs": 0, "agree": 0, "invalid": 0, "differ": 0, "skip": 0})
        verdicts = [o[0] for o in outcomes]
        known = expected.get((args.seed, i))
        if "known" in verdicts and "differ" not in verdicts:
            known = outcomes[verdicts.index("known")][1]
            verdicts = ["differ" if v == "known" else v for v in verdicts]
        if known and "differ" in verdicts:
            cat["differ"] += 1
            print("EXPECTED seed %d query %d [%s]: %s" % (args.seed, i, q.category, known))
        elif "differ" in verdicts:
            differ += 1
            cat["differ"] += 1
            o = outcomes[verdicts.index("differ")]
            print("DIFFER seed %d query %d [%s, parallelism %d]: %s\n  %s" % (args.seed, i, q.category, o[2], o[1], q.sql))
            print("  weir:  %s" % json.dumps(o[4], ensure_ascii=False)[:400])
            print("  flink: %s" % json.dumps(o[5], ensure_ascii=False)[:400])
            tables, sets = res[2], o[3]
            exact = q.order == "changelog" and o[2] == 1 and sets["table.exec.mini-batch.enabled"] == "false"
            if not args.no_reduce:
                reduce_case(args, flink, q, tables, sets, exact, os.path.join(workdir, "q%d" % i))
                w2 = run_weir(args.weir, [t.ddl() for t in tables], sets, q.sql, os.path.join(workdir, "q%d" % i))
                flink.reset([t.ddl() for t in tables])
                f2 = flink.run(sets, q.sql)[0]
                write_found(args.found, args.seed, i, q, tables, sets, w2, f2, o[1])
            else:
                write_found(args.found, args.seed, i, q, tables, sets, o[4], o[5], o[1])
        elif all(v == "skip" for v in verdicts):
            skipped += 1
            cat["skip"] += 1
            print("SKIP seed %d query %d: %s" % (args.seed, i, outcomes[verdicts.index("skip")][1]))
        elif all(v in ("agree-invalid", "skip") for v in verdicts):
            invalid += 1
            agree += 1
            cat["invalid"] += 1
            if all(o[1] == "same message" for o in outcomes if o[0] != "skip"):
                msg_same += 1
            elif not args.quiet:
                o = [x for x in outcomes if x[0] != "skip"][0]
                print("MESSAGE seed %d query %d: %s\n  weir:  %s\n  flink: %s" % (
                    args.seed, i, q.sql, norm_msg(o[4][1])[:300], norm_msg(o[5][1])[:300]))
        else:
            agree += 1
            cat["agree"] += 1
        if known and "differ" not in verdicts:
            print("XPASS seed %d query %d: remove it from %s" % (args.seed, i, args.expected))
        cat["runs"] += len(outcomes)
        for o in outcomes:
            if o[0] == "skip":
                run_skips[o[1]] = run_skips.get(o[1], 0) + 1
    groups = {}
    for c in sorted(stats):
        s = stats[c]
        print("  %-14s agree %3d  invalid-on-both %3d  differ %3d  skipped %3d" % (c, s["agree"], s["invalid"], s["differ"], s["skip"]))
        g = groups.setdefault("changelog input (cdc_*)" if c.startswith("cdc_") else "append-only input", [0] * 4)
        for k, key in enumerate(("agree", "invalid", "differ", "skip")):
            g[k] += s[key]
    for g, (a, inv, d, sk) in sorted(groups.items()):
        print("  %s: %d/%d agree (%d invalid on both, %d skipped)" % (g, a + inv, a + inv + d, inv, sk))
    for reason, n in sorted(run_skips.items()):
        print("  %d runs not compared: %s" % (n, reason))
    print("  error messages equal on %d of %d queries both engines reject" % (msg_same, invalid))
    print("  %.0f s" % (time.time() - t0))
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"seed": args.seed, "n": total, "agree": agree, "invalid": invalid, "skipped": skipped,
                       "differ": differ, "messages_equal": msg_same, "categories": stats}, f, indent=1)
    shutil.rmtree(workdir, ignore_errors=True)
    print("flink-differential: %d/%d agree (%d invalid on both, %d skipped)" % (agree, total - skipped, invalid, skipped))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
