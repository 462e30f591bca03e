#!/usr/bin/env bash
# checkpoint_failures.sh — checkpoint write errors count against
# execution.checkpointing.tolerable-failed-checkpoints, as in Flink (issue 19: a full disk failed
# the job at the first error). The test fault hook WEIR_TEST_FAIL_CHECKPOINTS (an environment variable
# of the cluster daemon, out of users' reach) makes the state writes of the listed checkpoints of
# every job fail with ENOSPC. With a tolerance of 2, two consecutive failed
# checkpoints are declined (listed as FAILED with the write error) and the job goes on RUNNING and
# completes later checkpoints; with the default tolerance 0 the first failure fails the job with
# Flink's "Exceeded checkpoint tolerable failure threshold." Bounded: about 10 s.
TEST_NAME=checkpoint_failures
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup "taskmanager.numberOfTaskSlots: 4"
W="$TMPD/work"
export WEIR_TEST_FAIL_CHECKPOINTS=2,3
cluster_start

job() { # name, tolerance (empty = default)
  cat <<SQL
CREATE TABLE gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '200',
  'fields.k.min' = '1', 'fields.k.max' = '20');
CREATE TABLE sink (k INT, total BIGINT) WITH ('connector' = 'blackhole');
SET 'execution.checkpointing.interval' = '200 ms';
SET 'execution.checkpointing.dir' = 'file://$W/chk-$1';
${2:+SET 'execution.checkpointing.tolerable-failed-checkpoints' = '$2';}
SET 'pipeline.name' = '$1';
INSERT INTO sink SELECT k, CAST(SUM(v) AS BIGINT) FROM gen GROUP BY k;
SQL
}
job tolerant 2 > "$W/tolerant.sql"
job strict "" > "$W/strict.sql"
sql "$W/tolerant.sql" > "$W/tolerant.out" 2>&1
sql "$W/strict.sql" > "$W/strict.out" 2>&1
jt="$(jid_by_name tolerant)"; js="$(jid_by_name strict)"
check "both jobs were submitted" test -n "$jt" -a -n "$js"

ok=0
for ((i = 0; i < 100; i++)); do
  api GET "/jobs/$jt/checkpoints" > "$W/ct.json"
  if jq -e '.counts.completed >= 3' "$W/ct.json" > /dev/null 2>&1; then ok=1; break; fi
  sleep 0.2
done
check "tolerance 2: checkpoints complete after the failed ones" test $ok = 1
check "tolerance 2: checkpoints 2 and 3 failed with the write error" \
  jqe '.counts.failed == 2 and ([.history[] | select(.status == "FAILED") | .id] | sort) == [2, 3] and ([.history[] | select(.id == 2)][0].failure_message | test("No space left on device"))' "$W/ct.json"
check "tolerance 2: the job is still RUNNING" wait_state "$jt" RUNNING

check "tolerance 0: the job fails" wait_state "$js" FAILED
api GET "/jobs/$js/exceptions" > "$W/ex.json"
check "tolerance 0: with Flink's message" \
  jqe '.exceptionHistory.entries[0].stacktrace | test("Exceeded checkpoint tolerable failure threshold. The latest checkpoint failed due to Asynchronous task checkpoint failed.")' "$W/ex.json"
api GET "/jobs/$js/checkpoints" > "$W/cs.json"
check "tolerance 0: checkpoint 1 completed, 2 failed" jqe '.counts.completed == 1 and .counts.failed == 1' "$W/cs.json"
exit 0
