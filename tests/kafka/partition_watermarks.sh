#!/usr/bin/env bash
# Per-partition watermarks, as Flink's KafkaSource generates them (the watermark pushed into the
# scan: one watermark per partition, the subtask's the minimum over its partitions), at parallelism
# 1 (one subtask reads all 4 partitions). Every expected result below was recorded from Flink 2.3.0
# with flink-sql-connector-kafka 4.0.1-2.0 on the same topics and queries (the kafka2 helper's
# measurement, 2026-12-03; docs/connectors.md "Watermarks").
#  - skew: partition 0's events 600 s ahead of partitions 1-3, each partition in order; 10 s
#    tumbling windows, bounded read. Flink (on-periodic, the default, and on-event): no row is
#    late, 12 windows over all 800 rows. A watermark per subtask made the 600 rows of partitions
#    1-3 late (weir before: 6 windows, 200 rows).
#  - late: only partition 1 has records, one of them 25 s behind (on-event, delay 2 s); the three
#    empty partitions hold the watermark back until the first records are read (Flink's split
#    reader finishes them with its first fetch), so that row is not late: window 22:13:20 counts 11.
#  - idle: partitions 0-2 have 100 records each, partition 3 none; an unbounded read. Without an
#    idle timeout the empty partition holds the watermark at its start and no window fires; with
#    'scan.watermark.idle-timeout' = '1 s' or SET 'table.exec.source.idle-timeout' = '1 s' the
#    partitions go idle and, all idle, the watermark is the largest of them (Flink 2.3's
#    CombinedWatermarkStatus): the four complete windows fire (60 rows each). With
#    SET 'pipeline.auto-watermark-interval' = '1 h' the periodic emission (and the idleness
#    check that goes with it) does not come within the test: nothing fires, in Flink too.
TEST_NAME=kafka/partition_watermarks
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic skew:4 late:4 idle:4 o_none:1 o_tbl:1 o_cfg:1 o_long:1

python3 - "$KTMP" <<'PY'
import sys
d, T0 = sys.argv[1], 1700000000000
for p in range(4):
    base = T0 + (600000 if p == 0 else 0)
    open(f"{d}/skew{p}.csv", "w").write("".join(f"{p * 1000 + i},{base + i * 300 + p * 7}\n" for i in range(200)))
rows = [f"{i},{T0 + i * 1000}" for i in range(30)] + [f"999,{T0 + 5000}"] + [f"{i},{T0 + i * 1000}" for i in range(30, 40)]
open(f"{d}/late1.csv", "w").write("\n".join(rows) + "\n")
for p in range(3):
    open(f"{d}/idle{p}.csv", "w").write("".join(f"{p * 1000 + i},{T0 + i * 500 + p}\n" for i in range(100)))
PY
for p in 0 1 2 3; do kafka_produce skew "$p" < "$KTMP/skew$p.csv"; done
kafka_produce late 1 < "$KTMP/late1.csv"
for p in 0 1 2; do kafka_produce idle "$p" < "$KTMP/idle$p.csv"; done

prelude() {
  cat <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '1';
SQL
}
table() { # name topic delay-seconds extra-options
  echo "CREATE TABLE $1 (id BIGINT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '$3' SECOND)
  WITH ('connector' = 'kafka', 'topic' = '$2', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'csv'$4);"
}
rows() { grep -E '^\| [+-]' || true; }

# skew: the final row of the running count of windows and rows
for strategy in "" ", 'scan.watermark.emit.strategy' = 'on-event'" ", 'scan.watermark.emit.strategy' = 'on-periodic'"; do
  { prelude; table skew skew 5 ", 'scan.bounded.mode' = 'latest-offset'$strategy"
    echo "SELECT COUNT(*) AS windows, SUM(n) AS total, MIN(n), MAX(n) FROM (SELECT window_start, COUNT(*) AS n
  FROM TABLE(TUMBLE(TABLE skew, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end);"; } > "$KTMP/skew.sql"
  WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/skew.sql" > "$KTMP/skew.out" 2>&1 || { cat "$KTMP/skew.out"; fail "skew query failed"; }
  got="$(rows < "$KTMP/skew.out" | tail -n 1 | tr -s ' ')"
  [[ "$got" == "| +U | 12 | 800 | 33 | 102 |" ]] || { rows < "$KTMP/skew.out"; fail "skew$strategy: last row '$got' (Flink: 12 windows, 800 rows)"; }
done

# late (on-event)
{ prelude; table late late 2 ", 'scan.bounded.mode' = 'latest-offset', 'scan.watermark.emit.strategy' = 'on-event'"
  echo "SELECT window_start, COUNT(*) AS n, MAX(id) AS mx FROM TABLE(TUMBLE(TABLE late, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end;"; } > "$KTMP/late.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/late.sql" > "$KTMP/late.out" 2>&1 || { cat "$KTMP/late.out"; fail "late query failed"; }
cat > "$KTMP/late.flink" <<'OUT'
| +I | 2023-11-14 22:13:20.000 | 11 | 999 |
| +I | 2023-11-14 22:13:30.000 | 10 | 19 |
| +I | 2023-11-14 22:13:40.000 | 10 | 29 |
| +I | 2023-11-14 22:13:50.000 | 10 | 39 |
OUT
diff "$KTMP/late.flink" <(rows < "$KTMP/late.out" | tr -s ' ' | sort) > "$KTMP/late.diff" || { cat "$KTMP/late.diff"; fail "late: the windows differ from Flink's"; }

# idle: unbounded jobs writing their windows to a topic, killed after a while
idle_job() { # out-topic extra-options set-line
  { prelude; echo "SET 'table.dml-sync' = 'true';"; echo "$3"; table src idle 1 "$2"
    echo "CREATE TABLE sink (ws TIMESTAMP(3), n BIGINT) WITH ('connector' = 'kafka', 'topic' = '$1',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'format' = 'csv');
INSERT INTO sink SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end;"
  } > "$KTMP/$1.sql"
  WEIR_EMBEDDED=1 "$WEIR" sql-client -f "$KTMP/$1.sql" > "$KTMP/$1.out" 2>&1 &
  echo $!
}
written() { kcat -b "$BOOTSTRAP" -C -t "$1" -o beginning -e -q -f '%s\n' | grep . | sort | tr '\n' ' '; }
p1="$(idle_job o_none "" "")"
p2="$(idle_job o_tbl ", 'scan.watermark.idle-timeout' = '1 s'" "")"
p3="$(idle_job o_cfg "" "SET 'table.exec.source.idle-timeout' = '1 s';")"
p4="$(idle_job o_long ", 'scan.watermark.idle-timeout' = '1 s'" "SET 'pipeline.auto-watermark-interval' = '1 h';")"
want='"2023-11-14 22:13:20",60 "2023-11-14 22:13:30",60 "2023-11-14 22:13:40",60 "2023-11-14 22:13:50",60 '
for _ in $(seq 1 60); do
  [[ "$(written o_tbl)" == "$want" && "$(written o_cfg)" == "$want" ]] && break
  sleep 0.5
done
sleep 2         # the job without idle timeout had as long and more to fire a window
for pid in $p1 $p2 $p3 $p4; do
  kill -0 "$pid" 2> /dev/null || fail "an unbounded idle job ended"
  kill -KILL "$pid"; wait "$pid" 2> /dev/null
done
[[ "$(written o_tbl)" == "$want" ]] || { cat "$KTMP/o_tbl.out"; fail "scan.watermark.idle-timeout: written '$(written o_tbl)' (Flink: the 4 windows)"; }
[[ "$(written o_cfg)" == "$want" ]] || { cat "$KTMP/o_cfg.out"; fail "table.exec.source.idle-timeout: written '$(written o_cfg)' (Flink: the 4 windows)"; }
[[ -z "$(written o_long)" ]] || fail "pipeline.auto-watermark-interval 1 h: written '$(written o_long)' (Flink: nothing)"
[[ -z "$(written o_none)" ]] || fail "no idle timeout: written '$(written o_none)' (Flink: nothing, the empty partition holds the watermark)"
exit 0
