#!/usr/bin/env bash
# A 4-partition topic of CSV events, out of order within each partition and across partitions
# (never by more than the watermark delay, see below), read bounded (earliest-offset to latest-offset) with a
# tumbling event-time window; the result must equal the same query over the same rows read from a
# file. Also: batch mode, metadata columns (topic/partition/offset), scan.startup.mode =
# specific-offsets and scan.bounded.mode = specific-offsets.
TEST_NAME=kafka/window_bounded
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic events:4

# 400 events, 100 per partition: id, user, amount, ts (each partition's timestamps jitter by up to 3 s)
python3 - "$KTMP" <<'PY'
import random, sys
d = sys.argv[1]
random.seed(17)
allrows = []
for p in range(4):
    rows = []
    for i in range(100):
        t = 1700000000000 + (i * 4 + p) * 700 + random.randint(-3000, 0)
        rid = p * 1000 + i
        rows.append(f"{rid},u{rid % 7},{(rid * 37) % 101}.{rid % 10}0,{t}")
    open(f"{d}/p{p}.csv", "w").write("\n".join(rows) + "\n")
    allrows += rows
open(f"{d}/all.csv", "w").write("\n".join(allrows) + "\n")
PY
for p in 0 1 2 3; do kafka_produce events "$p" < "$KTMP/p$p.csv"; done

query() { # $1 = table
  cat <<SQL
SELECT window_start, usr, COUNT(*) AS n, SUM(amount) AS total, MAX(id) AS max_id
FROM TABLE(TUMBLE(TABLE $1, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, usr;
SQL
}
# The watermark delay covers the whole span of event times (280 s): the kafka source keeps one
# watermark per partition (as Flink; tests/kafka/partition_watermarks.sh) but the file is one
# split with one watermark (all of partition 0 first), so under a shorter delay the file's late
# rows would not be the topic's.
cols="id BIGINT, usr STRING, amount DECIMAL(10, 2), ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '300' SECOND"
cat > "$KTMP/kafka.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.local-time-zone' = 'UTC';
CREATE TABLE ev ($cols) WITH ('connector' = 'kafka', 'topic' = 'events',
  'properties.bootstrap.servers' = '$BOOTSTRAP', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'csv');
$(query ev)
SQL
cat > "$KTMP/file.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.local-time-zone' = 'UTC';
CREATE TABLE ev ($cols) WITH ('connector' = 'filesystem', 'path' = '$KTMP/all.csv', 'format' = 'csv');
$(query ev)
SQL
rows() { grep '^|' | grep -v window_start | sort; }   # data rows (streaming: with the kind)
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/kafka.sql" > "$KTMP/kafka.out" 2>&1 || { cat "$KTMP/kafka.out"; fail "kafka query failed"; }
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/file.sql" > "$KTMP/file.out" 2>&1 || { cat "$KTMP/file.out"; fail "file query failed"; }
n="$(rows < "$KTMP/kafka.out" | grep -c '^| +I')"
[[ "$n" -gt 50 ]] || { cat "$KTMP/kafka.out"; fail "expected many window rows, got $n"; }
diff <(rows < "$KTMP/file.out") <(rows < "$KTMP/kafka.out") > "$KTMP/diff" || { head -20 "$KTMP/diff"; fail "kafka and file results differ"; }

# batch mode: the same rows (final values only)
sed -i "2i SET 'execution.runtime-mode' = 'batch';" "$KTMP/kafka.sql" "$KTMP/file.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/kafka.sql" > "$KTMP/kafka_b.out" 2>&1 || { cat "$KTMP/kafka_b.out"; fail "batch kafka query failed"; }
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/file.sql" > "$KTMP/file_b.out" 2>&1
[[ "$(rows < "$KTMP/kafka_b.out" | wc -l)" -eq "$n" ]] || fail "batch: $(rows < "$KTMP/kafka_b.out" | wc -l) rows, streaming $n"
diff <(rows < "$KTMP/file_b.out") <(rows < "$KTMP/kafka_b.out") > "$KTMP/diff" || { head -20 "$KTMP/diff"; fail "batch: kafka and file results differ"; }

# metadata columns, specific start and stop offsets: partition 1 from offset 10, partition 2 up to 5
cat > "$KTMP/meta.sql" <<SQL
SET 'sql-client.execution.result-mode' = 'tableau';
CREATE TABLE ev (id BIGINT, usr STRING, amount DECIMAL(10, 2), ms BIGINT,
  t STRING METADATA FROM 'topic' VIRTUAL, p INT METADATA FROM 'partition' VIRTUAL, o BIGINT METADATA FROM 'offset' VIRTUAL
) WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'scan.startup.mode' = 'specific-offsets', 'scan.startup.specific-offsets' = 'partition:1,offset:10;partition:0,offset:0;partition:2,offset:0;partition:3,offset:99',
  'scan.bounded.mode' = 'specific-offsets', 'scan.bounded.specific-offsets' = 'partition:2,offset:5;partition:0,offset:100;partition:1,offset:100;partition:3,offset:100',
  'format' = 'csv');
SELECT t, p, COUNT(*) AS n, MIN(o) AS first_o, MAX(o) AS last_o, MIN(id) AS min_id FROM ev GROUP BY t, p;
SQL
sed -i "2i SET 'execution.runtime-mode' = 'batch';" "$KTMP/meta.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -f "$KTMP/meta.sql" > "$KTMP/meta.out" 2>&1 || { cat "$KTMP/meta.out"; fail "metadata query failed"; }
cat > "$KTMP/meta.want" <<'TXT'
| events | 0 | 100 | 0 | 99 | 0 |
| events | 1 | 90 | 10 | 99 | 1010 |
| events | 2 | 5 | 0 | 4 | 2000 |
| events | 3 | 1 | 99 | 99 | 3099 |
TXT
diff "$KTMP/meta.want" <(grep '^| events' "$KTMP/meta.out" | sed -E 's/ +\|/ |/g; s/\| +/| /g' | sort) > "$KTMP/diff" \
  || { cat "$KTMP/meta.out"; cat "$KTMP/diff"; fail "metadata / specific offsets"; }
exit 0
