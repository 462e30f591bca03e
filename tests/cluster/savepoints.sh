#!/usr/bin/env bash
# savepoints.sh — savepoints on demand of a running job: POST /jobs/:jid/savepoints triggers one
# (IN_PROGRESS, then COMPLETED with its file: location, a savepoint-<job id prefix>-<random>
# directory with _metadata), shown in /jobs/:jid/checkpoints; without a target directory and no
# default Flink's 400; STOP JOB '<id>' WITH SAVEPOINT in the SQL client needs a configured savepoint
# directory (Flink's error otherwise), answers a `savepoint path` table and the job FINISHED; a
# new bounded run restored from that savepoint (execution.savepoint.path) continues the counts.
TEST_NAME=savepoints
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup "taskmanager.numberOfTaskSlots: 4"
W="$TMPD/work"
cluster_start

cat > "$W/ddl.sql" <<SQL
CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '150',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3000');
CREATE TABLE snk (k BIGINT, c BIGINT) WITH ('connector' = 'print');
SET 'parallelism.default' = '2';
SQL
cat > "$W/start.sql" <<SQL
SET 'pipeline.name' = 'sp-agg';
INSERT INTO snk SELECT id % 3, COUNT(*) FROM gen GROUP BY id % 3;
SQL
sql "$W/start.sql" -i "$W/ddl.sql" > "$W/start.out" 2>&1
jid="$(jid_by_name sp-agg)"
check "the job was submitted" test -n "$jid"
check "it is RUNNING" wait_state "$jid" RUNNING

# no target directory and no default: Flink's 400
api POST "/jobs/$jid/savepoints" -H 'Content-Type: application/json' -d '{"cancel-job": false}' > "$W/nodir.json"
check "a savepoint without a directory: 400" test "$STATUS" = 400
check "its message is Flink's" \
  jqe '.errors[0] == "Config key [execution.checkpointing.savepoint-dir] is not set. Property [target-directory] must be provided."' "$W/nodir.json"

# a savepoint over REST
api POST "/jobs/$jid/savepoints" -H 'Content-Type: application/json' \
  -d "{\"target-directory\": \"file://$W/sp1\", \"cancel-job\": false}" > "$W/trig.json"
check "the savepoint is accepted (202)" test "$STATUS" = 202
tid="$(jq -r '."request-id" // empty' "$W/trig.json")"
check "with a request id" test -n "$tid"
st=""
for ((i = 0; i < 200; i++)); do
  api GET "/jobs/$jid/savepoints/$tid" > "$W/st.json"
  st="$(jq -r '.status.id' "$W/st.json")"
  [[ "$st" == "COMPLETED" ]] && break
  check "the status is IN_PROGRESS until it completes" test "$st" = IN_PROGRESS
  sleep 0.1
done
check "the savepoint COMPLETED" test "$st" = COMPLETED
loc="$(jq -r '.operation.location // empty' "$W/st.json")"
check "its location is a savepoint directory under the target" \
  jqe --arg d "file:$W/sp1/savepoint-${jid:0:6}-" '.operation.location | startswith($d)' "$W/st.json"
check "the savepoint has _metadata" test -f "${loc#file:}/_metadata"
check "one directory only (every subtask wrote into the same one)" test "$(ls "$W/sp1" | wc -l)" = 1
check "both subtasks wrote their part" test -f "${loc#file:}/lane-0" -a -f "${loc#file:}/lane-1"
check "the job is still RUNNING" wait_state "$jid" RUNNING
api GET "/jobs/$jid/checkpoints" > "$W/c.json"
check "the savepoint is in the checkpoint statistics" \
  jqe '.latest.savepoint.is_savepoint == true and .latest.savepoint.status == "COMPLETED"' "$W/c.json"
api GET "/jobs/$jid/savepoints/00000000000000000000000000000000" > /dev/null
check "an unknown trigger id: 404" test "$STATUS" = 404

# STOP JOB ... WITH SAVEPOINT without a savepoint directory: Flink's error, the job keeps running
cat > "$W/stop0.sql" <<SQL
STOP JOB '$jid' WITH SAVEPOINT;
SQL
sql "$W/stop0.sql" > "$W/stop0.out" 2>&1
check "without a savepoint directory STOP JOB WITH SAVEPOINT fails" grep -q "No savepoint directory configured" "$W/stop0.out"
check "the job is still RUNNING" wait_state "$jid" RUNNING

cat > "$W/stop.sql" <<SQL
SET 'execution.checkpointing.savepoint-dir' = 'file://$W/sp2';
STOP JOB '$jid' WITH SAVEPOINT;
SQL
sql "$W/stop.sql" > "$W/stop.out" 2>&1
check "STOP JOB WITH SAVEPOINT answers the savepoint path" grep -q "savepoint path" "$W/stop.out"
sp2="$(grep -o "file:$W/sp2/savepoint-[0-9a-f-]*" "$W/stop.out" | head -1)"
check "a savepoint under the configured directory" test -n "$sp2"
check "it has _metadata" test -f "${sp2#file:}/_metadata"
check "the job FINISHED" wait_state "$jid" FINISHED

# POST /jobs/:jid/stop with drain: the savepoint, then the job ends as at the end of its input
sed -i "s/'sp-agg'/'sp-drain'/" "$W/start.sql"
sql "$W/start.sql" -i "$W/ddl.sql" > "$W/start2.out" 2>&1
jid2="$(jid_by_name sp-drain)"
check "a second job runs" wait_state "$jid2" RUNNING
api POST "/jobs/$jid2/stop" -H 'Content-Type: application/json' \
  -d "{\"targetDirectory\": \"file://$W/sp3\", \"drain\": true}" > "$W/stop3.json"
check "POST stop is accepted (202)" test "$STATUS" = 202
tid3="$(jq -r '."request-id" // empty' "$W/stop3.json")"
st=""
for ((i = 0; i < 200; i++)); do
  st="$(api GET "/jobs/$jid2/savepoints/$tid3" | tee "$W/st3.json" | jq -r '.status.id')"
  [[ "$st" == "COMPLETED" ]] && break
  sleep 0.1
done
check "stop-with-savepoint (drain) COMPLETED with a location" jqe '.operation.location | startswith("file:")' "$W/st3.json"
loc3="$(jq -r '.operation.location // empty' "$W/st3.json")"
check "its savepoint has _metadata" test -f "${loc3#file:}/_metadata"
check "the drained job FINISHED" wait_state "$jid2" FINISHED
api GET "/jobs/$jid2/savepoints/$tid3" > "$W/st3b.json"
check "its status is still answered after the end" jqe --arg l "$loc3" '.operation.location == $l' "$W/st3b.json"

# restore into a new bounded run: the counts continue from the savepoint (-U of a restored count
# first) and end at 1000 per key, as if the job had never stopped
cat > "$W/restore.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.savepoint.path' = '$sp2';
INSERT INTO snk SELECT id % 3, COUNT(*) FROM gen GROUP BY id % 3;
SQL
sed -i "s/'rows-per-second' = '150'/'rows-per-second' = '100000'/" "$W/ddl.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -i "$W/ddl.sql" -f "$W/restore.sql" > "$W/restore.out" 2>&1 < /dev/null
check "the restored run ends the counts at 1000 per key" \
  test "$(grep -oE '\+U\[[0-9]+, 1000\]' "$W/restore.out" | sort -u | wc -l)" = 3
first="$(grep -oE '[-+][IU]\[[0-9]+, [0-9]+\]' "$W/restore.out" | head -1)"
check "it starts from the restored counts (first change '$first' retracts a restored count)" \
  bash -c "[[ '$first' == -U* ]]"
check "no count starts from scratch" bash -c "! grep -qE '\+I\[' '$W/restore.out'"
