#!/usr/bin/env bash
# Watermark lag per partition (issue 21 item 3; docs/insight.md "Watermark lag"): a topic of 3
# partitions where partitions 0 and 1 are in step and partition 2's events are an hour behind (a
# producer that fell behind: trap 9). One source subtask reads all three with a watermark per
# partition, as Flink's KafkaSource; partition 2 holds the watermark back. weir names it:
#   - the `-v` report of the embedded client: "watermark lag: split lagt-2 (subtask 0) was up to
#     ... ms behind" when the lag reaches weir.insight.watermark-lag-threshold (10 min here; not
#     with 2 h);
#   - REST /weir/jobs/:jid/vertices/:vid/watermarks of a cluster daemon: every partition with its
#     watermark, records and the most it lagged, partition 2 first with the warning;
#   - the dashboard's watermark table and warning (headless Chromium, when installed).
# (The leading watermark is the last event of partitions 0 and 1 minus the 1 s delay.)
# The records are produced in batches of 50 and read with a fetch size of one batch per partition
# (properties.max.partition.fetch.bytes), so the partitions' records interleave as on a live topic.
TEST_NAME=kafka/watermark_lag
source "$(dirname "$0")/lib.sh"
kafka_start
kafka_topic lagt:3

python3 - "$KTMP" <<'PY'
import sys
d, T0 = sys.argv[1], 1700000000000
for p in range(3):
    base = T0 - (3600000 if p == 2 else 0)
    for b in range(8):
        open(f"{d}/lag{p}-{b}.csv", "w").write("".join(f"{p * 1000 + i},{base + i * 250}\n" for i in range(b * 50, b * 50 + 50)))
PY
for b in 0 1 2 3 4 5 6 7; do for p in 0 1 2; do kafka_produce lagt "$p" < "$KTMP/lag$p-$b.csv"; done; done

job() { # threshold pipeline-name
  cat <<SQL
SET 'table.local-time-zone' = 'UTC';
SET 'parallelism.default' = '1';
SET 'table.dml-sync' = 'true';
SET 'pipeline.name' = '$2';
SET 'weir.insight.watermark-lag-threshold' = '$1';
CREATE TABLE src (id BIGINT, ms BIGINT, ts AS TO_TIMESTAMP_LTZ(ms, 3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'kafka', 'topic' = 'lagt', 'properties.bootstrap.servers' = '$BOOTSTRAP',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'properties.max.partition.fetch.bytes' = '64', 'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE snk (ws TIMESTAMP(3), n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO snk SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end;
SQL
}

job '10 min' lag-embedded > "$KTMP/v.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$KTMP/v.sql" > "$KTMP/v.out" 2> "$KTMP/v.err" < /dev/null ||
  { cat "$KTMP/v.out" "$KTMP/v.err"; fail "the embedded job failed"; }
line="$(grep 'watermark lag:' "$KTMP/v.err")"
[[ "$line" =~ "watermark lag: split lagt-2 (subtask 0) was up to "([0-9]+)" ms behind the leading watermark of WatermarkAssigner" ]] ||
  { cat "$KTMP/v.err"; fail "the -v report does not name partition lagt-2's watermark lag"; }
lag="${BASH_REMATCH[1]:-0}"
(( lag >= 3500000 && lag <= 3700000 )) || fail "the reported lag $lag ms is not about an hour"
[[ "$line" == *"(400 rows)"* ]] || fail "the -v line does not count the partition's 400 rows: $line"
job '2 h' lag-quiet > "$KTMP/q.sql"
WEIR_EMBEDDED=1 timeout 120 "$WEIR" sql-client -v -f "$KTMP/q.sql" > "$KTMP/q.out" 2> "$KTMP/q.err" < /dev/null ||
  { cat "$KTMP/q.out" "$KTMP/q.err"; fail "the embedded job (2 h threshold) failed"; }
! grep -q 'watermark lag:' "$KTMP/q.err" || fail "a lag of an hour is reported over a threshold of 2 h"
printf "SET 'weir.insight.watermark-lag-threshold' = 'soon';\n" > "$KTMP/bad.sql"
job '10 min' lag-bad | sed "s/'10 min'/'soon'/" > "$KTMP/bad.sql"
if WEIR_EMBEDDED=1 timeout 60 "$WEIR" sql-client -f "$KTMP/bad.sql" > "$KTMP/bad.out" 2>&1 < /dev/null; then
  fail "an invalid weir.insight.watermark-lag-threshold was accepted"
fi
grep -q "Could not parse value 'soon' for key 'weir.insight.watermark-lag-threshold'" "$KTMP/bad.out" ||
  { cat "$KTMP/bad.out"; fail "no clear message for an invalid threshold"; }

# REST of a cluster daemon (its own conf and log folder; stopped on every exit)
mkdir -p "$KTMP/conf" "$KTMP/log"
printf 'rest:\n  address: 127.0.0.1\n  bind-address: 127.0.0.1\n  port: 0\nsql-gateway.endpoint.rest.port: 0\n' > "$KTMP/conf/config.yaml"
export WEIR_CONF_DIR="$KTMP/conf" WEIR_LOG_DIR="$KTMP/log"
stop_cluster() { timeout 40 "$WEIR" cluster stop > /dev/null 2>&1; kafka_cleanup; }
trap stop_cluster EXIT
"$WEIR" cluster start > "$KTMP/start.out" 2>&1 || { cat "$KTMP/start.out"; fail "the cluster did not start"; exit 1; }
read -r _ port < "$KTMP/log/weir-cluster.rest"
base="http://127.0.0.1:$port"
job '10 min' lag-rest > "$KTMP/r.sql"
timeout 120 "$WEIR" sql-client -f "$KTMP/r.sql" > "$KTMP/r.out" 2>&1 < /dev/null || { cat "$KTMP/r.out"; fail "the cluster job failed"; }
jid="$(curl -sS "$base/jobs/overview" | jq -r '[.jobs[] | select(.name == "lag-rest")][0].jid // empty')"
[[ -n "$jid" ]] || { cat "$KTMP/r.out"; tail -n 40 "$KTMP/log/weir-cluster.log"; fail "the job lag-rest is not listed"; }
vid="$(curl -sS "$base/jobs/$jid" | jq -r '[.vertices[] | select(.name | contains("WatermarkAssigner"))][0].id // empty')"
curl -sS "$base/weir/jobs/$jid/vertices/$vid/watermarks" > "$KTMP/wm.json"
jq -e '.threshold_ms == 600000 and (.operators | length) == 1' "$KTMP/wm.json" > /dev/null || { cat "$KTMP/wm.json"; fail "watermarks: no WatermarkAssigner answer"; }
jq -e '[.operators[0].splits[].split] == ["lagt-2", "lagt-0", "lagt-1"] or [.operators[0].splits[].split] == ["lagt-2", "lagt-1", "lagt-0"]' "$KTMP/wm.json" > /dev/null ||
  { cat "$KTMP/wm.json"; fail "watermarks: the three partitions, lagt-2 first"; }
jq -e '.operators[0].splits[0] | .records == 400 and .finished == true and .max_lag_ms > 3500000 and .max_lag_ms < 3700000' "$KTMP/wm.json" > /dev/null ||
  { cat "$KTMP/wm.json"; fail "watermarks: lagt-2 read to its end, about an hour behind at most"; }
jq -e '.operators[0].lagging == true and (.operators[0].warning | startswith("Split lagt-2 (subtask 0) was up to"))' "$KTMP/wm.json" > /dev/null ||
  { cat "$KTMP/wm.json"; fail "watermarks: the warning names lagt-2"; }
jq -e '.operators[0].leading_watermark == 1700000098750' "$KTMP/wm.json" > /dev/null ||
  { cat "$KTMP/wm.json"; fail "watermarks: the leading watermark is the last event of partitions 0 and 1"; }
# the dashboard (when headless Chromium is installed: tests/cluster/setup.sh --chromium)
CHROME="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -n "$CHROME" ]]; then
  timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$KTMP/chrome" --window-size=1400,2200 --virtual-time-budget=10000 --dump-dom "$base/#/job/$jid" \
    > "$KTMP/dom.html" 2> "$KTMP/chrome.err"
  grep -q "Watermark lag: Split lagt-2 (subtask 0) was up to" "$KTMP/dom.html" || fail "dashboard: no watermark-lag warning"
  grep -q "<td class=\"mono\">lagt-2</td>" "$KTMP/dom.html" || fail "dashboard: partition lagt-2 is not listed"
else
  echo "note $TEST_NAME: chromium is not installed; the dashboard part is not checked"
fi
exit 0
