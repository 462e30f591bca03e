#!/usr/bin/env bash
# insight.sh — issue 21: the running job explains itself. Plants a hot key (60% of the rows of a
# GROUP BY), late rows in one file of a directory read by an event-time window, and a state without
# TTL on an unbounded input (datagen with new keys all the time), then finds each one:
#   - REST /weir/jobs/:jid/vertices/:vid/hot-keys, /late-data, /state-growth (cluster daemon);
#   - the `-v` job report (embedded sql-client);
#   - a slow window (a window-join key with 1000 x 1000 rows, weir.insight.slow-threshold 100 ms);
#   - the same hot key at parallelism 2, seen by the hash exchange's senders (hot-keys' exchanges:
#     the key, its share of the rows sent and the receiving subtask; -v; dashboard);
#   - a key that holds most of an aggregate's state bytes with few rows (hot-keys' keys_by_state_bytes);
#   - EXPLAIN PLAN_ADVICE with weir.insight.advice-job = <a running job>: its figures as advice;
#   - a slow key of a regular join (a key with 2500 x 2500 candidate pairs; REST slow-keys, -v);
#   - the dashboard (headless Chromium, when installed: its insight tables; screenshots to
#     $BUILD/insight-dashboard.png and, for the hot key at the exchange, insight-exchange-dashboard.png).
# And `weir.insight.enabled` = false turns it off.
TEST_NAME=insight
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup
W="$TMPD/work"

# 2000 rows: key 'hot' 3 rows in 5 (60%), 800 other keys once each
: > "$W/clicks.csv"
for i in $(seq 1 2000); do
  if (( i % 5 < 3 )); then echo "hot,$i"; else echo "k$i,$i"; fi
done > "$W/clicks.csv"
# events: a.csv in time order (one row a second from 2026-01-01 00:00:00), b-late.csv rows an hour
# before everything (read after a.csv: dropped as late by the window)
mkdir -p "$W/events"
for i in $(seq 0 299); do printf 'e%d,2026-01-01 %02d:%02d:%02d\n' $((i % 3)) 0 $((i / 60)) $((i % 60)); done > "$W/events/a.csv"
for i in $(seq 1 7); do printf 'late%d,2025-12-31 23:00:%02d\n' "$i" "$i"; done > "$W/events/b-late.csv"

cat > "$W/ddl.sql" <<SQL
CREATE TABLE clicks (page STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '$W/clicks.csv', 'format' = 'csv');
CREATE TABLE events (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '$W/events', 'format' = 'csv');
CREATE TABLE users (uid STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '300', 'fields.uid.length' = '12');
CREATE TABLE page_sink (page STRING, cnt BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE win_sink (k STRING, w TIMESTAMP(3), cnt BIGINT) WITH ('connector' = 'blackhole');
SQL
cat > "$W/hot.sql" <<SQL
SET 'pipeline.name' = 'insight-hot';
SET 'table.dml-sync' = 'true';
INSERT INTO page_sink SELECT page, COUNT(*) FROM clicks GROUP BY page;
SQL
cat > "$W/hot2.sql" <<SQL
SET 'pipeline.name' = 'insight-hot-p2';
SET 'parallelism.default' = '2';
SET 'table.dml-sync' = 'true';
INSERT INTO page_sink SELECT page, COUNT(*) FROM clicks GROUP BY page;
SQL
cat > "$W/late.sql" <<SQL
SET 'pipeline.name' = 'insight-late';
SET 'table.dml-sync' = 'true';
SET 'weir.exec.chunk-rows' = '16';
INSERT INTO win_sink SELECT k, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY k, window_start, window_end;
SQL
cat > "$W/grow.sql" <<SQL
SET 'pipeline.name' = 'insight-grow';
INSERT INTO page_sink SELECT uid, COUNT(*) FROM users GROUP BY uid;
SQL
cat > "$W/ttl.sql" <<SQL
SET 'pipeline.name' = 'insight-ttl';
SET 'table.exec.state.ttl' = '20 s';
INSERT INTO page_sink SELECT uid, COUNT(*) FROM users GROUP BY uid;
SQL

cluster_start
# the vertex id of the vertex whose name contains $2 in job $1
vid_of() { api GET "/jobs/$1" | jq -r --arg n "$2" '[.vertices[] | select(.name | contains($n))][0].id // empty'; }

# ---- hot key
sql "$W/hot.sql" -i "$W/ddl.sql" > "$W/hot.out" 2>&1
jid="$(jid_by_name insight-hot)"
check "the hot-key job ran" test -n "$jid"
vid="$(vid_of "$jid" GroupAggregate)"
api GET "/weir/jobs/$jid/vertices/$vid/hot-keys" > "$W/hot.json"
check "hot-keys answers 200" test "$STATUS" = 200
check "hot-keys: the top key is 'hot'" jqe '.operators[0].keys[0].key == "hot"' "$W/hot.json"
check "hot-keys: its share is about 60%" jqe '.operators[0].keys[0].share > 0.5 and .operators[0].keys[0].share < 0.7' "$W/hot.json"
check "hot-keys: it lands on subtask 0" jqe '.operators[0].keys[0].subtask == 0' "$W/hot.json"
check "hot-keys: flagged hot with a warning" jqe '.operators[0].hot == true and (.operators[0].warning | contains("hot"))' "$W/hot.json"
check "hot-keys: the remedy is two-phase aggregation, not applied" \
  jqe '(.operators[0].remedy | contains("TWO_PHASE")) and .operators[0].remedy_applied == false' "$W/hot.json"
check "hot-keys: at parallelism 1 no exchange (one subtask reads its input itself)" jqe '.operators[0].exchanges == []' "$W/hot.json"

# ---- the hot key at parallelism 2, on the hash exchange's sender side
sql "$W/hot2.sql" -i "$W/ddl.sql" > "$W/hot2.out" 2>&1
h2jid="$(jid_by_name insight-hot-p2)"
check "the parallelism-2 hot-key job ran" test -n "$h2jid"
h2vid="$(vid_of "$h2jid" GroupAggregate)"
api GET "/weir/jobs/$h2jid/vertices/$h2vid/hot-keys" > "$W/hot2.json"
check "exchange: the hash exchange into the aggregate is described, from the source" \
  jqe '.operators[0].exchanges | length == 1 and (.[0].exchange | test("^HASH Source: clicks\\[[0-9]+\\] -> GroupAggregate\\[[0-9]+\\]$"))' "$W/hot2.json"
check "exchange: the top key is 'hot', about 60% of the rows sent" \
  jqe '.operators[0].exchanges[0].keys[0].key == "hot" and .operators[0].exchanges[0].keys[0].share > 0.5
       and .operators[0].exchanges[0].keys[0].share < 0.7' "$W/hot2.json"
check "exchange: the receiving subtask is the one the aggregate counts it on" \
  jqe '.operators[0].exchanges[0].keys[0].receiving_subtask == .operators[0].keys[0].subtask' "$W/hot2.json"
check "exchange: that subtask gets most of the sampled rows (2 receivers), the records estimate adds up" \
  jqe '.operators[0].exchanges[0] as $x | ($x.records_per_receiving_subtask | length == 2)
       and $x.records_per_receiving_subtask[$x.keys[0].receiving_subtask] > 2 * $x.records_per_receiving_subtask[1 - $x.keys[0].receiving_subtask]
       and ($x.records_per_receiving_subtask | add) == $x.records_sampled * 16 and $x.records_sampled >= 100' "$W/hot2.json"
check "exchange: flagged hot with a warning naming the receiving subtask" \
  jqe '.operators[0].exchanges[0].hot == true and (.operators[0].exchanges[0].warning | test("Key hot has [56][0-9]% of the records the exchange HASH .* sends; they all go to subtask [01]"))' "$W/hot2.json"
api GET "/weir/jobs/$h2jid/vertices/$(vid_of "$h2jid" Source)/hot-keys" > "$W/hot2-src.json"
check "exchange: the source vertex (not keyed) lists no operator" jqe '.operators == []' "$W/hot2-src.json"

api GET "/weir/jobs/$jid/vertices/0123456789abcdef0123456789abcdef/hot-keys" > /dev/null
check "an unknown vertex is 404" test "$STATUS" = 404
api GET "/weir/jobs/$jid/vertices/$vid/nothing" > /dev/null
check "an unknown insight path is 404" test "$STATUS" = 404

# ---- hot key by state bytes: 'big' has 50 of 1050 rows (not hot by records) but its LISTAGG
# accumulator holds 50 x 1000 characters, more than half of the aggregate's state bytes
python3 - "$W/bytes.csv" <<'PY'
import random, sys
rows = ["big," + "x" * 1000] * 50 + [f"k{i},v{i}" for i in range(1000)]
random.seed(7); random.shuffle(rows)
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
cat > "$W/bytes.sql" <<SQL
CREATE TABLE tb (k STRING, v STRING) WITH ('connector' = 'filesystem', 'path' = '$W/bytes.csv', 'format' = 'csv');
CREATE TABLE ob (k STRING, s STRING) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-bytes';
SET 'table.dml-sync' = 'true';
INSERT INTO ob SELECT k, LISTAGG(v) FROM tb GROUP BY k;
SQL
sql "$W/bytes.sql" > "$W/bytes.out" 2>&1
bjid="$(jid_by_name insight-bytes)"
bvid="$(vid_of "$bjid" GroupAggregate)"
api GET "/weir/jobs/$bjid/vertices/$bvid/hot-keys" > "$W/bytes.json"
check "hot-keys: 'big' is not hot by records (5%)" jqe '.operators[0].hot == false' "$W/bytes.json"
check "hot-keys: 'big' holds over half of the state bytes, with a warning" \
  jqe '.operators[0].keys_by_state_bytes[0].key == "big" and .operators[0].keys_by_state_bytes[0].share > 0.5
       and .operators[0].keys_by_state_bytes[0].bytes >= 50000 and .operators[0].hot_by_state_bytes == true
       and (.operators[0].state_warning | startswith("Key big holds"))' "$W/bytes.json"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$W/bytes.sql" > "$W/v-bytes.out" 2> "$W/v-bytes.err" < /dev/null
check "-v: the key holding the state is reported" grep -q "hot key by state: big holds 5[0-9]% of GroupAggregate\[[0-9]*\]'s state bytes" "$W/v-bytes.err"

# ---- late rows
sql "$W/late.sql" -i "$W/ddl.sql" > "$W/late.out" 2>&1
ljid="$(jid_by_name insight-late)"
check "the late-data job ran" test -n "$ljid"
lvid="$(vid_of "$ljid" GlobalWindowAggregate)"
api GET "/weir/jobs/$ljid/vertices/$lvid/late-data" > "$W/late.json"
check "late-data: the 7 late rows are counted" jqe '.operators[0].late_rows_dropped == 7' "$W/late.json"
check "late-data: all on input 0, subtask 0" jqe '.operators[0].per_input == [7] and .operators[0].per_subtask == [7]' "$W/late.json"
check "late-data: about 65 minutes late (window end vs watermark)" jqe '.operators[0].max_lateness_ms > 3800000 and .operators[0].max_lateness_ms < 4000000' "$W/late.json"
check "late-data: the histogram holds the 7 rows" jqe '[.operators[0].lateness_histogram[].rows] | add == 7' "$W/late.json"
check "late-data: a histogram per input and per subtask, each holding its rows" \
  jqe '(.operators[0].lateness_histogram_per_input | length) == 1 and ([.operators[0].lateness_histogram_per_input[0][].rows] | add) == 7
       and (.operators[0].lateness_histogram_per_subtask | length) == 1 and .operators[0].lateness_histogram_per_subtask[0] == .operators[0].lateness_histogram' "$W/late.json"
check "late-data: the sample shows a dropped row" jqe '.operators[0].sample[0] | contains("late1")' "$W/late.json"

# ---- slow window: one key's window holds 1000 x 1000 join pairs, the others one pair each
mkdir -p "$W/jl" "$W/jr"
for i in $(seq 0 999); do printf 'slowkey,2026-01-01 00:00:%02d.%03d\n' $((i % 10)) $((i % 1000)); done > "$W/jl/a.csv"
cp "$W/jl/a.csv" "$W/jr/a.csv"
for i in $(seq 1 50); do printf 'k%d,2026-01-01 00:00:%02d\n' "$i" $((i % 10)); done > "$W/jl/b.csv"
cp "$W/jl/b.csv" "$W/jr/b.csv"
cat > "$W/slow.sql" <<SQL
CREATE TABLE jl (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '$W/jl', 'format' = 'csv');
CREATE TABLE jr (k STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '$W/jr', 'format' = 'csv');
CREATE TABLE pairs (k STRING, lt TIMESTAMP(3), rt TIMESTAMP(3)) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-slow';
SET 'table.dml-sync' = 'true';
SET 'weir.insight.slow-threshold' = '100 ms';
INSERT INTO pairs SELECT a.k, a.ts, b.ts FROM (SELECT * FROM TABLE(TUMBLE(TABLE jl, DESCRIPTOR(ts), INTERVAL '1' MINUTE))) a
  JOIN (SELECT * FROM TABLE(TUMBLE(TABLE jr, DESCRIPTOR(ts), INTERVAL '1' MINUTE))) b
  ON a.k = b.k AND a.window_start = b.window_start AND a.window_end = b.window_end;
SQL
sql "$W/slow.sql" > "$W/slow.out" 2>&1
sjid="$(jid_by_name insight-slow)"
check "the slow-window job ran" test -n "$sjid"
svid="$(vid_of "$sjid" WindowJoin)"
api GET "/weir/jobs/$sjid/vertices/$svid/slow-windows" > "$W/slow.json"
check "slow-windows answers 200 with the threshold" jqe '.threshold_ms == 100' "$W/slow.json"
check "slow-windows: the planted key's window (2,000 rows) is found, with its row" \
  jqe '.operators[0].slow_firings >= 1 and .operators[0].slowest_ms >= 100 and .operators[0].most_rows == 2000
       and ([.operators[0].sample[] | select(contains("2000 rows: slowkey"))] | length) == 1' "$W/slow.json"
check "the daemon logged it once" test "$(grep -c 'slow window firing in WindowJoin.*2000 rows: slowkey' "$TMPD/log/weir-cluster.log")" -eq 1
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$W/slow.sql" > "$W/v-slow.out" 2> "$W/v-slow.err" < /dev/null
check "the -v report names the slow window firing" grep -q "slow window firings: .* over 100 ms.*up to 2000 rows in a window; first: .*slowkey" "$W/v-slow.err"

# ---- slow key of a regular join: 'slowkey' has 2500 rows on each side, 200 other keys one row each;
# the residual condition matches nothing, so every candidate is scanned and nothing is emitted.
# Rows with more candidates than a chunk (2048) are timed; a threshold of 0 ms reports each of them.
mkdir -p "$W/sl" "$W/sr"
{ for i in $(seq 1 2500); do echo "slowkey,$i"; done; for i in $(seq 1 200); do echo "k$i,$i"; done; } > "$W/sl/a.csv"
cp "$W/sl/a.csv" "$W/sr/a.csv"
cat > "$W/skey.sql" <<SQL
CREATE TABLE sl (k STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '$W/sl', 'format' = 'csv');
CREATE TABLE sr (k STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '$W/sr', 'format' = 'csv');
CREATE TABLE jout (k STRING, a INT, b INT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'insight-slowkey';
SET 'table.dml-sync' = 'true';
SET 'weir.insight.slow-threshold' = '0 ms';
INSERT INTO jout SELECT sl.k, sl.n, sr.n FROM sl JOIN sr ON sl.k = sr.k AND sl.n + sr.n < 0;
SQL
sql "$W/skey.sql" > "$W/skey.out" 2>&1
kjid="$(jid_by_name insight-slowkey)"
check "the slow-key job ran" test -n "$kjid"
kvid="$(vid_of "$kjid" Join)"
api GET "/weir/jobs/$kjid/vertices/$kvid/slow-keys" > "$W/skey.json"
check "slow-keys answers 200 with the thresholds" jqe '.threshold_ms == 0 and .share_threshold == 0.2' "$W/skey.json"
check "slow-keys: 'slowkey' made the join scan almost every state row" \
  jqe '.operators[0].keys[0].key == "slowkey" and .operators[0].keys[0].share > 0.99 and .operators[0].dominant == true
       and .operators[0].rows_scanned >= 2500 * 2500 and (.operators[0].warning | startswith("Key slowkey made Join"))
       and (.operators[0].remedy | contains("salt"))' "$W/skey.json"
check "slow-keys: the rows with more candidates than a chunk were timed, with their row" \
  jqe '.operators[0].slow_rows >= 400 and .operators[0].most_rows_scanned >= 2400
       and (.operators[0].sample[0] | test("^[0-9]+ ms, [0-9]+ rows scanned: slowkey, [0-9]+$"))' "$W/skey.json"
check "the daemon logged the first slow rows (8)" test "$(grep -c 'slow key in Join.*rows scanned: slowkey' "$TMPD/log/weir-cluster.log")" -eq 8
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$W/skey.sql" > "$W/v-skey.out" 2> "$W/v-skey.err" < /dev/null
check "-v: the slow key is reported with the remedy" grep -q "slow key: slowkey made Join\[[0-9]*\] scan 100% of the [0-9]* state rows it scanned (subtask 0); remedy: not applied (Flink has no automatic remedy for join skew)" "$W/v-skey.err"
check "-v: the slow rows are reported" grep -q "slow rows: [0-9]* over 0 ms, the slowest [0-9]* ms, up to [0-9]* state rows scanned for one row; first: [0-9]* ms, [0-9]* rows scanned: slowkey" "$W/v-skey.err"

# ---- state growth: no TTL on an unbounded input, and with a TTL
sql "$W/grow.sql" -i "$W/ddl.sql" > "$W/grow.out" 2>&1
sql "$W/ttl.sql" -i "$W/ddl.sql" > "$W/ttl.out" 2>&1
gjid="$(jid_by_name insight-grow)"
tjid="$(jid_by_name insight-ttl)"
check "the growing jobs run" wait_state "$gjid" RUNNING
wait_state "$tjid" RUNNING > /dev/null
gvid="$(vid_of "$gjid" GroupAggregate)"
tvid="$(vid_of "$tjid" GroupAggregate)"
for i in $(seq 1 100); do
  api GET "/weir/jobs/$gjid/vertices/$gvid/state-growth" > "$W/grow.json"
  api GET "/weir/jobs/$tjid/vertices/$tvid/state-growth" > "$W/ttl.json"
  jqe '.operators[0].states[0].new_keys_per_s > 50' "$W/grow.json" && jqe '.operators[0].states[0].new_keys_per_s > 50' "$W/ttl.json" && break
  sleep 0.2
done
check "state-growth: the input is unbounded" jqe '.input == "unbounded"' "$W/grow.json"
check "state-growth: groupAggregateState gains new keys" jqe '.operators[0].states[0].name == "groupAggregateState" and .operators[0].states[0].new_keys_per_s > 50' "$W/grow.json"
check "state-growth: without TTL the forecast is unbounded" \
  jqe '.operators[0].states[0].forecast == "unbounded" and .operators[0].states[0].steady_state_entries == "unbounded" and .operators[0].states[0].ttl_ms == 0' "$W/grow.json"
check "state-growth: a week's projection is given" jqe '.operators[0].states[0].bytes_in_a_week > .operators[0].states[0].bytes' "$W/grow.json"
# with a 20 s TTL: steady state = new keys/s x 20 s (300 keys/s -> about 6000 entries)
check "state-growth: with a TTL the forecast is new keys/s x TTL" \
  jqe '.operators[0].states[0].forecast == "bounded by TTL" and .operators[0].states[0].ttl_ms == 20000 and
       ((.operators[0].states[0].steady_state_entries - .operators[0].states[0].new_keys_per_s * 20) | fabs) <= 1' "$W/ttl.json"

# ---- PLAN_ADVICE from the running job's figures (weir.insight.advice-job)
cat > "$W/advice.sql" <<SQL
SET 'weir.insight.advice-job' = '$gjid';
EXPLAIN PLAN_ADVICE INSERT INTO page_sink SELECT uid, COUNT(*) FROM users GROUP BY uid;
SQL
sql "$W/advice.sql" -i "$W/ddl.sql" > "$W/advice.out" 2>&1
check "PLAN_ADVICE names the running job's unbounded state at its GroupAggregate" \
  bash -c "grep -q 'GroupAggregate(.*advice=\[[0-9]*\]' '$W/advice.out' &&
           grep -q \"advice\[[0-9]*\]: \[WARNING\] Job $gjid: state groupAggregateState of GroupAggregate\[[0-9]*\] has no TTL and gains [0-9.]* new keys/s on an unbounded input\" '$W/advice.out'"
sed "s/$gjid/$tjid/" "$W/advice.sql" > "$W/advice-ttl.sql"
sql "$W/advice-ttl.sql" -i "$W/ddl.sql" > "$W/advice-ttl.out" 2>&1
check "PLAN_ADVICE forecasts the state of the job with a TTL" \
  grep -q "\[ADVICE\] Job $tjid: state groupAggregateState of GroupAggregate\[[0-9]*\] gains [0-9.]* new keys/s; with its TTL of 20 s it levels off at about" "$W/advice-ttl.out"
sed "s/$gjid/0123456789abcdef0123456789abcdef/" "$W/advice.sql" > "$W/advice-bad.sql"
sql "$W/advice-bad.sql" -i "$W/ddl.sql" > "$W/advice-bad.out" 2>&1
check "an unknown advice job is refused" grep -q "Job 0123456789abcdef0123456789abcdef of 'weir.insight.advice-job' is not known to this cluster." "$W/advice-bad.out"
WEIR_EMBEDDED=1 timeout 60 "$WEIR" sql-client -i "$W/ddl.sql" -f "$W/advice.sql" > "$W/advice-emb.out" 2>&1 < /dev/null
check "embedded, the option needs a cluster" grep -q "'weir.insight.advice-job' needs a weir cluster" "$W/advice-emb.out"

# ---- dashboard (optional: headless Chromium)
CHROME="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -z "$CHROME" && -z "${WEIR_NO_INSTALL:-}" ]]; then
  "$ROOT/tests/cluster/setup.sh" --chromium > /dev/null 2>&1 || true
  CHROME="$(command -v chromium || true)"
fi
if [[ -n "$CHROME" ]]; then
  chrome() {
    timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
      --user-data-dir="$TMPD/chrome" --window-size=1400,2200 --virtual-time-budget=10000 "$@" 2> "$TMPD/chrome.err"
  }
  chrome --dump-dom "$BASE/#/job/$gjid" > "$W/dom-grow.html"
  check "dashboard: the growth warning is shown" grep -q "groupAggregateState has no TTL and grows" "$W/dom-grow.html"
  chrome --dump-dom "$BASE/#/job/$jid" > "$W/dom-hot.html"
  check "dashboard: the hot key warning names the remedy" grep -q "Hot key: Key hot has" "$W/dom-hot.html"
  chrome --dump-dom "$BASE/#/job/$h2jid" > "$W/dom-hot2.html"
  check "dashboard: the hot key at the hash exchange is shown with its receiving subtask" \
    bash -c "grep -q 'Hot key at a hash exchange: Key hot has' '$W/dom-hot2.html' && grep -q 'HASH Source: clicks' '$W/dom-hot2.html'"
  chrome --dump-dom "$BASE/#/job/$ljid" > "$W/dom-late.html"
  check "dashboard: the late rows are listed with their column names" grep -q "late by [0-9]* ms: k=late1, " "$W/dom-late.html"
  chrome --dump-dom "$BASE/#/job/$bjid" > "$W/dom-bytes.html"
  check "dashboard: the key holding the state is shown" grep -q "Hot key by state: Key big holds" "$W/dom-bytes.html"
  chrome --dump-dom "$BASE/#/job/$kjid" > "$W/dom-skey.html"
  check "dashboard: the slow key is listed with a warning" \
    bash -c "grep -q 'Slow key: Key slowkey made Join' '$W/dom-skey.html' && grep -q 'rows scanned: slowkey' '$W/dom-skey.html'"
  chrome --dump-dom "$BASE/#/job/$sjid" > "$W/dom-slow.html"
  check "dashboard: the slow window is listed with a warning" \
    bash -c "grep -q 'Slow windows: WindowJoin' '$W/dom-slow.html' && grep -q '2000 rows: slowkey' '$W/dom-slow.html'"
  shot="${BUILD:-$ROOT/build}/insight-dashboard.png"
  mkdir -p "$(dirname "$shot")"; rm -f "$shot"
  (cd "$TMPD" && chrome --screenshot="$shot" "$BASE/#/job/$gjid" > /dev/null)
  check "a dashboard screenshot was written ($shot)" test -s "$shot"
  shot2="${BUILD:-$ROOT/build}/insight-exchange-dashboard.png"
  rm -f "$shot2"
  (cd "$TMPD" && chrome --screenshot="$shot2" "$BASE/#/job/$h2jid" > /dev/null)
  check "a screenshot of the hot key at the hash exchange was written ($shot2)" test -s "$shot2"
else
  echo "note $TEST_NAME: chromium is not installed; the dashboard part is not checked"
fi
api PATCH "/jobs/$gjid?mode=cancel" > /dev/null
api PATCH "/jobs/$tjid?mode=cancel" > /dev/null

# ---- the -v report (embedded)
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -i "$W/ddl.sql" -f "$W/hot.sql" > "$W/v-hot.out" 2> "$W/v-hot.err" < /dev/null
check "-v: the hot key is reported with its remedy" grep -q "hot key: hot has 6[0-9]% of GroupAggregate\[[0-9]*\]'s rows (subtask 0); remedy: not applied: enable two-phase" "$W/v-hot.err"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -i "$W/ddl.sql" -f "$W/late.sql" > "$W/v-late.out" 2> "$W/v-late.err" < /dev/null
check "-v: the late rows are reported, the sample with its column names (the operator's input)" \
  grep -q "late rows dropped: 7, late by up to 3[89][0-9]* ms .*first: late by [0-9]* ms: k=late1, " "$W/v-late.err"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -i "$W/ddl.sql" -f "$W/hot2.sql" > "$W/v-hot2.out" 2> "$W/v-hot2.err" < /dev/null
check "-v: the hot key at the hash exchange is reported with its receiving subtask" \
  grep -q "hot key at the hash exchange into GroupAggregate\[[0-9]*\]: hot has [56][0-9]% of the rows sent, all to subtask [01]$" "$W/v-hot2.err"
# off: no insight at all
sed "s/SET 'table.dml-sync'/SET 'weir.insight.enabled' = 'false';\nSET 'table.dml-sync'/" "$W/hot.sql" > "$W/hot-off.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -i "$W/ddl.sql" -f "$W/hot-off.sql" > "$W/v-off.out" 2> "$W/v-off.err" < /dev/null
check "weir.insight.enabled = false: no hot-key line" bash -c "grep -q 'GroupAggregate' '$W/v-off.err' && ! grep -q 'hot key' '$W/v-off.err'"
if [[ $FAILS -gt 0 ]]; then for f in hot hot2 bytes late slow skey grow ttl; do echo "== $f.json"; cat "$W/$f.json"; done; cat "$W"/v-*.err; fi
exit 0
