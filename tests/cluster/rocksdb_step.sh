#!/usr/bin/env bash
# rocksdb_step.sh — seed 001's RocksDB step end to end: start the cluster, run a script with
# state.backend.type = rocksdb and pipeline.name through bin/sql-client.sh, find the job by name in
# /jobs/overview, save /jobs/<jid> and /jobs/<jid>/checkpoints/config and read state_backend =
# EmbeddedRocksDBStateBackend; a default job reports HashMapStateBackend. The streamed result is
# the same as the embedded client's.
TEST_NAME=rocksdb_step
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"

# state_orders.csv: order_id, user_id, amount, ts (seconds, ascending)
for i in $(seq 1 40); do echo "$i,u$((i % 5)),$((i * 7 % 50 + 1)),$((1700000000 + i * 30))"; done > "$W/state_orders.csv"
cat > "$W/ddl.sql" <<SQL
CREATE TABLE orders (
  order_id BIGINT, user_id STRING, amount INT, ts_sec BIGINT,
  ts AS TO_TIMESTAMP_LTZ(ts_sec, 0),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = '$W/state_orders.csv', 'format' = 'csv');
CREATE TABLE kv_sink (k STRING, v BIGINT) WITH ('connector' = 'blackhole');
SQL
cat > "$W/rocks.sql" <<'SQL'
SET 'state.backend.type' = 'rocksdb';
SET 'pipeline.name' = 'flk-state-rocks';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT user_id, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY user_id;
SQL
cat > "$W/default.sql" <<'SQL'
SET 'pipeline.name' = 'flk-state-default';
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT user_id, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY user_id;
SQL

cluster_start
WEIR_BIN="$WEIR" timeout 120 "$ROOT/bin/sql-client.sh" -i "$W/ddl.sql" -f "$W/rocks.sql" > "$W/rocks.out" 2> "$W/rocks.err" < /dev/null
check "the rocks script succeeds" test $? -eq 0
check "rocks.out has the streamed result" grep -q "Received a total of" "$W/rocks.out"

jid="$(jid_by_name flk-state-rocks)"
check "the job is found by name in /jobs/overview" test -n "$jid"
api GET "/jobs/$jid" > "$W/rocks-job.json"
check "/jobs/<jid> answers 200" test "$STATUS" = 200
check "/jobs/<jid> names the job" test "$(jq -r .name "$W/rocks-job.json")" = flk-state-rocks
check "the job finished" wait_state "$jid" FINISHED
check "the source vertex is Flink-named" jqe '.vertices[0].name | startswith("Source: orders[1]")' "$W/rocks-job.json"
check "a GroupAggregate vertex follows a HASH edge" \
  jqe '[.plan.nodes[] | select(.description | contains("GroupAggregate")) | .inputs[0].ship_strategy] == ["HASH"]' "$W/rocks-job.json"
api GET "/jobs/$jid/checkpoints/config" > "$W/rocks-ckpt.json"
check "checkpoints/config answers 200" test "$STATUS" = 200
check "state_backend is EmbeddedRocksDBStateBackend" \
  test "$(jq -r .state_backend "$W/rocks-ckpt.json")" = EmbeddedRocksDBStateBackend
check "checkpoint_storage is JobManagerCheckpointStorage" \
  test "$(jq -r .checkpoint_storage "$W/rocks-ckpt.json")" = JobManagerCheckpointStorage
# without checkpointing Flink 2.3 runs (and reports) the job at-least-once
check "mode is at_least_once" test "$(jq -r .mode "$W/rocks-ckpt.json")" = at_least_once

# rocks_groups: keys left in state = rows of the final result (the last value per user)
groups="$(grep -E '^\| [+-][IU] ' "$W/rocks.out" | awk -F'|' '{gsub(/ /, "", $3); print $3}' | sort -u | wc -l)"
check "rocks_groups is 5 (one per user)" test "$groups" -eq 5
api GET "/weir/jobs/$jid/state" > "$W/rocks-state.json"
check "the state view lists groupAggregateState with 5 entries" \
  jqe '[.operators[].states[] | select(.name == "groupAggregateState") | .entries] == [5]' "$W/rocks-state.json"

WEIR_BIN="$WEIR" timeout 120 "$ROOT/bin/sql-client.sh" -i "$W/ddl.sql" -f "$W/default.sql" > "$W/default.out" 2>&1 < /dev/null
djid="$(jid_by_name flk-state-default)"
check "the default job is listed" test -n "$djid"
check "a default job reports HashMapStateBackend" \
  test "$(api GET "/jobs/$djid/checkpoints/config" | jq -r .state_backend)" = HashMapStateBackend

# the cluster prints what the embedded client prints, but for the elapsed time Flink's client
# prints through a gateway (sql-client.display.print-time-cost defaults to true there; weir's
# embedded sessions default it to false)
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -i "$W/ddl.sql" -f "$W/rocks.sql" > "$W/rocks.embedded.out" 2>&1 < /dev/null
grep -q ' ([0-9.]* seconds)$' "$W/rocks.out" || fail "the remote client did not print the query's elapsed time"
sed -E 's/ \([0-9.]+ seconds\)$//' "$W/rocks.out" > "$W/rocks.notime.out"
if ! diff -u "$W/rocks.embedded.out" "$W/rocks.notime.out" > "$W/diff.txt"; then
  fail "remote output differs from the embedded client's:"; head -n 30 "$W/diff.txt"
fi
exit 0
