#!/usr/bin/env bash
# sink_parallelism.sh — 'sink.parallelism' at runtime, as the REST API shows it: a filesystem sink
# with 'sink.parallelism' = '2' under parallelism.default 1 is a vertex of parallelism 2 behind a
# REBALANCE edge, both of its subtasks read rows (dealt round-robin: 5 and 5 of 10), and the sink
# writes one part file per subtask (Flink 2.3.0: part-<uuid>-0-0 and part-<uuid>-1-0; the vertices
# are Flink's: Source, StreamingFileWriter, end: Writer).
TEST_NAME=sink_parallelism
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"

cat > "$W/job.sql" <<SQL
SET 'pipeline.name' = 'sinkpar';
SET 'parallelism.default' = '1';
CREATE TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'fields.id.kind' = 'sequence',
  'fields.id.start' = '1', 'fields.id.end' = '10');
CREATE TABLE out2 (id INT) WITH ('connector' = 'filesystem', 'path' = '$W/out2', 'format' = 'csv',
  'sink.parallelism' = '2');
INSERT INTO out2 SELECT id FROM gen;
SQL

cluster_start
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name sinkpar)"
check "the job was submitted" test -n "$jid"
check "the job finishes" wait_state "$jid" FINISHED
api GET "/jobs/$jid" > "$W/job.json"
check "three vertices: the source, the writer and its end" jqe '[.vertices[].name] == ["Source: gen[1]", "StreamingFileWriter", "end: Writer"]' "$W/job.json"
check "the writer's vertex has the sink's parallelism" jqe '.vertices[1].parallelism == 2 and .vertices[0].parallelism == 1' "$W/job.json"
check "the edge into the writer is a rebalance" jqe '[.plan.nodes[].inputs[]? | .ship_strategy] | index("REBALANCE") != null' "$W/job.json"
vid="$(jq -r '.vertices[1].id' "$W/job.json")"
api GET "/jobs/$jid/vertices/$vid" > "$W/vertex.json"
check "the writer has two subtasks" jqe '(.subtasks | length) == 2' "$W/vertex.json"
check "each writer subtask read 5 of the 10 rows" jqe '[.subtasks[].metrics["read-records"]] == [5, 5]' "$W/vertex.json"
nfiles="$(find "$W/out2" -name 'part-*' | wc -l)"
check "one part file per writer subtask ($nfiles)" test "$nfiles" -eq 2
check "the files end in -0-0 and -1-0" test "$(find "$W/out2" -name 'part-*' | sed 's/.*\(-[0-9]*-[0-9]*\)$/\1/' | sort | tr '\n' ' ')" = "-0-0 -1-0 "
check "the files hold the 10 rows" test "$(cat "$W"/out2/part-* | sort -n | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 9 10 "
exit 0
