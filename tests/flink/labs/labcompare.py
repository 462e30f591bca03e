#!/usr/bin/env python3
"""labcompare.py — the ONE place where the seed labs' artifacts and REST responses of weir and of
Apache Flink are made comparable and compared, field by field.

An artifact is turned into a flat list of fields (name -> value); two artifacts agree on a field
when both have it with equal values after the rules below. Every rule applies to both engines
alike, says why it exists, and none hides a value a grader or a user could rely on.

  N1 paths       The lab's output folder becomes $LAB and the data folder $DATA (in plan files,
                 transcripts, REST documents): they say where the run lives, not what an engine did.
  N2 plans       Compiled plans (COMPILE PLAN files) go through tests/flink/plan_normalize.py
                 (R4 node ids renumbered in node order, R5 key order); then each leaf is a field,
                 named by its path: nodes.5.state.0.ttl.
  N3 transcripts SQL-client transcripts (window.out, rocks.out) go through tests/flink/normalize.py
                 (the rules of the golden tests: colour codes, the history-file line, the statement
                 echo of Flink's line reader, elapsed times, job ids). Then each cell of each result
                 table row is a field (table1.row3.fare) and each other line is one (line.N).
  N4 EXPLAIN     EXPLAIN results are split into sections (plan_normalize.sections). The JSON
                 execution plan goes through plan_normalize.json_execution_plan (R3 stream-graph and
                 exec-node ids renumbered) and each leaf is a field; in the text sections each line
                 is a field (section:line N, lines paired by a longest-common-subsequence match so an
                 extra line costs one field, not every line after it).
  N5 REST        (rest_fields) job ids become <jid>, vertex ids <vertex N> (N by first appearance),
                 the task manager's id <tm>; request/trigger ids <id>; an exec-node id [N] in a
                 vertex name or description becomes its rank among the ids of the job's vertex
                 names (Flink draws them from one counter shared by the sessions of its process,
                 so concurrent statements leave gaps: only their order means anything). Values that are clock
                 readings or measurements of this machine (TIME_KEYS: start/end times, durations,
                 "now", timestamps, heartbeats; MEASURED_KEYS: bytes, busy/idle times, memory and
                 hardware figures; everything below such a key, e.g. the aggregated statistics of a
                 measurement) are compared by kind only: "int:-1" when they say "not yet"
                 (Flink's -1), else the JSON type. Everything else — key sets at every level, value
                 types, vertex names and counts, parallelism, statuses, plan node descriptions and
                 ship strategies, state backend, checkpoint configuration, record counts — is
                 compared exactly. Lists of jobs are reduced to the entry of the lab's job (the
                 clusters have run other jobs before).
  N6 reports     report.json / answers.json: each key is a field, compared exactly.

A field whose name matches a line of tests/flink/labs/EXPECTED_DIFFERENCES (`<artifact>:<field
glob><TAB><reason>`) and differs is an expected difference; an unlisted difference fails.
"""
import difflib
import fnmatch
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import normalize as tn        # noqa: E402
import plan_normalize as pn   # noqa: E402

MISSING = "<missing>"

TIME_KEYS = {"start-time", "start_time", "end-time", "duration", "now", "last-modification", "timestamp",
             "trigger_timestamp", "latest_ack_timestamp", "restore_timestamp", "failure_timestamp",
             "timeSinceLastHeartbeat", "net-runtime", "end_to_end_duration", "refresh-interval"}
TIME_PARENTS = {"timestamps", "status-duration"}
MEASURED_KEYS = {"read-bytes", "write-bytes", "accumulated-backpressured-time", "accumulated-idle-time",
                 "accumulated-busy-time", "checkpointed_size", "state_size", "cpuCores",
                 "physicalMemory", "freeMemory", "managedMemory", "taskHeapMemory", "taskOffHeapMemory",
                 "networkMemory", "dataPort", "jmxPort", "heapUsed", "heapCommitted", "heapMax",
                 "nonHeapUsed", "nonHeapCommitted", "nonHeapMax", "directCount", "directUsed",
                 "directMax", "mappedCount", "mappedUsed", "mappedMax", "memorySegmentsAvailable",
                 "memorySegmentsTotal", "nettyShuffleMemorySegmentsAvailable",
                 "nettyShuffleMemorySegmentsUsed", "nettyShuffleMemorySegmentsTotal",
                 "nettyShuffleMemoryAvailable", "nettyShuffleMemoryUsed", "nettyShuffleMemoryTotal",
                 "frameworkHeap", "taskHeap", "frameworkOffHeap", "taskOffHeap", "jvmMetaspace",
                 "jvmOverhead", "totalFlinkMemory", "totalProcessMemory", "stringifiedThreadInfo",
                 "threadName", "path", "endpoint", "timezone-offset", "flink-revision", "flink-commit",
                 "min", "max", "avg", "p50", "p90", "p95", "p99", "p999",
                 # set once the metrics of every subtask have been reported: a matter of timing
                 "read-bytes-complete", "write-bytes-complete", "read-records-complete",
                 "write-records-complete",
                 # what else ran on the cluster before (the test run's other suites)
                 "jobs-running", "jobs-finished", "jobs-cancelled", "jobs-failed"}


# ------------------------------------------------------------------------------- field lists
def _flat(v, path, out):
    if isinstance(v, dict):
        if not v:
            out[path] = {}
        for k in v:
            _flat(v[k], (path + "." if path else "") + str(k), out)
    elif isinstance(v, list):
        if not v:
            out[path] = []
        for i, x in enumerate(v):
            _flat(x, (path + "." if path else "") + str(i), out)
    else:
        out[path] = v
    return out


def flat(doc):
    return _flat(doc, "", {})


def paths(text, lab, data):
    """N1."""
    for real, ph in sorted(((lab, "$LAB"), (data, "$DATA")), key=lambda x: -len(x[0])):
        if real:
            text = text.replace(real, ph)
    return text


def plan_fields(text):
    """N2: a compiled plan -> fields."""
    return flat(json.loads(pn.compiled_plan(text)))


def table_fields(text):
    """N3 (second half): a normalized transcript -> fields."""
    out, lines, i, t = {}, text.split("\n"), 0, 0
    n = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("+-") and i + 2 < len(lines) and lines[i + 1].startswith("|") \
                and lines[i + 2].startswith("+-"):
            t += 1
            cols = [c.strip() for c in lines[i + 1].strip("|").split("|")]
            out["table%d.columns" % t] = cols
            i += 3
            r = 0
            while i < len(lines) and lines[i].startswith("|"):
                r += 1
                cells = [c.strip() for c in lines[i].strip("|").split("|")]
                for c, v in zip(cols, cells):
                    out["table%d.row%d.%s" % (t, r, c)] = v
                if len(cells) != len(cols):
                    out["table%d.row%d.<cells>" % (t, r)] = len(cells)
                i += 1
            out["table%d.rows" % t] = r
            if i < len(lines) and lines[i].startswith("+-"):
                i += 1
            continue
        n += 1
        out["line.%d" % n] = ln
        i += 1
    return out


def transcript_fields(text, script, init, lab, data, source):
    """N3: a SQL-client transcript -> fields."""
    norm = tn.normalize(text, script, paths=((lab, "$LAB"), (data, "$DATA")), source=source, init=init)
    return table_fields(norm), norm


def explain_fields(text):
    """N4: one EXPLAIN result -> fields (text lines are paired later, see compare_explain)."""
    out = {}
    for title, body in pn.sections(text):
        if title == "Physical Execution Plan":
            try:
                doc = json.loads(pn.json_execution_plan(body))
            except ValueError:
                out[title + ":text"] = body
                continue
            for k, v in flat(doc).items():
                out[title + ":" + k] = v
        else:
            out[title + ":lines"] = body.split("\n")
    return out


# ------------------------------------------------------------------------------- REST (N5)
def _kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int:-1" if v == -1 else "int"
    if isinstance(v, float):
        return "number"
    if v == "NaN":
        return "number"     # Flink writes a double it has no value for as the string "NaN"
    if isinstance(v, str):
        return "string"
    return type(v).__name__


def rest_fields(doc, jid=None, ids=None, measured=()):
    """N5: a REST document -> fields. `ids` maps real ids to placeholders (shared by the documents
    of one engine so a vertex id means the same vertex in /jobs/:jid and /jobs/:jid/plan)."""
    ids = {} if ids is None else ids
    if jid:
        ids.setdefault(jid, "<jid>")

    def ident(s):
        if s in ids:
            return ids[s]
        return s

    def walk(v, path, key, parent, out, meas=False):
        meas = meas or key in MEASURED_KEYS or key in measured or key in TIME_PARENTS
        if isinstance(v, dict):
            if not v:
                out[path] = {}
            for k in v:
                walk(v[k], (path + "." if path else "") + k, k, key, out, meas)
        elif isinstance(v, list):
            if not v:
                out[path] = []
            for i, x in enumerate(v):
                walk(x, (path + "." if path else "") + str(i), key, key, out, meas)
        else:
            if isinstance(v, str) and re.fullmatch(r"[0-9a-f]{32}", v):
                v = ids.get(v, "<id>")
            elif isinstance(v, str) and key in ("id", "taskmanager-id") and re.fullmatch(r".+:\d+-[0-9a-f]{6}", v):
                v = "<tm>"
            elif isinstance(v, str):
                for real, ph in ids.items():
                    v = v.replace(real, ph)
            if meas:
                v = "<%s>" % _kind(v).replace("int:-1", "int")
            elif key in TIME_KEYS:
                v = "<%s>" % _kind(v)
            out[path] = v

    out = {}
    walk(doc, "", "", "", out)
    return out


# ------------------------------------------------------------------------------- comparison
class Expected:
    """tests/flink/labs/EXPECTED_DIFFERENCES: `<artifact>:<field glob><TAB><reason>` lines."""

    def __init__(self, path):
        self.rules = []
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for ln in f:
                    ln = ln.rstrip("\n")
                    if not ln.strip() or ln.startswith("#"):
                        continue
                    pat, _, why = ln.partition("\t")
                    self.rules.append([pat.strip(), why.strip() or "(no reason given)", 0])

    def reason(self, artifact, field):
        name = "%s:%s" % (artifact, field)
        for r in self.rules:
            if fnmatch.fnmatchcase(name, r[0]):
                r[2] += 1
                return r[1]
        return None

    def unused(self):
        return [r[0] for r in self.rules if r[2] == 0]


def diff_fields(a, b):
    """(number of fields, [(field, flink value, weir value)]) of two field dicts."""
    names = list(a) + [k for k in b if k not in a]
    out = []
    for k in names:
        x, y = a.get(k, MISSING), b.get(k, MISSING)
        if x != y:
            out.append((k, x, y))
    return len(names), out


def diff_lines(name, a, b):
    """Text lines paired by a longest common subsequence: (fields, differences)."""
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    total, out = 0, []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            total += i2 - i1
            continue
        n = max(i2 - i1, j2 - j1)
        total += n
        for k in range(n):
            x = a[i1 + k] if i1 + k < i2 else MISSING
            y = b[j1 + k] if j1 + k < j2 else MISSING
            out.append(("%s:line %d" % (name, (i1 + k if i1 + k < i2 else j1 + k) + 1), x, y))
    return total, out


def diff_explain(a, b):
    total, out = 0, []
    names = list(a) + [k for k in b if k not in a]
    for k in names:
        x, y = a.get(k, MISSING), b.get(k, MISSING)
        if k.endswith(":lines") and isinstance(x, list) and isinstance(y, list):
            n, d = diff_lines(k[:-len(":lines")], x, y)
            total, out = total + n, out + d
        else:
            total += 1
            if x != y:
                out.append((k, x, y))
    return total, out


def short(v, n=110):
    s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    s = " ".join(s.split())
    return s if len(s) <= n else s[:n - 3] + "..."
