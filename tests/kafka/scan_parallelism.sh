#!/usr/bin/env bash
# 'scan.parallelism' of a Kafka source: the topic's partitions are assigned to the source's own
# subtasks as Flink's enumerator assigns them, with more partitions than subtasks and fewer (idle
# subtasks read nothing), and the operator after the source runs at parallelism.default. The
# per-subtask counts are Flink 2.3.0's (flink-sql-connector-kafka 4.0.1, measured through the REST
# API of the same jobs: write-records of the source subtasks): topic sp5 (partition p holds p + 1
# records) at scan.parallelism 2 -> [9, 6], at 3 -> [3, 5, 7]; topic sp1 (one partition, 4 records)
# at 3 -> [4, 0, 0]; the Calc after it reads all rows with parallelism.default subtasks. An
# upsert-kafka source at scan.parallelism 2 feeds the operator after it through a keyBy on its
# primary key (the plan's HASH edge, as in Flink): the aggregate over it ends at the rows of the
# last value of every key, under parallelism 1 and 2.
TEST_NAME=kafka/scan_parallelism
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic sp5:5 sp1:1 uk:2
for p in 0 1 2 3 4; do seq $((p * 10 + 1)) $((p * 10 + p + 1)) | kafka_produce sp5 "$p"; done
seq 100 103 | kafka_produce sp1 0
printf '%s\n' '1|{"v":10}' '3|{"v":30}' '3|{"v":33}' '5|{"v":50}' | KEYDELIM='|' kafka_produce uk 0
printf '%s\n' '2|{"v":20}' '2|{"v":25}' '4|{"v":40}' | KEYDELIM='|' kafka_produce uk 1

# case <name> <scan.parallelism> <topic> <parallelism.default> <source subtask rows> <Calc subtasks>
case_() {
  cat > "$KTMP/$1.sql" <<SQL
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '$4';
CREATE TABLE k (id INT) WITH ('connector' = 'kafka', 'topic' = '$3', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'scan.parallelism' = '$2');
CREATE TABLE bh (id INT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT id + 1 FROM k;
SQL
  WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$KTMP/$1.sql" > "$KTMP/$1.out" 2> "$KTMP/$1.err" \
    || { cat "$KTMP/$1.out" "$KTMP/$1.err"; fail "$1: the job failed"; return; }
  grep -q "^Source: k\[1\]: .* subtasks_rows_in=\[$5\]" "$KTMP/$1.err" \
    || { grep "^Source" "$KTMP/$1.err"; fail "$1: the source subtasks did not read [$5]"; }
  local calc total
  calc="$(grep "^Calc\[2\]:" "$KTMP/$1.err")"
  total="$(echo "$5" | tr ',' '+' | bc)"
  grep -q "rows_in=$total " <<< "$calc" || fail "$1: the Calc did not read $total rows: $calc"
  if [[ "$6" -gt 1 ]]; then
    [[ "$(sed -n 's/.*subtasks_rows_in=\[\([0-9,]*\)\].*/\1/p' <<< "$calc" | tr ',' '\n' | wc -l)" -eq "$6" ]] \
      || fail "$1: the Calc does not run $6 subtasks: $calc"
  else
    grep -q "subtasks_rows_in" <<< "$calc" && fail "$1: the Calc runs more than one subtask: $calc"
  fi
}
case_ more-partitions 2 sp5 1 "9,6" 1
case_ fewer-partitions 3 sp1 1 "4,0,0" 1
case_ default-2 3 sp5 2 "3,5,7" 2

for p in 1 2; do
  cat > "$KTMP/uk$p.sql" <<SQL
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '$p';
CREATE TABLE kd (id INT, v INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'uk',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'key.format' = 'csv', 'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY', 'scan.bounded.mode' = 'latest-offset', 'scan.parallelism' = '2');
CREATE TABLE o (n BIGINT, s INT) WITH ('connector' = 'print');
INSERT INTO o SELECT COUNT(*), SUM(v) FROM kd;
SQL
  WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$KTMP/uk$p.sql" > "$KTMP/uk$p.out" 2> "$KTMP/uk$p.err" \
    || { cat "$KTMP/uk$p.out" "$KTMP/uk$p.err"; fail "upsert-kafka at parallelism $p: the job failed"; continue; }
  grep -q "^Source: kd\[1\]: .* subtasks_rows_in=\[4,3\]" "$KTMP/uk$p.err" || fail "upsert-kafka at $p: the source subtasks did not read [4, 3]"
  [[ "$(grep -E '[+-][IU]\[' "$KTMP/uk$p.out" | tail -n 1 | sed 's/^[0-9]*> //')" == "+U[5, 158]" ]] \
    || { cat "$KTMP/uk$p.out"; fail "upsert-kafka at $p: the last row is not +U[5, 158]"; }
done
exit 0
