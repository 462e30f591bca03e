#!/usr/bin/env bash
# Sink round trip: INSERT INTO a kafka table (key.format csv on key.fields, value.format json,
# value.fields-include EXCEPT_KEY), checked with kcat (keys, values, partitions) and read back by
# weir's kafka source; 'sink.partitioner' = 'fixed' puts every record of the single sink subtask
# into partition 0, 'round-robin' spreads them evenly, 'default' sends equal keys to one partition
# (the partition Kafka's murmur2 partitioner picks: the same keys sent by kcat with librdkafka's
# murmur2 partitioner, as the Java client's, land in the same partitions) and the records of a
# keyless 'default' sink all arrive (weir's sticky choice of one partition per chunk).
TEST_NAME=kafka/sink_roundtrip
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic out_default:3 out_fixed:3 out_rr:3 out_ref:3 out_sticky:3

cat > "$KTMP/write.sql" <<SQL
SET 'table.dml-sync' = 'true';
CREATE TABLE src (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'datagen', 'number-of-rows' = '60',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '60', 'fields.name.length' = '5');
CREATE TABLE k_default (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'kafka', 'topic' = 'out_default',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'key.format' = 'csv', 'key.fields' = 'id',
  'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE k_fixed (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'kafka', 'topic' = 'out_fixed',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv', 'sink.partitioner' = 'fixed');
CREATE TABLE k_rr (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'kafka', 'topic' = 'out_rr',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'json', 'sink.partitioner' = 'round-robin',
  'sink.delivery-guarantee' = 'none');
CREATE TABLE k_sticky (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'kafka', 'topic' = 'out_sticky',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv');
INSERT INTO k_default SELECT id % 10, name, price FROM src;
INSERT INTO k_sticky SELECT * FROM src;
INSERT INTO k_fixed SELECT * FROM src;
INSERT INTO k_rr SELECT * FROM src;
SQL
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/write.sql" > "$KTMP/write.out" 2>&1 || { cat "$KTMP/write.out"; fail "the INSERTs failed"; }

# default: key "id" as CSV, value JSON without the key column; one partition per key
kafka_consume out_default '%p|%k|%s\n' > "$KTMP/default.txt"
[[ "$(wc -l < "$KTMP/default.txt")" -eq 60 ]] || fail "out_default has $(wc -l < "$KTMP/default.txt") records, want 60"
grep -qvE '^[0-2]\|[0-9]\|\{"name":"[0-9a-f]{5}","price":-?[0-9][0-9.E+-]*\}$' "$KTMP/default.txt" \
  && { head -3 "$KTMP/default.txt"; fail "out_default records are not key=csv id, value=json without id"; }
[[ "$(cut -d'|' -f1,2 "$KTMP/default.txt" | sort -u | wc -l)" -eq 10 ]] || fail "a key went to two partitions"
# the partition of each key is murmur2's: kcat (librdkafka's murmur2 partitioner) sends the same keys
seq 0 9 | sed 's/$/|x/' | kcat -b "$BOOTSTRAP" -P -t out_ref -K '|' -z none -X topic.partitioner=murmur2_random \
  || fail "kcat produce to out_ref failed"
[[ "$(cut -d'|' -f1,2 "$KTMP/default.txt" | sort -u | sort -t'|' -k2)" == \
   "$(kafka_consume out_ref '%p|%k\n' | sort -t'|' -k2)" ]] \
  || { kafka_consume out_ref '%p|%k\n'; fail "the keys' partitions are not murmur2's"; }
# keyless records with the default partitioner: all of them, in order within their partition
[[ "$(kafka_consume out_sticky '%s\n' | cut -d, -f1 | sort -n | tr '\n' ' ')" == "$(seq 1 60 | tr '\n' ' ')" ]] \
  || fail "out_sticky does not hold the 60 keyless records"
for p in 0 1 2; do
  ids="$(kcat -b "$BOOTSTRAP" -C -t out_sticky -p "$p" -o beginning -e -q -f '%s\n' | cut -d, -f1)"
  [[ "$ids" == "$(sort -n <<< "$ids")" ]] || fail "partition $p of out_sticky is out of order"
done
# fixed: the only subtask writes to partition 0; CSV values
kafka_consume out_fixed '%p|%s\n' > "$KTMP/fixed.txt"
[[ "$(cut -d'|' -f1 "$KTMP/fixed.txt" | sort | uniq -c | awk '{print $2":"$1}')" == "0:60" ]] || { cat "$KTMP/fixed.txt" | head; fail "fixed partitioner"; }
grep -qvE '^0\|[0-9]+,[0-9a-f]{5},-?[0-9]+\.[0-9]{2}$' "$KTMP/fixed.txt" && { head -3 "$KTMP/fixed.txt"; fail "csv values"; }
# round-robin: 20 per partition
[[ "$(kafka_consume out_rr '%p\n' | sort | uniq -c | awk '{printf "%s:%s ", $2, $1}')" == "0:20 1:20 2:20 " ]] || fail "round-robin partitioner"

# read back: the key columns come from the key, the rest from the value
cat > "$KTMP/read.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE k_default (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'kafka', 'topic' = 'out_default',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'key.format' = 'csv', 'key.fields' = 'id',
  'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset');
CREATE TABLE k_fixed (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'kafka', 'topic' = 'out_fixed;out_rr',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'csv.ignore-parse-errors' = 'true');
CREATE TABLE src (id INT, name STRING, price DECIMAL(6, 2)) WITH ('connector' = 'datagen', 'number-of-rows' = '60',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '60', 'fields.name.length' = '5');
SELECT COUNT(*), SUM(id), COUNT(DISTINCT name), SUM(price) FROM k_default;
SELECT COUNT(*), SUM(id), COUNT(DISTINCT name) FROM k_fixed;
SQL
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/read.sql" > "$KTMP/read.out" 2>&1 || { cat "$KTMP/read.out"; fail "read back failed"; }
mapfile -t got < <(grep -E '^\| +[0-9]' "$KTMP/read.out" | sed -E 's/ +\|/ |/g; s/\| +/| /g')
# sum of id % 10 over 1..60 = 6 * 45 = 270; the JSON records of out_rr are not CSV rows: skipped
[[ "${got[0]}" =~ ^'| 60 | 270 | 60 | ' ]] || { cat "$KTMP/read.out"; fail "read back of out_default: ${got[0]}"; }
[[ "${got[1]}" == '| 60 | 1830 | 60 |' ]] || { cat "$KTMP/read.out"; fail "read back of out_fixed;out_rr: ${got[1]}"; }
exit 0
