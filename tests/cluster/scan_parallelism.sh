#!/usr/bin/env bash
# scan_parallelism.sh — 'scan.parallelism' at runtime, as the REST API shows it. A datagen source
# with 'scan.parallelism' = '3' under parallelism.default 1 is a vertex of 3 subtasks that write
# 4, 3 and 3 of the 10 rows of its sequence, and the vertex after it (Calc -> writer, chained) runs
# at the default parallelism behind a REBALANCE edge and reads all 10 (Flink 2.3.0: the same
# vertices, parallelisms, ship strategy and per-subtask counts: Source: gen[1] 3 subtasks [4, 3, 3],
# "Calc[2] -> StreamingFileWriter -> end: Writer" 1 subtask reading 10). The writer leaves one part
# file with the 10 rows.
TEST_NAME=scan_parallelism
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"

cat > "$W/job.sql" <<SQL
SET 'pipeline.name' = 'scanpar';
SET 'parallelism.default' = '1';
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'scan.parallelism' = '3',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE o1 (id INT, t STRING) WITH ('connector' = 'filesystem', 'path' = '$W/o1', 'format' = 'csv');
INSERT INTO o1 SELECT id, CAST(id AS STRING) FROM gen;
SQL

cluster_start
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name scanpar)"
check "the job was submitted" test -n "$jid"
check "the job finishes" wait_state "$jid" FINISHED
api GET "/jobs/$jid" > "$W/job.json"
check "two vertices: the source, and the Calc chained to the writer" \
  jqe '[.vertices[].name] == ["Source: gen[1]", "Calc[2] -> StreamingFileWriter -> end: Writer"]' "$W/job.json"
check "the source's vertex has scan.parallelism, the next the default" \
  jqe '.vertices[0].parallelism == 3 and .vertices[1].parallelism == 1' "$W/job.json"
check "the edge behind the source is a rebalance" \
  jqe '[.plan.nodes[].inputs[]? | .ship_strategy] == ["REBALANCE"]' "$W/job.json"
vid="$(jq -r '.vertices[0].id' "$W/job.json")"
api GET "/jobs/$jid/vertices/$vid" > "$W/source.json"
check "the source has three subtasks" jqe '(.subtasks | length) == 3' "$W/source.json"
check "the source subtasks wrote 4, 3 and 3 rows" jqe '[.subtasks[].metrics["write-records"]] == [4, 3, 3]' "$W/source.json"
vid="$(jq -r '.vertices[1].id' "$W/job.json")"
api GET "/jobs/$jid/vertices/$vid" > "$W/calc.json"
check "the Calc's one subtask read all 10 rows" jqe '[.subtasks[].metrics["read-records"]] == [10]' "$W/calc.json"
nfiles="$(find "$W/o1" -name 'part-*' | wc -l)"
check "one part file ($nfiles)" test "$nfiles" -eq 1
check "the file holds the 10 rows" test "$(cut -d, -f1 "$W"/o1/part-* | sort -n | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 9 10 "
exit 0
