#!/usr/bin/env python3
"""measure_file_sink.py — records in/out per REST vertex of a streaming filesystem sink on real Flink
(the oracle for tests/cluster/compact_vertices.sh).

Contract: against a Flink cluster started with `flinkctl.py start --run-dir $FLINK_RUN_DIR`, runs
one INSERT of a datagen sequence into a filesystem sink through Flink's SQL client and prints each
job vertex's name, parallelism, read-records / write-records (total and per subtask), the completed
checkpoints and the files written. Usage:
  measure_file_sink.py NAME PARALLELISM PARTITIONED(0/1) ROWS_PER_S(0: unlimited) ROWS(0: unbounded)
                       CHECKPOINT_INTERVAL(0: none) [EXTRA_SQL [SECONDS_BEFORE_CANCEL]]
  COMPACT=0 leaves 'auto-compaction' out; WORK_DIR (default /tmp/compact-m) holds scripts and output.
Measured 2026-12-04 on Flink 2.3.0, e.g. `measure_file_sink.py A2p 2 1 0 10 0`:
  Source: src[1] -> Calc[2] -> streaming-writer  p2 in 0 out 8 [(0,4),(0,4)]
  compact-coordinator p1 in 8 out 4; compact-operator p2 in 8 out 4 [(4,2),(4,2)];
  PartitionCommitter -> end: Writer p1 in 4 out 0.
"""
import sys, os, json, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flinkctl import FlinkRun
RUN = os.environ.get("FLINK_RUN_DIR", "/tmp/compact-flink")
WORK = os.environ.get("WORK_DIR", "/tmp/compact-m")
os.makedirs(WORK, exist_ok=True)
run = FlinkRun(RUN)
name, par, part, rate, nrows, ckpt, extra = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4], sys.argv[5], sys.argv[6], (sys.argv[7] if len(sys.argv) > 7 else "")
compact = os.environ.get("COMPACT", "1") == "1"
out = f"{WORK}/out-{name}"
os.system(f"rm -rf {out}")
rows = f"'number-of-rows' = '{nrows}'," if nrows != "0" else ""
rps = f"'rows-per-second' = '{rate}'," if rate != "0" else ""
cols = "id INT, s STRING, p INT" if part else "id INT, s STRING"
sel = "id, CAST(id * 7 AS STRING), id % 3" if part else "id, CAST(id * 7 AS STRING)"
pb = "PARTITIONED BY (p)" if part else ""
pc = ", 'sink.partition-commit.policy.kind' = 'success-file'" if part else ""
ac = ", 'auto-compaction' = 'true'" if compact else ""
sync = "true" if nrows != "0" else "false"
ck = f"SET 'execution.checkpointing.interval' = '{ckpt}';" if ckpt != "0" else ""
job = f"""SET 'pipeline.name' = 'cm-{name}';
SET 'parallelism.default' = '{par}';
SET 'table.dml-sync' = '{sync}';
{ck}
{extra}
CREATE TABLE src (id INT) WITH ('connector' = 'datagen', {rows} {rps}
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000');
CREATE TABLE c ({cols}) {pb}
  WITH ('connector' = 'filesystem', 'path' = '{out}', 'format' = 'csv'{ac}{pc});
INSERT INTO c SELECT {sel} FROM src;
"""
open(f"{WORK}/{name}.sql", "w").write(job)
rc, so, se = run.sql_client(f"{WORK}/{name}.sql")
if rc != 0: print(so[-2000:], se[-2000:])
jid = None
for _ in range(60):
    jobs = run.rest("/jobs/overview")[1]["jobs"]
    js = [j for j in jobs if j["name"] == f"cm-{name}"]
    if js: jid = sorted(js, key=lambda j: j["start-time"])[-1]["jid"]; break
    time.sleep(0.5)
if nrows == "0":
    time.sleep(float(sys.argv[8]) if len(sys.argv) > 8 else 6)
    os.system(f"curl -s -XPATCH 'http://127.0.0.1:{run.info['rest_port']}/jobs/{jid}?mode=cancel' >/dev/null")
    time.sleep(2)
j = run.rest(f"/jobs/{jid}")[1]
print(name, "state", j["state"])
for v in j["vertices"]:
    d = run.rest(f"/jobs/{jid}/vertices/{v['id']}")[1]
    subs = [(s["metrics"]["read-records"], s["metrics"]["write-records"]) for s in d["subtasks"]]
    print(f"  {v['name'][:70]:70s} p{v['parallelism']} in {v['metrics']['read-records']} out {v['metrics']['write-records']} subtasks {subs}")
c = run.rest(f"/jobs/{jid}/checkpoints")[1]
print("  checkpoints completed", c["counts"]["completed"], "files:", sorted(os.path.relpath(os.path.join(d,f), out) for d,_,fs in os.walk(out) for f in fs))
