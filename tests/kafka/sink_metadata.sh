#!/usr/bin/env bash
# Writable metadata of the kafka and upsert-kafka sinks: 'timestamp' (TIMESTAMP_LTZ(3)) is the
# record's CreateTime, 'headers' (MAP<STRING, BYTES>) its headers; the broker's view of every record
# (key, value, timestamp, headers, read with kcat) equals what Flink 2.3 with its Kafka connector
# 4.0.1 wrote for the same INSERTs (recorded below):
#   m:  kafka; a NULL timestamp is the producer's clock, NULL headers none, a header entry with a
#       NULL value is left out;
#   u:  upsert-kafka over an aggregation: every upsert carries its row's timestamp and headers (id INT:
#       weir puts a SinkUpsertMaterializer behind a CAST(id AS BIGINT) where Flink keeps the upsert
#       key through the lossless cast, which adds a tombstone);
#   ub: the same with 'sink.buffer-flush.*': the buffer keeps the last record of a key with its
#       metadata (Flink: the same records, in its hash map's order);
#   w:  kafka exactly-once without checkpointing: the transaction's records carry them too;
#   pm: a compiled plan (its WritingMetadata ability) executed by EXECUTE PLAN writes them.
# Then weir's source reads m's metadata back, and a negative timestamp fails the job with Kafka's
# message (Flink's job fails with it).
TEST_NAME=kafka/sink_metadata
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic m:1 u:1 ub:1 w:1 pm:1

cat > "$KTMP/write.sql" <<SQL
SET 'table.dml-sync' = 'true';
SET 'parallelism.default' = '1';
CREATE TABLE m (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  h MAP<STRING, BYTES> METADATA FROM 'headers', p INT METADATA FROM 'partition' VIRTUAL)
  WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv');
INSERT INTO m VALUES (1, 'a', TO_TIMESTAMP_LTZ(1700000000123, 3), MAP['k1', CAST('v1' AS BYTES), 'k2', CAST('' AS BYTES)]),
  (2, 'b', CAST(NULL AS TIMESTAMP_LTZ(3)), CAST(NULL AS MAP<STRING, BYTES>)),
  (3, 'c', TO_TIMESTAMP_LTZ(5, 3), MAP['z', CAST(NULL AS BYTES)]);
CREATE TABLE u (id INT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  h MAP<STRING, BYTES> METADATA FROM 'headers', PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'u', 'properties.bootstrap.servers' = '$BOOTSTRAP', 'key.format' = 'csv', 'value.format' = 'csv');
INSERT INTO u SELECT id, LAST_VALUE(name), TO_TIMESTAMP_LTZ(MAX(ms), 3), MAP['n', CAST(CAST(COUNT(*) AS STRING) AS BYTES)]
  FROM (VALUES (1, 'a', 1000), (2, 'b', 2000), (1, 'c', 3000)) AS t(id, name, ms) GROUP BY id;
CREATE TABLE ub (id INT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  h MAP<STRING, BYTES> METADATA FROM 'headers', PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',
  'topic' = 'ub', 'properties.bootstrap.servers' = '$BOOTSTRAP', 'key.format' = 'csv', 'value.format' = 'csv',
  'sink.buffer-flush.max-rows' = '100', 'sink.buffer-flush.interval' = '1h');
INSERT INTO ub SELECT id, LAST_VALUE(name), TO_TIMESTAMP_LTZ(MAX(ms), 3), MAP['n', CAST(CAST(COUNT(*) AS STRING) AS BYTES)]
  FROM (VALUES (1, 'a', 1000), (2, 'b', 2000), (1, 'c', 3000)) AS t(id, name, ms) GROUP BY id;
CREATE TABLE w (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  h MAP<STRING, BYTES> METADATA FROM 'headers') WITH ('connector' = 'kafka', 'topic' = 'w',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = 'wmeta', 'properties.transaction.timeout.ms' = '900000');
INSERT INTO w VALUES (7, 'x', TO_TIMESTAMP_LTZ(42, 3), MAP['t', CAST('1' AS BYTES)]);
CREATE TABLE pm (ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', id BIGINT, h MAP<STRING, BYTES> METADATA FROM 'headers')
  WITH ('connector' = 'kafka', 'topic' = 'pm', 'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv');
COMPILE PLAN '$KTMP/pm.json' FOR INSERT INTO pm VALUES (TO_TIMESTAMP_LTZ(77, 3), 9, MAP['q', CAST('r' AS BYTES)]);
EXECUTE PLAN '$KTMP/pm.json';
SQL
t0=$(($(date +%s%3N) - 1000))
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/write.sql" > "$KTMP/write.out" 2>&1 \
  || { tail -n 20 "$KTMP/write.out"; fail "the INSERTs failed"; }
t1=$(($(date +%s%3N) + 1000))

# one line per record: key | value | timestamp type and value | headers (kcat's JSON: name, value, ...)
view() {
  kcat -b "$BOOTSTRAP" -C -t "$1" -o beginning -e -q -J -X isolation.level=read_committed \
    | python3 -c 'import json,sys
for l in sys.stdin:
    d = json.loads(l)
    print("%s|%s|%s %s|%s" % (d.get("key"), d.get("payload"), d["tstype"], d["ts"], ",".join(d.get("headers", []))))'
}
view m > "$KTMP/m.txt"
# Flink's records (the second one's timestamp is the producer's clock: checked below)
cat > "$KTMP/m.want" <<'OUT'
None|1,a|create 1700000000123|k1,v1,k2,
None|2,b|create NOW|
None|3,c|create 5|
OUT
ts2="$(sed -n 2p "$KTMP/m.txt" | sed -E 's/^.*\|create ([0-9]+)\|.*$/\1/')"
[[ "$ts2" =~ ^[0-9]+$ && $ts2 -ge $t0 && $ts2 -le $t1 ]] || fail "m: the record without timestamp has $ts2, not the producer's clock ($t0..$t1)"
sed -i "2s/create $ts2/create NOW/" "$KTMP/m.txt"
diff "$KTMP/m.want" "$KTMP/m.txt" > "$KTMP/d1" || { cat "$KTMP/d1"; fail "m's records differ from Flink's"; }

cat > "$KTMP/u.want" <<'OUT'
1|1,a|create 1000|n,1
2|2,b|create 2000|n,1
1|1,c|create 3000|n,2
OUT
view u > "$KTMP/u.txt"
diff "$KTMP/u.want" "$KTMP/u.txt" > "$KTMP/d2" || { cat "$KTMP/d2"; fail "u's records differ from Flink's"; }
# the reducing buffer: the last record of each key, its metadata with it
printf '%s\n' '1|1,c|create 3000|n,2' '2|2,b|create 2000|n,1' > "$KTMP/ub.want"
view ub | sort > "$KTMP/ub.txt"
diff "$KTMP/ub.want" "$KTMP/ub.txt" > "$KTMP/d3" || { cat "$KTMP/d3"; fail "ub's records differ"; }
# the compiled plan's WritingMetadata ability, executed
grep -q '"type" : "WritingMetadata"' "$KTMP/pm.json" || grep -q '"type": "WritingMetadata"' "$KTMP/pm.json" || fail "pm.json has no WritingMetadata ability"
[[ "$(view pm)" == 'None|9|create 77|q,r' ]] || fail "EXECUTE PLAN wrote '$(view pm)'"
echo 'None|7,x|create 42|t,1' > "$KTMP/w.want"
view w > "$KTMP/w.txt"
diff "$KTMP/w.want" "$KTMP/w.txt" > "$KTMP/d4" || { cat "$KTMP/d4"; fail "w's (exactly-once) records differ from Flink's"; }

# read back by weir's source; a negative timestamp fails the job (Kafka's ProducerRecord check)
cat > "$KTMP/read.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.local-time-zone' = 'UTC';
SET 'table.dml-sync' = 'true';
CREATE TABLE m (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  h MAP<STRING, BYTES> METADATA FROM 'headers', p INT METADATA FROM 'partition' VIRTUAL)
  WITH ('connector' = 'kafka', 'topic' = 'm', 'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset');
SELECT id, ts, h FROM m WHERE id <> 2;
INSERT INTO m VALUES (4, 'd', TO_TIMESTAMP_LTZ(-5, 3), MAP['x', X'00ff']);
SQL
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/read.sql" > "$KTMP/read.out" 2>&1
got="$(grep -E '^\| \+I ' "$KTMP/read.out" | sed -E 's/ +\|/ |/g; s/\| +/| /g' | tr '\n' ';')"
want="| +I | 1 | 2023-11-14 22:13:20.123 | {k1=x'7631', k2=x''} |;| +I | 3 | 1970-01-01 00:00:00.005 | {} |;"
[[ "$got" == "$want" ]] || { cat "$KTMP/read.out"; fail "read back: '$got'"; }
grep -q "java.lang.IllegalArgumentException: Invalid timestamp: -5. Timestamp should always be non-negative or null." "$KTMP/read.out" \
  || { tail -n 8 "$KTMP/read.out"; fail "a negative timestamp did not fail with Kafka's message"; }
[[ "$(view m | wc -l)" == 3 ]] || fail "the record with a negative timestamp was written"
exit 0
