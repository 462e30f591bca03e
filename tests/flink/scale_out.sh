#!/usr/bin/env bash
# scale_out.sh — the walk-through of docs/scale-out.md as a test: a job developed and run on weir,
# its plan compiled by weir, then executed unchanged on an Apache Flink session cluster of one
# JobManager and two TaskManager processes (tests/flink/flinkctl.py --taskmanagers 2), at
# parallelism 2 with one subtask of each operator on each TaskManager; the two engines' output
# files must hold the same rows. Then the same plan once more through Flink's Table API
# (TableEnvironment.executePlan in a program submitted with `flink run`): the same rows again.
#
# Usage: BUILD=build-test tests/flink/scale_out.sh   (exit 0 pass, 77 skip with a SKIP line, else fail)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="$(cd "${BUILD:-$ROOT/build-test}" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/weir-scale-out-XXXXXX")"
RUN="$WORK/flink"
cleanup() {
  python3 "$ROOT/tests/flink/flinkctl.py" stop --run-dir "$RUN" > /dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL scale-out: $*"; exit 1; }

# 1. data: 20,000 orders over 50 customers and 2 hours of event time, a little out of order
python3 - "$WORK/orders.csv" <<'EOF'
import sys, random
r = random.Random(20261202)
with open(sys.argv[1], "w") as f:
    for i in range(20000):
        ts = 1700000000000 + i * 360 + r.randint(-2000, 0)
        sec, ms = divmod(ts, 1000)
        import datetime
        t = datetime.datetime.fromtimestamp(sec, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        f.write("%d,c%02d,%d,%s.%03d\n" % (i, r.randrange(50), r.randint(1, 500), t, ms))
EOF

# 2. develop and run on weir, then compile the plan of the same INSERT
cat > "$WORK/job.sql" <<EOF
CREATE TABLE orders (
  id BIGINT, customer STRING, amount INT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$WORK/orders.csv', 'format' = 'csv');
CREATE TABLE spend (
  customer STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), orders BIGINT, total BIGINT
) WITH ('connector' = 'filesystem', 'path' = '$WORK/out', 'format' = 'csv');
SET 'table.dml-sync' = 'true';
INSERT INTO spend
SELECT customer, window_start, window_end, COUNT(*), SUM(amount)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY customer, window_start, window_end;
COMPILE PLAN '$WORK/spend.json' FOR INSERT INTO spend
SELECT customer, window_start, window_end, COUNT(*), SUM(amount)
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY customer, window_start, window_end;
EOF
out="$(WEIR_EMBEDDED=1 timeout 300 "$BUILD/weir" sql-client -f "$WORK/job.sql" 2>&1)" || fail "weir: $out"
grep -q '^\[ERROR\]' <<< "$out" && fail "weir: $(grep -A3 '^\[ERROR\]' <<< "$out")"
[[ -s "$WORK/spend.json" ]] || fail "weir wrote no plan"
mv "$WORK/out" "$WORK/out-weir"

# 3. a Flink session cluster with two TaskManagers runs weir's plan at parallelism 2
if ! python3 "$ROOT/tests/flink/flinkctl.py" start --run-dir "$RUN" --taskmanagers 2 > "$WORK/start.log" 2>&1; then
  st=$?
  [[ $st -eq 77 ]] && { echo "SKIP scale-out: Flink cannot be installed here: $(tail -n 2 "$WORK/start.log")"; exit 77; }
  fail "the Flink cluster did not start: $(tail -n 3 "$WORK/start.log")"
fi
cat > "$WORK/flink.sql" <<EOF
SET 'parallelism.default' = '2';
SET 'table.dml-sync' = 'true';
EXECUTE PLAN '$WORK/spend.json';
EOF
fout="$(python3 "$ROOT/tests/flink/flinkctl.py" sql --run-dir "$RUN" -f "$WORK/flink.sql" 2>&1 | sed 's/\x1b\[[0-9;]*m//g')"
grep -q '^\[ERROR\]' <<< "$fout" && fail "Flink refused weir's plan: $(grep -A5 '^\[ERROR\]' <<< "$fout")"

# 4. the job ran on both TaskManagers: every vertex at parallelism 2 has its subtasks on 2 of them
#    (the filesystem sink's "end: Writer" committer runs one subtask in Flink's own plans too)
python3 - "$RUN" <<'EOF' || exit 1
import json, sys, urllib.request
info = json.load(open(sys.argv[1] + "/flink.json"))
base = "http://127.0.0.1:%d" % info["rest_port"]
get = lambda p: json.load(urllib.request.urlopen(base + p, timeout=30))
def fail(msg):
    print("FAIL scale-out: " + msg)
    sys.exit(1)
tms = get("/taskmanagers")["taskmanagers"]
if len(tms) != 2:
    fail("%d TaskManagers, expected 2" % len(tms))
jobs = [j for j in get("/jobs/overview")["jobs"] if j["state"] == "FINISHED"]
if len(jobs) != 1:
    fail("finished jobs %s" % get("/jobs/overview"))
job = get("/jobs/" + jobs[0]["jid"])
wide = 0
for v in job["vertices"]:
    hosts = {s.get("taskmanager-id") for s in get("/jobs/%s/vertices/%s" % (job["jid"], v["id"]))["subtasks"]}
    if v["parallelism"] == 2 and len(hosts) == 2:
        wide += 1
    elif v["parallelism"] != 1 or not v["name"].startswith("end:"):
        fail("vertex '%s' ran %d subtasks on %d TaskManagers" % (v["name"][:60], v["parallelism"], len(hosts)))
if wide == 0:
    fail("no vertex ran at parallelism 2")
print("flink job %s: %d of %d vertices with 2 subtasks on 2 TaskManagers" % (job["jid"], wide, len(job["vertices"])))
EOF

# 5. the same rows from both engines
rows() { find "$1" -type f ! -name '.*' -exec cat {} + | sort; }
[[ -d "$WORK/out" ]] || fail "Flink wrote no output"
diff <(rows "$WORK/out-weir") <(rows "$WORK/out") > "$WORK/diff" || fail "the engines' rows differ: $(head -n 10 "$WORK/diff")"
n="$(rows "$WORK/out" | wc -l)"
[[ $n -gt 100 ]] || fail "only $n rows"

# 6. the same plan through Flink's Table API: a program calling TableEnvironment.executePlan
#    (tests/flink/java/ExecutePlan.java, compiled here against the distribution's jars), submitted
#    with `flink run` to the same cluster
mv "$WORK/out" "$WORK/out-sql"
HOME_F="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["home"])' "$RUN/flink.json")"
mkdir -p "$WORK/classes"
javac -d "$WORK/classes" -cp "$HOME_F/lib/*" "$ROOT/tests/flink/java/ExecutePlan.java" > "$WORK/javac.log" 2>&1 \
  || fail "cannot compile ExecutePlan.java: $(tail -n 5 "$WORK/javac.log")"
(cd "$WORK/classes" && jar cf "$WORK/execute-plan.jar" .) || fail "cannot build execute-plan.jar"
FLINK_CONF_DIR="$RUN/conf" timeout 600 "$HOME_F/bin/flink" run -c ExecutePlan "$WORK/execute-plan.jar" \
  "$WORK/spend.json" 2 > "$WORK/run.log" 2>&1 || fail "flink run of TableEnvironment.executePlan failed: $(tail -n 8 "$WORK/run.log")"
[[ -d "$WORK/out" ]] || fail "TableEnvironment.executePlan wrote no output: $(tail -n 5 "$WORK/run.log")"
diff <(rows "$WORK/out-weir") <(rows "$WORK/out") > "$WORK/diff" || fail "executePlan's rows differ from weir's: $(head -n 10 "$WORK/diff")"
echo "PASS scale-out: weir's compiled plan ran on Flink (1 JobManager, 2 TaskManagers, parallelism 2) by EXECUTE PLAN and by TableEnvironment.executePlan; $n rows equal to weir's both times"
