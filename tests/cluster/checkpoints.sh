#!/usr/bin/env bash
# checkpoints.sh — checkpoint statistics over REST: a job running with
# 'execution.checkpointing.interval' shows completed checkpoints in /jobs/:jid/checkpoints (counts,
# summary, latest, history in Flink's CheckpointingStatistics shape) with sane sizes and durations,
# /jobs/:jid/checkpoints/config reflects the job's options, /checkpoints/details/:cid answers one
# checkpoint (404 for an unknown one, 400 for a non-number); the figures stay after the job ends;
# a job without checkpointing reports zeros.
TEST_NAME=checkpoints
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup "taskmanager.numberOfTaskSlots: 4"
W="$TMPD/work"
cluster_start

cat > "$W/start.sql" <<SQL
CREATE TABLE gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '500',
  'fields.k.min' = '1', 'fields.k.max' = '50', 'fields.v.min' = '1', 'fields.v.max' = '100');
CREATE TABLE sink (k INT, total BIGINT) WITH ('connector' = 'blackhole');
SET 'execution.checkpointing.interval' = '300 ms';
SET 'execution.checkpointing.min-pause' = '100 ms';
SET 'execution.checkpointing.timeout' = '2 min';
SET 'execution.checkpointing.dir' = 'file://$W/chk';
SET 'pipeline.name' = 'ckpt-agg';
INSERT INTO sink SELECT k, CAST(SUM(v) AS BIGINT) FROM gen GROUP BY k;
RESET 'execution.checkpointing.interval';
SET 'pipeline.name' = 'no-ckpt';
INSERT INTO sink SELECT k, CAST(COUNT(*) AS BIGINT) FROM gen GROUP BY k;
SQL
sql "$W/start.sql" > "$W/start.out" 2>&1
j1="$(jid_by_name ckpt-agg)"; j2="$(jid_by_name no-ckpt)"
check "both jobs were submitted" test -n "$j1" -a -n "$j2"
check "the checkpointing job is RUNNING" wait_state "$j1" RUNNING
ok=0
for ((i = 0; i < 100; i++)); do
  api GET "/jobs/$j1/checkpoints" > "$W/c.json"
  if jq -e '.counts.completed >= 2' "$W/c.json" > /dev/null 2>&1; then ok=1; break; fi
  sleep 0.2
done
check "checkpoints complete while the job runs (completed >= 2)" test $ok = 1
check "counts are consistent" jqe '.counts.total == .counts.completed + .counts.failed + .counts.in_progress and .counts.failed == 0 and .counts.restored == 0' "$W/c.json"
check "the summary has sane sizes" \
  jqe '.summary.state_size.min > 0 and .summary.state_size.max >= .summary.state_size.min and .summary.state_size.avg >= .summary.state_size.min and .summary.checkpointed_size.max > 0 and .summary.end_to_end_duration.max >= 0 and .summary.state_size.p50 >= .summary.state_size.min and (.summary.persisted_data | has("p999"))' "$W/c.json"
check "latest.completed is a COMPLETED checkpoint under the checkpoint dir" \
  jqe --arg d "file:$W/chk/" '.latest.completed | .["@class"] == "completed" and .status == "COMPLETED" and .is_savepoint == false and .checkpoint_type == "CHECKPOINT" and .state_size > 0 and (.external_path | startswith($d)) and .num_acknowledged_subtasks == .num_subtasks and .latest_ack_timestamp >= .trigger_timestamp' "$W/c.json"
check "latest has no savepoint, failure or restore" jqe '.latest.savepoint == null and .latest.failed == null and .latest.restored == null' "$W/c.json"
check "the history is newest first with Flink's fields" \
  jqe '(.history | length) >= 2 and .history[0].id > .history[1].id and (.history[0] | has("trigger_timestamp") and has("checkpointed_size") and has("processed_data") and has("persisted_data") and has("alignment_buffered") and has("tasks") and has("discarded"))' "$W/c.json"
cid="$(jq -r '.latest.completed.id' "$W/c.json")"
api GET "/jobs/$j1/checkpoints/details/$cid" > "$W/d.json"
check "details of the latest checkpoint" jqe --argjson id "$cid" '.id == $id and .status == "COMPLETED"' "$W/d.json"
api GET "/jobs/$j1/checkpoints/details/999999" > "$W/d404.json"
check "details of an unknown checkpoint: 404" test "$STATUS" = 404
check "its message is Flink's" jqe '.errors[0] == "Could not find checkpointing statistics for checkpoint 999999."' "$W/d404.json"
api GET "/jobs/$j1/checkpoints/details/abc" > /dev/null
check "details of a non-number: 400" test "$STATUS" = 400
api GET "/jobs/$j1/checkpoints/config" > "$W/cfg.json"
check "the checkpoint config is the job's" \
  jqe '.mode == "exactly_once" and .interval == 300 and .min_pause == 100 and .timeout == 120000 and .checkpoint_storage == "FileSystemCheckpointStorage"' "$W/cfg.json"
api GET "/jobs/$j2/checkpoints" > "$W/c2.json"
check "a job without checkpointing reports zero checkpoints" \
  jqe '.counts.total == 0 and .counts.completed == 0 and .history == [] and .latest.completed == null' "$W/c2.json"
check "its config shows checkpointing disabled" jqe '.interval == 9223372036854775807' <<< "$(api GET "/jobs/$j2/checkpoints/config")"

# the figures stay after the job ended
api PATCH "/jobs/$j1?mode=cancel" > /dev/null
check "the job is CANCELED" wait_state "$j1" CANCELED
api GET "/jobs/$j1/checkpoints" > "$W/c3.json"
check "the checkpoints are still listed after the end" jqe --argjson id "$cid" '.counts.completed >= 2 and .latest.completed.id >= $id' "$W/c3.json"
api PATCH "/jobs/$j2?mode=cancel" > /dev/null
check "the other job is CANCELED" wait_state "$j2" CANCELED
