#!/usr/bin/env bash
# tests/plans/compare.sh <build-dir>
# Compares weir's COMPILE PLAN output with Flink's stored compiled plans for the conformance
# cases listed in tests/plans/flink_restore_plans.txt: the sequence of exec nodes (their "type",
# in "nodes" array order) and each node's "state" list (name and ttl).
# For each case it builds a sql-client script from <conformance>/cases/<case>.case (the corpus is
# ../shared/conformance beside the repository, or $WEIR_CONFORMANCE_DIR / $WEIR_CONFORMANCE) the
# way src/session/conformance.c does (sources: filesystem + changelog-csv with the case's
# changelog mode; sinks: print with the case's sink changelog mode, or the values-sink default),
# the case's `config:` lines as SET statements, and `COMPILE PLAN ... FOR <the case's INSERT>`.
# Output: one "PASS <case>", "FAIL <case>: <diff>" or "SKIP <case>: <reason>" line per case.
# A block with a "# known difference:" line is reported as SKIP. Exit 1 on any failure, 77 when
# the conformance corpus is absent.
set -u
BUILD="${1:-build}"
HERE="$(cd "$(dirname "$0")" && pwd)"
CASES="${WEIR_CONFORMANCE_DIR:-${WEIR_CONFORMANCE:-$HERE/../../../shared/conformance}}/cases"
if [[ ! -d "$CASES" ]]; then echo "SKIP plans: $CASES not found"; exit 77; fi
if [[ ! -x "$BUILD/weir" ]]; then echo "FAIL plans: $BUILD/weir not found"; exit 1; fi
WORK="$(mktemp -d "${TMPDIR:-/tmp}/weir-plans-XXXXXX")"
# WEIR_PLANS_KEEP=1 keeps the generated scripts and plans (for diagnosing a difference)
if [[ -n "${WEIR_PLANS_KEEP:-}" ]]; then echo "plans: keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
WEIR_EMBEDDED=1 python3 - "$BUILD/weir" "$HERE/flink_restore_plans.txt" "$CASES" "$WORK" <<'PY'
import difflib, json, os, re, subprocess, sys

weir, datafile, cases, work = sys.argv[1:5]

def parse_data(path):
    blocks, cur = [], None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("case "):
            cur = {"name": line[5:].strip(), "nodes": [], "known": None}
            blocks.append(cur)
        elif cur is None or not line.strip():
            continue
        elif line.startswith("# known difference:"):
            cur["known"] = line[len("# known difference:"):].strip()
        elif line.startswith("#"):
            continue
        else:
            cur["nodes"].append(line.strip())
    return blocks

def parse_case(path):
    objs, cfg, sql, cur, reqs = [], [], None, None, []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]; i += 1
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"^([a-z-]+):(.*)$", line)
        if not m:
            continue
        key, val = m.group(1), m.group(2).strip()
        if val == "" and key not in ("source", "sink"):
            body = []
            while i < len(lines) and lines[i] != ".end":
                body.append(lines[i]); i += 1
            i += 1
            text = "\n".join(body)
            if key == "sql":
                sql = text
            elif key == "ddl" and cur is not None:
                cur["ddl"] = text
            continue
        if key in ("source", "sink"):
            cur = {"name": val, "sink": key == "sink", "mode": None, "ddl": None}
            objs.append(cur)
        elif key in ("changelog-mode", "sink-changelog-mode") and cur is not None:
            cur["mode"] = val
        elif key == "config":
            cfg.append(val)
        elif key == "requires":
            reqs.append(val)
    return objs, cfg, sql, reqs

def split_sql(text):
    out, buf, q = [], [], None
    for ch in text:
        if q:
            if ch == q: q = None
        elif ch in "'`\"":
            q = ch
        elif ch == ";":
            s = "".join(buf).strip()
            if s: out.append(s)
            buf = []; continue
        buf.append(ch)
    s = "".join(buf).strip()
    if s: out.append(s)
    return out

def node_line(n):
    line = n.get("type", "?")
    st = n.get("state") or []
    if st:
        line += " [state: " + ", ".join("%s=%s" % (s.get("name"), s.get("ttl")) for s in st) + "]"
    return line

def weir_plan(case, idx):
    objs, cfg, sql, reqs = parse_case(os.path.join(cases, case + ".case"))
    for r in reqs:
        if r.startswith("java-udf") or r.startswith("table-api") or r == "ptf":
            return None, "SKIP:requires " + r.split(" ")[0]
    if sql is None:
        return None, "case has no sql block"
    stmts = []
    for c in cfg:
        if "=" in c:
            k, v = c.split("=", 1)
            stmts.append("SET '%s' = '%s'" % (k, v))
    for o in objs:
        if not o["ddl"] or "'connector' = '<abstract>'" not in o["ddl"]:
            return None, "DDL of %s has no '<abstract>' connector" % o["name"]
        if o["sink"]:
            mode = o["mode"] or ("I,UA,D" if re.search("PRIMARY KEY", o["ddl"], re.I) else "I,UB,UA,D")
            w = "'connector' = 'print', 'print-identifier' = '%s', 'sink.changelog-mode' = '%s'" % (o["name"], mode)
        else:
            p = os.path.join(work, "%s.csv" % o["name"])
            open(p, "w").close()
            w = ("'connector' = 'filesystem', 'path' = '%s', 'format' = 'changelog-csv', "
                 "'changelog-csv.changelog-mode' = '%s'" % (p, o["mode"] or "I"))
        stmts.append(o["ddl"].replace("'connector' = '<abstract>'", w, 1).rstrip().rstrip(";"))
    plan = os.path.join(work, "plan-%d.json" % idx)
    inserts = 0
    for s in split_sql(sql):
        if re.match(r"(?is)^\s*INSERT\b", s):
            inserts += 1
            s = "COMPILE PLAN 'file://%s' FOR %s" % (plan, s)
        stmts.append(s)
    if inserts != 1:
        return None, "case has %d INSERT statements" % inserts
    script = os.path.join(work, "case-%d.sql" % idx)
    with open(script, "w") as f:
        f.write(";\n".join(stmts) + ";\n")
    try:
        r = subprocess.run([weir, "sql-client", "-f", script], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "weir timed out"
    if not os.path.exists(plan):
        err = [l for l in (r.stdout + r.stderr).splitlines() if "ERROR" in l or "Exception" in l or "Caused by" in l]
        return None, "no plan written: " + (" | ".join(err[:3]) or "exit %d" % r.returncode)
    try:
        doc = json.load(open(plan))
    except ValueError as e:
        return None, "plan is not JSON: %s" % e
    return [node_line(n) for n in doc.get("nodes", [])], None

failed = 0
for idx, b in enumerate(parse_data(datafile)):
    name = b["name"]
    if not os.path.exists(os.path.join(cases, name + ".case")):
        print("SKIP %s: case file not found" % name); continue
    got, err = weir_plan(name, idx)
    if err and err.startswith("SKIP:"):
        print("SKIP %s: %s" % (name, err[5:])); continue
    if err:
        if b["known"]:
            print("SKIP %s: known difference: %s" % (name, b["known"]))
        else:
            print("FAIL %s: %s" % (name, err)); failed += 1
        continue
    if got == b["nodes"]:
        print("PASS %s%s" % (name, " (listed as a known difference but matches now: drop the comment)" if b["known"] else ""))
        continue
    diff = []
    sm = difflib.SequenceMatcher(a=b["nodes"], b=got, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        for k in range(i1, i2):
            diff.append("flink node %d '%s' missing in weir" % (k + 1, b["nodes"][k]) if op == "delete" else
                        "flink node %d '%s'" % (k + 1, b["nodes"][k]))
        for k in range(j1, j2):
            diff.append("weir node %d '%s'" % (k + 1, got[k]) + (" not in flink" if op == "insert" else ""))
    if b["known"]:
        print("SKIP %s: known difference: %s" % (name, b["known"]))
    else:
        print("FAIL %s: %s" % (name, "; ".join(diff))); failed += 1
sys.exit(1 if failed else 0)
PY
