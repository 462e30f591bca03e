#!/usr/bin/env bash
# Undecodable records: a CSV record that does not parse fails the job with a message naming the
# topic, partition and offset of the record; with 'value.format' = 'json' and
# 'value.json.ignore-parse-errors' = 'true' malformed records are skipped (and a bad field read as
# NULL), the good ones read.
TEST_NAME=kafka/bad_records
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic bad:2 js:2
printf '1,a\n2,b\n' | kafka_produce bad 0
printf '3,c\nfour,d\n5,e\n' | kafka_produce bad 1
printf '{"id":1,"s":"a"}\n{"id":2,' | kafka_produce js 0
printf 'not json\n{"id":"x","s":"b"}\n{"id":4,"s":"d"}\n' | kafka_produce js 1

cat > "$KTMP/csv.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE bad (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'bad', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv');
SELECT * FROM bad;
SQL
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/csv.sql" > "$KTMP/csv.out" 2>&1 && fail "a bad CSV record did not fail the job"
grep -q "java.io.IOException: Failed to deserialize consumer record of topic 'bad', partition 1, offset 1: Failed to deserialize CSV row 'four,d', field 'id': For input string: \"four\"" "$KTMP/csv.out" \
  || { cat "$KTMP/csv.out"; fail "the error does not name topic, partition and offset"; }

cat > "$KTMP/json.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'execution.runtime-mode' = 'batch';
CREATE TABLE js (id INT, s STRING) WITH ('connector' = 'kafka', 'topic' = 'js', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'value.format' = 'json',
  'value.json.ignore-parse-errors' = 'true');
SELECT id, s FROM js;
SQL
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/json.sql" > "$KTMP/json.out" 2>&1 || { cat "$KTMP/json.out"; fail "json with ignore-parse-errors failed"; }
got="$(grep -E '^\| +([0-9]+|<NULL>) \|' "$KTMP/json.out" | sed -E 's/ +/ /g' | sort | tr '\n' ';')"
[[ "$got" == "| 1 | a |;| 4 | d |;| <NULL> | b |;" ]] || { cat "$KTMP/json.out"; fail "json rows: $got"; }
# without ignore-parse-errors the malformed record fails, named
sed -i "s/'value.json.ignore-parse-errors' = 'true'/'value.json.fail-on-missing-field' = 'false'/" "$KTMP/json.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/json.sql" > "$KTMP/json2.out" 2>&1 && fail "a bad JSON record did not fail the job"
grep -qE "Failed to deserialize consumer record of topic 'js', partition (0, offset 1|1, offset 0): Failed to deserialize JSON" "$KTMP/json2.out" \
  || { cat "$KTMP/json2.out"; fail "the JSON error does not name topic, partition and offset"; }
exit 0
