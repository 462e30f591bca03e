#!/usr/bin/env python3
"""scenario.py — one fixed conversation with a SQL Gateway REST endpoint (Flink's or weir's), in
Flink's protocol, recorded as request/response pairs.

Contract: `scenario.py record --port P --out F.json` sends the scenario below to 127.0.0.1:P and
writes every exchange ({method, path, body, status, response}) to F.json; handles and tokens the
server hands out are substituted into later requests. Result fetching polls each operation's
result until EOS (NOT_READY pages are recorded too; compare.py drops them, their number depends on
timing). `scenario.py compare EXPECTED.json ACTUAL.json` compares two recordings modulo ids,
tokens, timestamps and page splits (see normalize()); exit 0 when equal, 1 with the differences.
The recordings of Flink's own gateway are kept in tests/gateway/flink-recorded/.
"""
import json
import re
import sys
import time
import urllib.error
import urllib.request

VERSION = "v3"


class Conv:
    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.log = []

    def call(self, method, path, body=None, label=None, keep=True):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        try:
            resp = json.loads(raw) if raw else None
        except ValueError:
            resp = {"raw": raw.decode(errors="replace")}
        if keep:
            self.log.append(dict(label=label or path, method=method, path=path, body=body,
                                 status=status, response=resp))
        return status, resp

    def statement(self, sh, sql, label, config=None, cancel=False):
        body = {"statement": sql}
        if config is not None:
            body["executionConfig"] = config
        st, r = self.call("POST", "/%s/sessions/%s/statements" % (VERSION, sh), body, label + ": submit")
        if st != 200:
            return
        oh = r["operationHandle"]
        ob = "/%s/sessions/%s/operations/%s" % (VERSION, sh, oh)
        if cancel:
            time.sleep(1)
            self.call("POST", ob + "/cancel", None, label + ": cancel")
            self.call("GET", ob + "/status", None, label + ": status after cancel")
            self.call("DELETE", ob + "/close", None, label + ": close")
            return
        uri = ob + "/result/0?rowFormat=JSON"
        deadline = time.time() + 120
        while uri and time.time() < deadline:
            st, r = self.call("GET", uri, None, label + ": fetch")
            if st != 200:
                break
            if r.get("resultType") == "NOT_READY":
                time.sleep(0.2)
            uri = r.get("nextResultUri")
            if uri and "rowFormat" not in uri:
                uri += ("&" if "?" in uri else "?") + "rowFormat=JSON"
        self.call("GET", ob + "/status", None, label + ": status")
        self.call("DELETE", ob + "/close", None, label + ": close")


def run(port):
    c = Conv(port)
    c.call("GET", "/api_versions")
    c.call("GET", "/info")
    c.call("GET", "/v1/info")
    st, r = c.call("POST", "/%s/sessions" % VERSION,
                   {"sessionName": "gw-scenario", "properties": {"parallelism.default": "1",
                                                                 "table.local-time-zone": "UTC"}})
    sh = r["sessionHandle"]
    sb = "/%s/sessions/%s" % (VERSION, sh)
    c.call("GET", sb, label="get session config")
    c.call("POST", sb + "/heartbeat", None)
    c.call("POST", sb + "/configure-session", {"statement": "SET 'pipeline.name' = 'gw-scenario'"},
           label="configure-session SET")
    c.call("POST", sb + "/configure-session",
           {"statement": "CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES (1, 'a')) AS t(k, s)"},
           label="configure-session CREATE VIEW")
    c.call("POST", sb + "/configure-session", {"statement": "SELECT 1"}, label="configure-session SELECT")
    c.call("GET", sb + "/complete-statement?statement=SELECT&position=6", label="complete-statement GET")
    c.call("POST", sb + "/complete-statement", {"statement": "SHOW TAB", "position": 8},
           label="complete-statement POST")
    c.statement(sh, "CREATE TABLE src (k INT, v STRING) WITH ('connector' = 'datagen', "
                "'number-of-rows' = '3', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', "
                "'fields.k.end' = '3', 'fields.v.length' = '4')", "create table")
    c.statement(sh, "SET 'sql-client.execution.result-mode' = 'tableau'", "set")
    c.statement(sh, "SHOW TABLES", "show tables")
    c.statement(sh, "SELECT k, s FROM v", "select view")
    c.statement(sh, "SELECT CAST(1 AS TINYINT) AS ti, CAST(2 AS SMALLINT) AS si, 3 AS i, "
                "CAST(4 AS BIGINT) AS bi, CAST(1.5 AS DECIMAL(10, 2)) AS d, CAST(2.5 AS DOUBLE) AS db, "
                "CAST(0.5 AS FLOAT) AS f, TRUE AS b, 'x' AS c, CAST('yz' AS VARCHAR(5)) AS vc, "
                "DATE '2024-01-02' AS dt, TIME '10:11:12' AS tm, TIMESTAMP '2024-01-02 10:11:12.345' AS ts, "
                "CAST(NULL AS INT) AS n, ARRAY[1, 2] AS arr, MAP['a', 1] AS mp, ROW(1, 'r') AS rw",
                "types", config={"execution.runtime-mode": "batch"})
    c.statement(sh, "SELECT k % 2 AS g, COUNT(*) AS c FROM src GROUP BY k % 2", "streaming agg",
                config={"execution.runtime-mode": "streaming"})
    c.statement(sh, "SELECT k % 2 AS g, COUNT(*) AS c FROM src GROUP BY k % 2", "batch agg",
                config={"execution.runtime-mode": "batch"})
    c.statement(sh, "SELECT * FROM nope", "error unknown table")
    c.statement(sh, "SELECT nope FROM src", "error unknown column")
    c.statement(sh, "SELECT * FROM (VALUES (1)) AS t(x) WHERE x > 5", "empty query",
                config={"execution.runtime-mode": "batch"})
    c.statement(sh, "CREATE TABLE endless (k BIGINT) WITH ('connector' = 'datagen', "
                "'rows-per-second' = '5')", "create endless")
    c.statement(sh, "SELECT k FROM endless", "cancel running query",
                config={"execution.runtime-mode": "streaming"}, cancel=True)
    c.call("GET", "/%s/sessions/00000000-0000-0000-0000-000000000000" % VERSION, label="unknown session")
    c.call("GET", sb + "/operations/00000000-0000-0000-0000-000000000000/status", label="unknown operation")
    c.call("GET", "/%s/nothing" % VERSION, label="unknown path")
    c.call("DELETE", sb, label="close session")
    c.call("POST", sb + "/heartbeat", None, label="heartbeat closed session")
    return c.log


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
JOBID = re.compile(r"\b[0-9a-f]{32}\b")


def scrub(s):
    s = UUID.sub("<uuid>", s)
    return JOBID.sub("<jobid>", s)


def error_head(errors):
    """What a client shows of an error body: Flink's first entry (the handler's message) and the
    last 'Caused by:' line of the stack trace entry (the root cause), ids scrubbed."""
    head = scrub(errors[0].splitlines()[0]) if errors and errors[0] else ""
    cause = ""
    for e in errors:
        for line in e.splitlines():
            if line.startswith("Caused by: "):
                cause = line[len("Caused by: "):]
    return {"first": head, "root": scrub(cause), "n": len(errors)}


def normalize(log):
    """Per label: the status and the response with ids scrubbed; a fetch sequence is merged into
    one entry (its pages' kinds in order without NOT_READY, columns, all rows, jobID present)."""
    out = []
    for e in trim(log):
        resp = e["response"]
        lab = scrub(e["label"])
        if isinstance(resp, dict) and "errors" in resp:
            resp = {"errors": error_head(resp["errors"])}
        elif lab.endswith(": fetch"):
            merged = out[-1] if out and out[-1]["label"] == lab else None
            if merged is None:
                merged = dict(label=lab, status=e["status"], pages=[], data=[], columns=None,
                              resultKind=None, isQueryResult=None, jobID=None, rowFormat=None)
                out.append(merged)
            if resp.get("resultType") != "NOT_READY" and (not merged["pages"] or
                                                         merged["pages"][-1] != resp.get("resultType")):
                merged["pages"].append(resp.get("resultType"))
            for k in ("resultKind", "isQueryResult"):
                if k in resp:
                    merged[k] = resp[k]
            if "jobID" in resp:
                merged["jobID"] = "<jobid>" if resp["jobID"] else None
            res = resp.get("results") or {}
            if res.get("columns"):
                merged["columns"] = res["columns"]
            if "rowFormat" in res:
                merged["rowFormat"] = res["rowFormat"]
            merged["data"] += res.get("data") or []
            merged["keys"] = sorted(set(merged.get("keys", [])) | set(resp.keys()))
            continue
        out.append(dict(label=lab, status=e["status"], response=json.loads(scrub(json.dumps(resp)))))
    # a batch query's rows come in no defined order (Flink's hash aggregation, weir's own)
    for m in out:
        if m["label"].startswith("batch") and "data" in m:
            m["data"].sort(key=lambda r: json.dumps(r, sort_keys=True))
    # a fetch that only saw NOT_READY (the statement failed, its error comes next) says nothing
    return [m for m in out if not ("pages" in m and not m["pages"] and m["columns"] is None)]


SESSION_KEYS = ("parallelism.default", "table.local-time-zone", "pipeline.name")


def trim(log):
    """What is kept of a recording: NOT_READY pages and repeated empty PAYLOAD pages dropped, the
    session's properties limited to the ones the scenario sets, error texts to their first line
    and their 'Caused by:' lines (stack frames say nothing about the protocol)."""
    out = []
    for e in log:
        r = e["response"]
        if e["label"].endswith(": fetch") and isinstance(r, dict):
            if r.get("resultType") == "NOT_READY" and out and out[-1]["label"] == e["label"]:
                continue
            if (r.get("resultType") == "PAYLOAD" and not (r.get("results") or {}).get("data") and out
                    and out[-1]["label"] == e["label"] and out[-1]["response"].get("resultType") == "PAYLOAD"):
                continue
        if isinstance(r, dict) and "properties" in r:
            r = dict(r, properties={k: v for k, v in r["properties"].items() if k in SESSION_KEYS})
        if isinstance(r, dict) and isinstance(r.get("errors"), list):
            errs = []
            for x in r["errors"]:
                lines = x.splitlines()
                errs.append("\n".join(lines[:1] + [l for l in lines[1:] if l.startswith("Caused by: ")]))
            r = dict(r, errors=errs)
        out.append(dict(e, response=r))
    return out


def compare(exp, act):
    a, b = normalize(exp), normalize(act)
    diffs = []
    if len(a) != len(b):
        diffs.append("%d exchanges expected, %d made" % (len(a), len(b)))
    for x, y in zip(a, b):
        if x != y:
            diffs.append("%s:\n  flink: %s\n  weir:  %s" % (x["label"], json.dumps(x, sort_keys=True),
                                                            json.dumps(y, sort_keys=True)))
    return diffs


def main():
    if sys.argv[1] == "record":
        port = int(sys.argv[sys.argv.index("--port") + 1])
        out = sys.argv[sys.argv.index("--out") + 1]
        log = trim(run(port))
        with open(out, "w") as f:
            json.dump(log, f, indent=1, sort_keys=True)
            f.write("\n")
        return 0
    if sys.argv[1] == "compare":
        with open(sys.argv[2]) as f:
            exp = json.load(f)
        with open(sys.argv[3]) as f:
            act = json.load(f)
        d = compare(exp, act)
        for x in d:
            print(x)
        print("%d differences" % len(d))
        return 1 if d else 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
