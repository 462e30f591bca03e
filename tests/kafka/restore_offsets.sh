#!/usr/bin/env bash
# Source offsets in savepoints: a job reads a 2-partition topic to its end and stops with a
# savepoint (without draining, as STOP JOB WITH SAVEPOINT); more records are produced; the job
# restored from the savepoint reads only the new records (the offsets stored per partition), on both
# partitions.
TEST_NAME=kafka/restore_offsets
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic rs:2
printf '1,a\n2,b\n' | kafka_produce rs 0
printf '3,c\n4,d\n5,e\n' | kafka_produce rs 1
mkdir -p "$KTMP/sp"
cat > "$KTMP/run1.sql" <<SQL
SET 'table.dml-sync' = 'true';
SET 'weir.exec.savepoint-at-end' = '$KTMP/sp';
SET 'weir.exec.savepoint-at-end.drain' = 'false';
CREATE TABLE rs (id INT, s STRING, p INT METADATA FROM 'partition' VIRTUAL, o BIGINT METADATA FROM 'offset' VIRTUAL)
  WITH ('connector' = 'kafka', 'topic' = 'rs', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv');
CREATE TABLE out_t (id INT, s STRING, p INT, o BIGINT) WITH ('connector' = 'print');
INSERT INTO out_t SELECT * FROM rs;
SQL
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/run1.sql" > "$KTMP/run1.out" 2>&1 || { cat "$KTMP/run1.out"; fail "first run failed"; }
[[ "$(grep -c '^+I' "$KTMP/run1.out")" -eq 5 ]] || { cat "$KTMP/run1.out"; fail "first run: want 5 rows"; }
sp="$(ls -d "$KTMP"/sp/savepoint-* 2>/dev/null | head -n 1)"
[[ -n "$sp" ]] || { fail "no savepoint written"; exit 1; }
printf '6,f\n' | kafka_produce rs 0
printf '7,g\n' | kafka_produce rs 1
{ echo "SET 'execution.savepoint.path' = '$sp';"; grep -v 'savepoint-at-end' "$KTMP/run1.sql"; } > "$KTMP/run2.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/run2.sql" > "$KTMP/run2.out" 2>&1 || { cat "$KTMP/run2.out"; fail "restored run failed"; }
got="$(grep '^+I' "$KTMP/run2.out" | sort | tr '\n' ' ')"
[[ "$got" == "+I[6, f, 0, 2] +I[7, g, 1, 3] " ]] || { cat "$KTMP/run2.out"; fail "restored run read: $got"; }
exit 0
