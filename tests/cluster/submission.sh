#!/usr/bin/env bash
# submission.sh — the SQL client against a running cluster: an INSERT of an unbounded job returns
# at once and the job runs in the background (RUNNING in SHOW JOBS and the REST API, with live
# metrics, history, state with its TTL and the what-each-task-does view); STOP JOB and
# PATCH ?mode=cancel cancel jobs; a streaming SELECT cancelled through the REST API ends the
# client's query; table.dml-sync waits; a failing job shows its exception; savepoint triggers
# answer with Flink's shapes; cancelled, failed and finished jobs stay listed.
TEST_NAME=submission
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup "taskmanager.numberOfTaskSlots: 8"
W="$TMPD/work"
cluster_start

cat > "$W/ddl.sql" <<SQL
-- an init script with comments before its statements (sent one by one to configure-session)
/* the generator */
CREATE TABLE gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '200',
  'fields.k.min' = '1', 'fields.k.max' = '9', 'fields.v.min' = '1', 'fields.v.max' = '100');
CREATE TABLE sink (k INT, total BIGINT) WITH ('connector' = 'blackhole');
SQL
cat > "$W/start.sql" <<'SQL'
SET 'table.exec.state.ttl' = '30 min';
SET 'pipeline.name' = 'endless-agg';
INSERT INTO sink SELECT k, CAST(SUM(v) AS BIGINT) FROM gen GROUP BY k;
RESET 'table.exec.state.ttl';
SET 'pipeline.name' = 'endless-two';
INSERT INTO sink SELECT k, CAST(COUNT(*) AS BIGINT) FROM gen GROUP BY k;
SHOW JOBS;
DROP TABLE gen;
SQL
t0=$SECONDS
sql "$W/start.sql" -i "$W/ddl.sql" > "$W/start.out" 2>&1
check "INSERTs of unbounded jobs return at once" test $((SECONDS - t0)) -lt 30
check "the init script with comments initialized the session" grep -q "^Successfully initialized from sql script: " "$W/start.out"
check "two Job ID lines" test "$(grep -c '^Job ID: [0-9a-f]\{32\}$' "$W/start.out")" -eq 2
check "a table running jobs read cannot be dropped" grep -q "^org.apache.flink.table.api.ValidationException: A job submitted from this session is still running" "$W/start.out"
check "SHOW JOBS lists both running" test "$(grep -cE '^\| [0-9a-f]{32} \| +endless-(agg|two) \| RUNNING \|' "$W/start.out")" -eq 2
j1="$(jid_by_name endless-agg)"; j2="$(jid_by_name endless-two)"
check "both jobs are RUNNING" wait_state "$j1" RUNNING
sleep 3
api GET "/jobs/$j1" > "$W/j1.json"
check "the running job's vertices run" jqe '[.vertices[].status] | all(. == "RUNNING")' "$W/j1.json"
check "records flow (write-records of the source vertex > 0)" jqe '.vertices[0].metrics["write-records"] > 0' "$W/j1.json"
check "unmeasured bytes say so (incomplete); the task times are measured: busy + idle + back-pressured ms cover the run" \
  jqe '[.vertices[].metrics | (.["read-bytes-complete"] == false and .["write-bytes-complete"] == false
        and (.["accumulated-busy-time"] | type) == "number" and .["accumulated-idle-time"] > 0
        and .["accumulated-backpressured-time"] >= 0)] | all' "$W/j1.json"
check "end-time is -1 while running" jqe '.["end-time"] == -1' "$W/j1.json"
api GET "/weir/jobs/$j1/state" > "$W/state.json"
check "the state view shows groupAggregateState with TTL 30 min" \
  jqe '[.operators[].states[] | select(.name == "groupAggregateState")][0] | .ttl == "30 min" and .entries > 0 and .bytes > 0' "$W/state.json"
check "the state view has the TTL-accuracy counter" jqe '.operators[0] | has("ttl_expired_records")' "$W/state.json"
api GET "/weir/jobs/$j1/history" > "$W/hist.json"
check "the history has samples" jqe '(.samples | length) >= 2 and .samples[-1].source_out > 0' "$W/hist.json"
api GET "/weir/jobs/$j1/tasks" > "$W/tasks.json"
check "the tasks view names operators and has a summary" jqe '(.operators | length) > 0 and (.summary | length) > 0' "$W/tasks.json"
api GET "/overview" > "$W/ov.json"
check "/overview counts 2 running jobs" jqe '.["jobs-running"] == 2 and .["slots-total"] == 8' "$W/ov.json"
tm="$(api GET /taskmanagers | jq -r '.taskmanagers[0].id')"
check "the thread dump shows the job threads" jqe '[.threadInfos[].threadName] | index("weir-job") != null' <<< "$(api GET "/taskmanagers/$tm/thread-dump")"

# savepoint trigger without a target directory and no default: Flink's 400 (savepoints.sh takes real ones)
api POST "/jobs/$j1/savepoints" -H "Content-Type: application/json" --data '{"cancel-job": false}' > "$W/sp.json"
check "POST savepoints without a directory answers 400" test "$STATUS" = 400
check "with Flink's message" jqe '.errors[0] | startswith("Config key [execution.checkpointing.savepoint-dir] is not set.")' "$W/sp.json"

# STOP JOB (cancel) and PATCH ?mode=cancel
printf "STOP JOB '%s';\nSTOP JOB '0123456789abcdef0123456789abcdef';\n" "$j1" > "$W/stop.sql"
sql "$W/stop.sql" > "$W/stop.out" 2>&1
check "STOP JOB succeeds" grep -q "^\[INFO\] Execute statement succeeded.$" "$W/stop.out"
check "STOP JOB of an unknown job fails as Flink's" \
  grep -q "^org.apache.flink.runtime.messages.FlinkJobNotFoundException: Could not find Flink job (0123456789abcdef0123456789abcdef)$" "$W/stop.out"
check "the stopped job is CANCELED" wait_state "$j1" CANCELED
api PATCH "/jobs/$j2?mode=cancel" > /dev/null
check "PATCH ?mode=cancel answers 202" test "$STATUS" = 202
check "the patched job is CANCELED" wait_state "$j2" CANCELED
check "cancelled vertices are CANCELED" jqe '[.vertices[].status] | all(. == "CANCELED")' <<< "$(api GET "/jobs/$j2")"

# a streaming SELECT cancelled through the REST API ends the client's query
cat > "$W/select.sql" <<'SQL'
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'pipeline.name' = 'endless-select';
SELECT k, COUNT(*) AS c FROM gen GROUP BY k;
SQL
sql "$W/select.sql" -i "$W/ddl.sql" > "$W/select.out" 2>&1 &
cpid=$!
qj=""
for ((i = 0; i < 100; i++)); do
  qj="$(jid_by_name endless-select)"
  [[ -n "$qj" ]] && break
  sleep 0.1
done
check "the query is a listed job" test -n "$qj"
sleep 1
api PATCH "/jobs/$qj?mode=cancel" > /dev/null
for ((i = 0; i < 150; i++)); do kill -0 "$cpid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$cpid" 2>/dev/null; then fail "the client did not end after its query was cancelled"; kill "$cpid"; fi
wait "$cpid" 2>/dev/null
check "the query streamed rows before it was cancelled" grep -qE '^\| \+I \|' "$W/select.out"
check "the query job is CANCELED" wait_state "$qj" CANCELED

# table.dml-sync waits; a failing job shows its exception
printf '1,1\n2,oops\n' > "$W/bad.csv"
cat > "$W/sync.sql" <<SQL
CREATE TABLE bad (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '$W/bad.csv', 'format' = 'csv');
SET 'table.dml-sync' = 'true';
SET 'pipeline.name' = 'bounded-sync';
INSERT INTO sink SELECT k, CAST(v AS BIGINT) FROM (VALUES (1, 2), (3, 4)) AS t(k, v);
RESET 'table.dml-sync';
SET 'pipeline.name' = 'failing';
INSERT INTO sink SELECT k, CAST(v AS BIGINT) FROM bad;
SQL
sql "$W/sync.sql" -i "$W/ddl.sql" > "$W/sync.out" 2>&1
check "dml-sync prints Flink's completion line" grep -q "^\[INFO\] Complete execution of the SQL update statement.$" "$W/sync.out"
check "the sync job is FINISHED" wait_state "$(jid_by_name bounded-sync)" FINISHED
fj="$(jid_by_name failing)"
check "the failing job FAILED" wait_state "$fj" FAILED
check "its root exception is reported" jqe '(.exceptionHistory.entries[0].stacktrace | length) > 0 and (.exceptionHistory.entries | length) == 1 and (has("root-exception") | not)' \
  <<< "$(api GET "/jobs/$fj/exceptions")"
check "all jobs stay listed" test "$(api GET /jobs | jq '.jobs | length')" -eq 5
exit 0
