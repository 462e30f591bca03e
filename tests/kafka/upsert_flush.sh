#!/usr/bin/env bash
# upsert-kafka 'sink.buffer-flush.interval' while an unbounded job runs (one job, two sinks fed by
# the same datagen sequence on 5 keys, 'sink.buffer-flush.max-rows' = '1000' for both):
#   i_short: interval 300ms -> the buffer is flushed while the job runs, at most one record per
#            key per flush (the reducing buffer);
#   i_long:  interval 1h    -> nothing is written while the job runs (no checkpoint, no end).
# The job is then killed. (An insert-only query has no upsert key: Flink 2.3 wants ON CONFLICT;
# DO DEDUPLICATE over inserts writes them as they come, no materializer.)
TEST_NAME=kafka/upsert_flush
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic i_short:1 i_long:1
cat > "$KTMP/flush.sql" <<SQL
CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100', 'fields.id.kind' = 'sequence',
  'fields.id.start' = '1', 'fields.id.end' = '100000000');
CREATE TABLE i_short (k INT, v BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'i_short',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'key.format' = 'csv', 'value.format' = 'csv',
  'sink.buffer-flush.max-rows' = '1000', 'sink.buffer-flush.interval' = '300ms');
CREATE TABLE i_long (k INT, v BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'i_long',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'key.format' = 'csv', 'value.format' = 'csv',
  'sink.buffer-flush.max-rows' = '1000', 'sink.buffer-flush.interval' = '1h');
BEGIN STATEMENT SET;
INSERT INTO i_short SELECT CAST(id % 5 AS INT), id FROM g ON CONFLICT DO DEDUPLICATE;
INSERT INTO i_long SELECT CAST(id % 5 AS INT), id FROM g ON CONFLICT DO DEDUPLICATE;
END;
SQL
WEIR_EMBEDDED=1 "$WEIR" sql-client -f "$KTMP/flush.sql" > "$KTMP/client.out" 2>&1 &
job=$!
trap 'rc=$?; kill -KILL $job 2> /dev/null; (exit $rc); kafka_cleanup' EXIT INT TERM
# records in a topic being written: the offset of its last record + 1 (kcat -e would chase the end)
count_now() {
  local o
  o="$(timeout 10 kcat -b "$BOOTSTRAP" -C -t "$1" -o -1 -c 1 -e -q -f '%o\n' 2> /dev/null)"
  echo $(( ${o:--1} + 1 ))
}
n=0
for _ in $(seq 1 60); do
  n="$(count_now i_short)"
  [[ "$n" -ge 20 ]] && break
  kill -0 $job 2> /dev/null || break
  sleep 0.5
done
kill -0 $job 2> /dev/null || { cat "$KTMP/client.out"; fail "the job ended"; }
long="$(count_now i_long)"
kill -KILL $job 2> /dev/null
wait $job 2> /dev/null
kafka_consume i_short '%k|%s\n' > "$KTMP/short.txt"
[[ "$n" -ge 20 ]] || fail "i_short: $n records while the job ran, want at least 20 (flushes every 300ms)"
[[ "$long" -eq 0 ]] || fail "i_long: $long records while the job ran, want none (interval 1h)"
# 100 rows/s on 5 keys, flushed every 300ms: about 30 rows per flush, at most 5 records (one per key);
# the largest value written so far minus the count of records shows the reduction
max="$(cut -d'|' -f2 "$KTMP/short.txt" | cut -d, -f2 | sort -n | tail -1)"
recs="$(wc -l < "$KTMP/short.txt")"
[[ "$max" -gt $((recs * 2)) ]] || fail "i_short: $recs records for values up to $max: the buffer did not reduce per key"
exit 0
