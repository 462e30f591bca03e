#!/usr/bin/env bash
# chaining.sh — seed 004's chaining step: with operator chaining on, the vertex count of
# /jobs/<jid> is the number of non-forward edges + 1; with pipeline.operator-chaining.enabled =
# false it is the number of operators. Also: INSERT returns at once with Flink's submission lines,
# and its Job ID is the one the REST API lists under pipeline.name.
TEST_NAME=chaining
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"

for i in $(seq 1 60); do echo "p$((i % 4)),u$((i % 7)),$((i % 9))"; done > "$W/clicks.csv"
cat > "$W/ddl.sql" <<SQL
CREATE TABLE clicks (page STRING, user_id STRING, amount INT)
  WITH ('connector' = 'filesystem', 'path' = '$W/clicks.csv', 'format' = 'csv');
CREATE TABLE page_sink (page STRING, cnt BIGINT) WITH ('connector' = 'blackhole');
SQL
job() { # job NAME CHAINING QUERY -> runs the INSERT, prints the client output into $W/NAME.out
  cat > "$W/$1.sql" <<SQL
SET 'pipeline.name' = '$1';
SET 'pipeline.operator-chaining.enabled' = '$2';
$3;
SQL
  sql "$W/$1.sql" -i "$W/ddl.sql" > "$W/$1.out" 2>&1
}
one_agg="INSERT INTO page_sink SELECT page, COUNT(*) FROM clicks WHERE amount > 0 GROUP BY page"
two_aggs="INSERT INTO page_sink SELECT page, COUNT(*) FROM (SELECT page, user_id FROM clicks GROUP BY page, user_id) GROUP BY page"

cluster_start
job agg-chained true "$one_agg"
check "the INSERT prints Flink's submission lines" grep -q "^\[INFO\] SQL update statement has been successfully submitted to the cluster:" "$W/agg-chained.out"
printed="$(sed -n 's/^Job ID: \([0-9a-f]\{32\}\)$/\1/p' "$W/agg-chained.out")"
jid="$(jid_by_name agg-chained)"
check "the printed Job ID is the REST job id" test -n "$jid" -a "$printed" = "$jid"
api GET "/jobs/$jid" > "$W/agg-chained.json"
nv="$(jq '.vertices | length' "$W/agg-chained.json")"
nf="$(jq '[.plan.nodes[].inputs[]? | select(.ship_strategy != "FORWARD")] | length' "$W/agg-chained.json")"
check "chaining on: vertices ($nv) = non-forward edges ($nf) + 1" test "$nv" -eq $((nf + 1))
check "chaining on: two vertices for one GROUP BY" test "$nv" -eq 2
check "the source vertex chains the Calc" jqe '.vertices[0].name == "Source: clicks[1] -> Calc[2]"' "$W/agg-chained.json"
# Flink 2.3: no operator for the identity projection before the sink, and a blackhole sink is a
# SinkV2 writer
check "the aggregate vertex ends in the sink" jqe '.vertices[1].name == "GroupAggregate[4] -> page_sink[5]: Writer"' "$W/agg-chained.json"
nops="$(jq '[.vertices[].name | split(" -> ") | length] | add' "$W/agg-chained.json")"

job agg-unchained false "$one_agg"
ujid="$(jid_by_name agg-unchained)"
api GET "/jobs/$ujid" > "$W/agg-unchained.json"
unv="$(jq '.vertices | length' "$W/agg-unchained.json")"
check "chaining off: vertices ($unv) = operators ($nops)" test "$unv" -eq "$nops"
check "chaining off: four vertices, as Flink 2.3 starts" test "$unv" -eq 4
check "chaining off: no vertex chains operators" jqe '[.vertices[].name | contains(" -> ")] | any | not' "$W/agg-unchained.json"

job two-aggs true "$two_aggs"
tjid="$(jid_by_name two-aggs)"
api GET "/jobs/$tjid" > "$W/two-aggs.json"
tnv="$(jq '.vertices | length' "$W/two-aggs.json")"
tnf="$(jq '[.plan.nodes[].inputs[]? | select(.ship_strategy != "FORWARD")] | length' "$W/two-aggs.json")"
check "two exchanges: vertices ($tnv) = non-forward edges ($tnf) + 1 = 3" test "$tnv" -eq $((tnf + 1)) -a "$tnv" -eq 3

# every vertex can be read on its own
vid="$(jq -r '.vertices[1].id' "$W/agg-chained.json")"
api GET "/jobs/$jid/vertices/$vid" > "$W/vertex.json"
check "/jobs/<jid>/vertices/<vid> answers 200 with its name" \
  test "$STATUS" = 200 -a "$(jq -r .name "$W/vertex.json")" = "$(jq -r '.vertices[1].name' "$W/agg-chained.json")"
check "the vertex has one subtask per parallelism" jqe '(.subtasks | length) == .parallelism' "$W/vertex.json"
api GET "/jobs/$jid/plan" > "$W/plan.json"
check "/jobs/<jid>/plan has one node per vertex" test "$(jq '.plan.nodes | length' "$W/plan.json")" -eq "$nv"
check "the job finishes" wait_state "$jid" FINISHED
exit 0
