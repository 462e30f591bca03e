#!/usr/bin/env bash
# insight_keys.sh — issue 21's last items: slow keys of the keyed operators other than the join,
# keys by state bytes on RocksDB, and late rows traced to the file they came from. Plants
#   - a slow GROUP BY key: MIN over a retracting input where 'slowkey' holds 1500 values and every
#     retraction removes its current minimum (the aggregate rescans the key's values each time);
#   - a slow Top-N key: ROW_NUMBER() <= 5000 where 'slowkey' has 3000 rows (its buffer is read for
#     each of them), the other keys one or two rows;
#   - a slow OVER key: 'slowkey' has 3000 rows of one time, decoded at one firing (the other keys
#     one row per time);
#   - a key holding most of the state bytes on 'state.backend.type' = 'rocksdb';
#   - late rows in one of two files (b-late.csv) read by an event-time window;
# and finds each in REST (/weir/jobs/:jid/vertices/:vid/{slow-keys,hot-keys,late-data,watermarks}),
# the `-v` report (embedded sql-client) and the dashboard (headless Chromium, when installed;
# screenshot to $BUILD/insight-keys-dashboard.png).
TEST_NAME=insight_keys
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq python3
cluster_setup
W="$TMPD/work"

python3 - "$W" <<'PY'
import random, sys
w = sys.argv[1]
# MIN over a retracting input: ids 1..1500 of 'slowkey' with n = id, then each id again with
# n = id + 100000 (the inner LAST_VALUE retracts the old n: the current minimum, every time);
# 3000 other keys with one id each, updated the same way
rows = [f"{i},slowkey,{i}" for i in range(1, 1501)] + [f"{10000 + i},k{i},{i}" for i in range(3000)]
rows += [f"{i},slowkey,{i + 100000}" for i in range(1, 1501)] + [f"{10000 + i},k{i},{i + 100000}" for i in range(3000)]
open(f"{w}/minmax.csv", "w").write("\n".join(rows) + "\n")
random.seed(3)
rows = [f"slowkey,{i}" for i in range(3000)] + [f"k{i},{j}" for i in range(2000) for j in range(1 + i % 2)]
random.shuffle(rows)
open(f"{w}/rank.csv", "w").write("\n".join(rows) + "\n")
rows = [f"slowkey,2026-01-01 00:00:01,{i}" for i in range(3000)] + [f"k{i},2026-01-01 00:00:{i % 50:02d},{i}" for i in range(2000)]
random.seed(1)
random.shuffle(rows)
open(f"{w}/over.csv", "w").write("\n".join(rows) + "\n")
rows = ["big," + "x" * 1000] * 50 + [f"k{i},v{i}" for i in range(1000)]
random.seed(7)
random.shuffle(rows)
open(f"{w}/bytes.csv", "w").write("\n".join(rows) + "\n")
PY
mkdir -p "$W/events"
for i in $(seq 0 299); do printf 'e%d,2026-01-01 %02d:%02d:%02d\n' $((i % 3)) 0 $((i / 60)) $((i % 60)); done > "$W/events/a.csv"
for i in $(seq 1 7); do printf 'late%d,2025-12-31 23:00:%02d\n' "$i" "$i"; done > "$W/events/b-late.csv"

cat > "$W/min.sql" <<SQL
CREATE TABLE t (id INT, k STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '$W/minmax.csv', 'format' = 'csv');
CREATE TABLE o (k STRING, m INT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-slow-min';
SET 'table.dml-sync' = 'true';
SET 'weir.insight.slow-threshold' = '0 ms';
INSERT INTO o SELECT k, MIN(n) FROM (SELECT id, LAST_VALUE(k) AS k, LAST_VALUE(n) AS n FROM t GROUP BY id) GROUP BY k;
SQL
cat > "$W/rank.sql" <<SQL
CREATE TABLE t (k STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '$W/rank.csv', 'format' = 'csv');
CREATE TABLE o (k STRING, n INT, rn BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-slow-rank';
SET 'table.dml-sync' = 'true';
INSERT INTO o SELECT * FROM (SELECT k, n, ROW_NUMBER() OVER (PARTITION BY k ORDER BY n DESC) AS rn FROM t) WHERE rn <= 5000;
SQL
cat > "$W/over.sql" <<SQL
CREATE TABLE t (k STRING, ts TIMESTAMP(3), n INT, WATERMARK FOR ts AS ts - INTERVAL '1' HOUR)
  WITH ('connector' = 'filesystem', 'path' = '$W/over.csv', 'format' = 'csv');
CREATE TABLE o (k STRING, n INT, c BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-slow-over';
SET 'table.dml-sync' = 'true';
SET 'weir.insight.slow-threshold' = '0 ms';
INSERT INTO o SELECT k, n, COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t;
SQL
cat > "$W/rbytes.sql" <<SQL
CREATE TABLE tb (k STRING, v STRING) WITH ('connector' = 'filesystem', 'path' = '$W/bytes.csv', 'format' = 'csv');
CREATE TABLE ob (k STRING, s STRING) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-rocksdb-bytes';
SET 'table.dml-sync' = 'true';
SET 'state.backend.type' = 'rocksdb';
INSERT INTO ob SELECT k, LISTAGG(v) FROM tb GROUP BY k;
SQL
cat > "$W/late.sql" <<SQL
CREATE TABLE events (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '$W/events', 'format' = 'csv');
CREATE TABLE win_sink (k STRING, w TIMESTAMP(3), cnt BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-late-file';
SET 'table.dml-sync' = 'true';
INSERT INTO win_sink SELECT k, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY k, window_start, window_end;
SQL

cluster_start
# the vertex id of the first vertex of job $1 whose name contains $2
vid_of() { api GET "/jobs/$1" | jq -r --arg n "$2" '[.vertices[] | select(.name | contains($n))][0].id // empty'; }
# the same for the last such vertex
vid_last() { api GET "/jobs/$1" | jq -r --arg n "$2" '[.vertices[] | select(.name | contains($n))][-1].id // empty'; }
vemb() { WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$1" > "$1.out" 2> "$1.err" < /dev/null; }

# ---- slow GROUP BY key: MIN with retraction
sql "$W/min.sql" > "$W/min.out" 2>&1
mjid="$(jid_by_name insight-slow-min)"
check "the MIN job ran" test -n "$mjid"
mvid="$(vid_last "$mjid" GroupAggregate)"   # the MIN (the LAST_VALUE aggregate is before it)
api GET "/weir/jobs/$mjid/vertices/$mvid/slow-keys" > "$W/min.json"
# each of slowkey's 1500 retractions rescans its values (up to 1499 of them): about 1.1M rows
check "slow-keys: 'slowkey' made the GROUP BY read almost every data-view row it read" \
  jqe '.operators[0].keys[0].key == "slowkey" and .operators[0].keys[0].share > 0.99 and .operators[0].dominant == true
       and .operators[0].rows_scanned >= 1000000 and (.operators[0].warning | startswith("Key slowkey made GroupAggregate"))
       and (.operators[0].remedy | contains("rescan")) and .operators[0].remedy_applied == false' "$W/min.json"
check "slow-keys: the rows were timed (threshold 0 ms), the costliest with ~1500 rows read" \
  jqe '.operators[0].slow_rows >= 1400 and .operators[0].most_rows_scanned >= 1490 and .operators[0].most_rows_scanned <= 1500
       and (.operators[0].sample[0] | test("^[0-9]+ ms, [0-9]+ rows scanned: "))' "$W/min.json"
api GET "/weir/jobs/$mjid/vertices/$mvid/hot-keys" > "$W/min-hot.json"
check "hot-keys: by records 'slowkey' has a third of the rows, not the 99% of the work" \
  jqe '.operators[0].keys[0].key == "slowkey" and .operators[0].keys[0].share < 0.45' "$W/min-hot.json"
check "the daemon logged the first slow rows (8)" test "$(grep -c 'slow key in GroupAggregate' "$TMPD/log/weir-cluster.log")" -eq 8
vemb "$W/min.sql"
check "-v: the slow GROUP BY key is reported with its remedy" \
  grep -q "slow key: slowkey made GroupAggregate\[[0-9]*\] scan 100% of the [0-9]* state rows it scanned (subtask 0); remedy: not applied (Flink has no automatic remedy): MIN/MAX" "$W/min.sql.err"

# ---- slow Top-N key
sql "$W/rank.sql" > "$W/rank.out" 2>&1
rjid="$(jid_by_name insight-slow-rank)"
check "the Top-N job ran" test -n "$rjid"
rvid="$(vid_of "$rjid" Rank)"
api GET "/weir/jobs/$rjid/vertices/$rvid/slow-keys" > "$W/rank.json"
# slowkey's row i reads the i rows its buffer holds: 3000 x 2999 / 2 ~ 4.5M; the others at most 1
check "slow-keys: 'slowkey' made Rank read its top-N buffer for every row" \
  jqe '.operators[0].keys[0].key == "slowkey" and .operators[0].keys[0].share > 0.99 and .operators[0].dominant == true
       and .operators[0].rows_scanned >= 4400000 and (.operators[0].remedy | contains("top-N buffer"))' "$W/rank.json"
check "slow-keys: no slow row at the default threshold (1 min)" jqe '.operators[0].slow_rows == 0 and .threshold_ms == 60000' "$W/rank.json"
vemb "$W/rank.sql"
check "-v: the slow Top-N key is reported" grep -q "slow key: slowkey made Rank\[[0-9]*\] scan 100% of the" "$W/rank.sql.err"

# ---- slow OVER key: one firing decodes slowkey's 3000 rows (60% of the rows decoded: the others'
# firings decode one row each, 2000 in all, each under the sketch's 16-row floor)
sql "$W/over.sql" > "$W/over.out" 2>&1
ojid="$(jid_by_name insight-slow-over)"
check "the OVER job ran" test -n "$ojid"
ovid="$(vid_of "$ojid" OverAggregate)"
api GET "/weir/jobs/$ojid/vertices/$ovid/slow-keys" > "$W/over.json"
check "slow-keys: 'slowkey' is the OVER aggregation's slow key, its firing sampled with its key" \
  jqe '.operators[0].keys[0].key == "slowkey" and .operators[0].keys[0].rows_scanned == 3000 and .operators[0].rows_scanned == 5000
       and .operators[0].dominant == true and (.operators[0].remedy | contains("frame"))
       and .operators[0].most_rows_scanned == 3000 and ([.operators[0].sample[] | select(test("^[0-9]+ ms, 3000 rows: key slowkey$"))] | length) == 1' "$W/over.json"

# ---- keys by state bytes on RocksDB: 'big' has 50 of 1050 rows but most of the LISTAGG state
sql "$W/rbytes.sql" > "$W/rbytes.out" 2>&1
bjid="$(jid_by_name insight-rocksdb-bytes)"
check "the RocksDB job ran" test -n "$bjid"
bvid="$(vid_of "$bjid" GroupAggregate)"
api GET "/weir/jobs/$bjid/state" > "$W/rstate.json"
check "the job's state is on RocksDB" grep -q rocksdb "$W/rstate.json"
api GET "/weir/jobs/$bjid/vertices/$bvid/hot-keys" > "$W/rbytes.json"
check "hot-keys on RocksDB: 'big' holds over half of the state bytes, with a warning" \
  jqe '.operators[0].hot == false and .operators[0].keys_by_state_bytes[0].key == "big"
       and .operators[0].keys_by_state_bytes[0].share > 0.5 and .operators[0].keys_by_state_bytes[0].bytes >= 50000
       and .operators[0].hot_by_state_bytes == true and (.operators[0].state_warning | startswith("Key big holds"))' "$W/rbytes.json"
vemb "$W/rbytes.sql"
check "-v on RocksDB: the key holding the state is reported" \
  grep -q "hot key by state: big holds 5[0-9]% of GroupAggregate\[[0-9]*\]'s state bytes" "$W/rbytes.sql.err"

# ---- late rows traced to their file
sql "$W/late.sql" > "$W/late.out" 2>&1
ljid="$(jid_by_name insight-late-file)"
check "the late-file job ran" test -n "$ljid"
lvid="$(vid_of "$ljid" GlobalWindowAggregate)"
api GET "/weir/jobs/$ljid/vertices/$lvid/late-data" > "$W/late.json"
check "late-data: 7 late rows, and 7 rows came behind the watermark, all from b-late.csv" \
  jqe '.operators[0].late_rows_dropped == 7 and .operators[0].behind_watermark_at_source == 7
       and (.operators[0].behind_watermark_by_origin | length) == 1
       and .operators[0].behind_watermark_by_origin[0].rows == 7
       and (.operators[0].behind_watermark_by_origin[0].origin | test("^file .*/events/b-late.csv$"))
       and .operators[0].behind_watermark_by_origin[0].max_behind_ms > 3800000' "$W/late.json"
wvid="$(vid_of "$ljid" WatermarkAssigner)"
api GET "/weir/jobs/$ljid/vertices/$wvid/watermarks" > "$W/wm.json"
check "watermarks: the assigner counts the 7 rows behind it, by file" \
  jqe '[.operators[] | select(.operator | startswith("WatermarkAssigner"))][0] | .rows_behind_watermark == 7
       and (.behind_by_origin[0].origin | endswith("b-late.csv"))' "$W/wm.json"
vemb "$W/late.sql"
check "-v: the late rows name their file" \
  grep -q "late rows dropped: 7, .*; 7 rows came behind the watermark at the source; all from file .*/events/b-late.csv" "$W/late.sql.err"
check "-v: the WatermarkAssigner line names it too" \
  grep -q "rows behind the watermark: 7, up to [0-9]* ms behind (late for the event-time operators after it); all from file .*b-late.csv" "$W/late.sql.err"
# in time order the same files give no row behind the watermark
mv "$W/events/b-late.csv" "$W/b-late.csv"
vemb "$W/late.sql"
check "-v: no late rows, no line" bash -c "grep -q WatermarkAssigner '$W/late.sql.err' && ! grep -q 'behind the watermark' '$W/late.sql.err'"
mv "$W/b-late.csv" "$W/events/b-late.csv"

# ---- dashboard (optional: headless Chromium)
CHROME="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -n "$CHROME" ]]; then
  chrome() {
    timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
      --user-data-dir="$TMPD/chrome" --window-size=1400,2200 --virtual-time-budget=10000 "$@" 2> "$TMPD/chrome.err"
  }
  chrome --dump-dom "$BASE/#/job/$mjid" > "$W/dom-min.html"
  check "dashboard: the slow GROUP BY key is shown with a warning" \
    bash -c "grep -q 'Slow key: Key slowkey made GroupAggregate' '$W/dom-min.html'"
  chrome --dump-dom "$BASE/#/job/$rjid" > "$W/dom-rank.html"
  check "dashboard: the slow Top-N key is shown" grep -q "Slow key: Key slowkey made Rank" "$W/dom-rank.html"
  chrome --dump-dom "$BASE/#/job/$ojid" > "$W/dom-over.html"
  check "dashboard: the slow OVER key is shown" grep -q "Slow key: Key slowkey made OverAggregate" "$W/dom-over.html"
  chrome --dump-dom "$BASE/#/job/$bjid" > "$W/dom-rbytes.html"
  check "dashboard: the RocksDB key holding the state is shown" grep -q "Hot key by state: Key big holds" "$W/dom-rbytes.html"
  chrome --dump-dom "$BASE/#/job/$ljid" > "$W/dom-late.html"
  check "dashboard: the late rows name their file" grep -q "7 rows, all from file .*b-late.csv" "$W/dom-late.html"
  shot="${BUILD:-$ROOT/build}/insight-keys-dashboard.png"
  mkdir -p "$(dirname "$shot")"; rm -f "$shot"
  (cd "$TMPD" && chrome --screenshot="$shot" "$BASE/#/job/$mjid" > /dev/null)
  check "a dashboard screenshot was written ($shot)" test -s "$shot"
else
  echo "note $TEST_NAME: chromium is not installed; the dashboard part is not checked"
fi
if [[ $FAILS -gt 0 ]]; then for f in min min-hot rank over rbytes late wm; do echo "== $f.json"; cat "$W/$f.json"; done; fi
exit 0
