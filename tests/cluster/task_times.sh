#!/usr/bin/env bash
# task_times.sh — Flink's task time metrics, measured: busy, back-pressured and idle time per
# subtask (busyTimeMsPerSecond, backPressuredTimeMsPerSecond, idleTimeMsPerSecond and their
# accumulated forms), records per second, the vertex details' accumulated-*-time fields and
# GET /jobs/:jid/vertices/:vid/backpressure, as Flink's dashboard reads them.
#   - a skewed job: two source subtasks (a random INT each: cheap to make) feed a global
#     (parallelism 1) aggregate of two COUNT(DISTINCT) (a map lookup each per row) that cannot keep
#     up; the aggregate is busy, the source subtask that sends to the other lane is back-pressured
#     ("high"), both source subtasks still read their share (the lanes take turns);
#   - a slow job (datagen limited to 50 rows/s): every subtask is idle, nothing back-pressured;
#   - the answers' doubles are written as Java's Double.toString (0.754, not 0.75400000000000003).
TEST_NAME=task_times
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup "parallelism.default: 2"
W="$TMPD/work"

cat > "$W/skew.sql" <<SQL
CREATE TABLE gen (k INT) WITH ('connector' = 'datagen', 'fields.k.min' = '1', 'fields.k.max' = '100000',
  'rows-per-second' = '1000000000');
CREATE TABLE out1 (c BIGINT, d BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'skewed';
INSERT INTO out1 SELECT COUNT(DISTINCT k), COUNT(DISTINCT k / 2) FROM gen;
SQL
cat > "$W/slow.sql" <<SQL
CREATE TABLE slow (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');
CREATE TABLE out2 (k INT, c BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'slow';
INSERT INTO out2 SELECT k, COUNT(*) FROM slow GROUP BY k;
SQL

cluster_start
sql "$W/skew.sql" > "$W/skew.out" 2>&1
sql "$W/slow.sql" > "$W/slow.out" 2>&1
js="$(jid_by_name skewed)"; jl="$(jid_by_name slow)"
check "both jobs run" wait_state "$js" RUNNING
check "both jobs run" wait_state "$jl" RUNNING
M="busyTimeMsPerSecond,backPressuredTimeMsPerSecond,idleTimeMsPerSecond,numRecordsOutPerSecond"
# rates need two samples of the sampler (one a second): wait until they are there
src="$(api GET "/jobs/$js" | jq -r '.vertices[0].id')"; agg="$(api GET "/jobs/$js" | jq -r '.vertices[1].id')"
for ((i = 0; i < 100; i++)); do
  [[ "$(api GET "/jobs/$js/vertices/$agg/subtasks/metrics?get=busyTimeMsPerSecond" | jq length)" == 1 ]] && break
  sleep 0.2
done
sleep 4     # a few seconds of steady state
api GET "/jobs/$js/vertices/$src/metrics?get=0.${M//,/,0.},1.${M//,/,1.},0.numRecordsOut,1.numRecordsOut" > "$W/src.json"
api GET "/jobs/$js/vertices/$agg/subtasks/metrics?get=$M" > "$W/agg.json"
api GET "/jobs/$js/vertices/$src/backpressure" > "$W/src-bp.json"
api GET "/jobs/$js/vertices/$agg/backpressure" > "$W/agg-bp.json"
api GET "/jobs/$js" > "$W/skew-job.json"
val() { jq -r --arg id "$2" '.[] | select(.id == $id) | .value' "$1"; }
agg_max() { jq -r --arg id "$2" '.[] | select(.id == $id) | .max' "$1"; }
check "the global aggregate that cannot keep up is busy (> 300 ms/s)" \
  test "$(agg_max "$W/agg.json" busyTimeMsPerSecond | cut -d. -f1)" -gt 300
check "the aggregate itself is not back-pressured" test "$(agg_max "$W/agg.json" backPressuredTimeMsPerSecond | cut -d. -f1)" -eq 0
check "the source subtask sending to the aggregate's lane is back-pressured (> 200 ms/s)" \
  test "$(val "$W/src.json" 1.backPressuredTimeMsPerSecond)" -gt 200
check "the source vertex's back-pressure level is not ok (Flink's thresholds: ok <= 10 %, low <= 50 %)" \
  jqe '.status == "ok" and (.backpressureLevel == "high" or .backpressureLevel == "low") and .backpressureLevel == .["backpressure-level"]
       and (.subtasks | length) == 2 and .subtasks[1].ratio > 0.2' "$W/src-bp.json"
check "the aggregate's level is ok" jqe '.backpressureLevel == "ok" and .subtasks[0].ratio == 0' "$W/agg-bp.json"
for s in 0 1; do
  sum=$(( $(val "$W/src.json" $s.busyTimeMsPerSecond | cut -d. -f1) + $(val "$W/src.json" $s.backPressuredTimeMsPerSecond) + $(val "$W/src.json" $s.idleTimeMsPerSecond) ))
  check "source subtask $s: busy + back-pressured + idle = 1000 ms per second (got $sum)" test "$sum" -ge 990 -a "$sum" -le 1000
done
r0="$(val "$W/src.json" 0.numRecordsOut)"; r1="$(val "$W/src.json" 1.numRecordsOut)"
check "both source subtasks read (the lane running the aggregate does not starve its own source: $r0 / $r1)" \
  test "$r0" -gt 0 -a "$r1" -gt 0 -a $((r0 * 3)) -gt "$r1" -a $((r1 * 3)) -gt "$r0"
check "records per second are measured" test "$(val "$W/src.json" 0.numRecordsOutPerSecond | cut -d. -f1)" -gt 0
check "the vertex details carry the accumulated times (ms): busy a number, idle and back-pressured counts" \
  jqe '([.vertices[].metrics | (.["accumulated-busy-time"] | type) == "number" and .["accumulated-idle-time"] >= 0
        and .["accumulated-backpressured-time"] >= 0] | all) and .vertices[0].metrics["accumulated-backpressured-time"] > 0' "$W/skew-job.json"
check "doubles are Java's Double.toString (no 17-digit renderings such as 0.75400000000000003)" \
  bash -c "! grep -qE '[0-9]\\.[0-9]*(0000000000|9999999999)[0-9]' '$W/src-bp.json' '$W/agg-bp.json'"

api GET "/jobs/$jl/vertices/$(api GET "/jobs/$jl" | jq -r '.vertices[1].id')/subtasks/metrics?get=$M" > "$W/slow.json"
api GET "/jobs/$jl/vertices/$(api GET "/jobs/$jl" | jq -r '.vertices[0].id')/backpressure" > "$W/slow-bp.json"
check "a rate-limited job is idle (> 800 ms/s on every aggregate subtask)" \
  test "$(jq -r '.[] | select(.id == "idleTimeMsPerSecond") | .min' "$W/slow.json" | cut -d. -f1)" -gt 800
check "a source waiting for its rate limit is idle, not busy or back-pressured" \
  jqe '.backpressureLevel == "ok" and ([.subtasks[] | .ratio == 0 and .idleRatio > 0.8 and .busyRatio < 0.2] | all)' "$W/slow-bp.json"
check "the metric ids list the task times" \
  bash -c "curl -s '$BASE/jobs/$jl/vertices/$(api GET "/jobs/$jl" | jq -r '.vertices[0].id')/subtasks/metrics' | jq -e '[.[].id] | index(\"busyTimeMsPerSecond\") and index(\"backPressuredTimeMsPerSecond\") and index(\"idleTimeMsPerSecond\")' > /dev/null"
api PATCH "/jobs/$js?mode=cancel" > /dev/null; api PATCH "/jobs/$jl?mode=cancel" > /dev/null
if [[ $FAILS -gt 0 ]]; then for f in src agg src-bp agg-bp slow slow-bp; do echo "== $f.json"; cat "$W/$f.json"; echo; done; fi
exit 0
