#!/usr/bin/env bash
# dashboard.sh — Flink's own web dashboard (the web/ files of the installed distribution's
# flink-dist jar; test-only wiring, nothing of Flink is shipped with weir) against a weir daemon's
# REST API: proxy.py --static serves the files and forwards every other request to weir, logging
# each call. Headless Chromium loads the job list, a running job's graph, its checkpoints and its
# configuration; the pages show the job, one graph node per job vertex, the checkpoint counts and
# the job's execution configuration; screenshots and the list of REST calls with weir's statuses
# are kept in ${BUILD:-build}/gateway-dashboard/; no call the pages made may fail (status >= 400).
# Skipped (77) when Flink cannot be installed or chromium is missing.
TEST_NAME=gateway/dashboard
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools python3 curl jq
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CHROME="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -z "$CHROME" && -z "${WEIR_NO_INSTALL:-}" ]]; then
  "$ROOT/tests/cluster/setup.sh" --chromium
  CHROME="$(command -v chromium || true)"
fi
[[ -n "$CHROME" ]] || skip "chromium is not installed (tests/cluster/setup.sh --chromium)"
FLINK_HOME="$("$ROOT/scripts/install-flink.sh" 2>/dev/null | tail -n 1)" || true
dist="$(ls "$FLINK_HOME"/lib/flink-dist-*.jar 2>/dev/null | head -n 1)"
[[ -n "$dist" ]] || skip "Flink's distribution cannot be installed here (scripts/install-flink.sh)"
cluster_setup "taskmanager.numberOfTaskSlots: 2" "execution.checkpointing.interval: 1 s"
W="$TMPD/work"
ART="${BUILD:-$ROOT/build}/gateway-dashboard"
rm -rf "$ART"
mkdir -p "$ART"
python3 - "$dist" "$TMPD" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith("web/")])
PY
check "the dashboard's files are in $(basename "$dist")" test -f "$TMPD/web/index.html"
cluster_start
python3 "$here/proxy.py" --target "$PORT" --port-file "$TMPD/web.port" --log "$TMPD/calls.log" --static "$TMPD/web" &
echo $! >> "$TMPD/proxy.pids"
for i in $(seq 1 100); do [[ -s "$TMPD/web.port" ]] && break; sleep 0.1; done
read -r WPORT < "$TMPD/web.port"

cat > "$W/job.sql" <<SQL
CREATE TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE TABLE sink (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'dashboard-job';
INSERT INTO sink SELECT id % 10, COUNT(*) FROM gen GROUP BY id % 10;
SQL
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name dashboard-job)"
check "the job was submitted" test -n "$jid"
check "it runs" wait_state "$jid" RUNNING
for ((i = 0; i < 100; i++)); do   # a completed checkpoint for the checkpoints page
  [[ "$(api GET "/jobs/$jid/checkpoints" | jq '.counts.completed')" -ge 1 ]] 2>/dev/null && break
  sleep 0.2
done
api GET "/jobs/$jid" > "$W/job.json"

# chrome PAGE ROUTE TEXT [ABSENT]: the page in headless Chromium (headless.py: real time, until the
# page shows TEXT (a regular expression when ABSENT is given) and no longer matches ABSENT, at most
# 120 s); its HTML into $ART/PAGE.html, a screenshot $ART/PAGE.png
chrome() {
  python3 "$here/headless.py" --chrome "$CHROME" --profile "$TMPD/chrome" --url "http://127.0.0.1:$WPORT/#$2" \
    --text "$3" --html "$ART/$1.html" --png "$ART/$1.png" --timeout 120 ${4:+--regex --absent "$4"} 2>> "$TMPD/chrome.err"
  check "$1 shows '$3'" test $? -eq 0
  check "a screenshot of $1" test -s "$ART/$1.png"
}
chrome jobs /job/running dashboard-job
check "the job list shows the job" grep -q "dashboard-job" "$ART/jobs.html"
# every vertex has rates before the graph page loads (the page asks for a node's metrics when it
# draws it and may not ask again within the test's wait)
for ((i = 0; i < 150; i++)); do
  ok=1
  for vid in $(jq -r '.vertices[].id' "$W/job.json"); do
    v="$(api GET "/jobs/$jid/vertices/$vid/subtasks/metrics?get=busyTimeMsPerSecond" | jq -r '.[0].max | type' 2>/dev/null)"
    [[ "$v" == number ]] || ok=0
  done
  [[ $ok == 1 ]] && break
  sleep 0.2
done
# the graph once all its nodes show the measured task times (Busy and Backpressured as a
# percentage): a vertex has no rates until its second sample (weir, like Flink, answers NaN, which
# the page shows as N/A), and the page asks for each node's metrics on its own
chrome graph "/job/running/$jid/overview" "(?=[\\s\\S]*Busy \\(max\\): [0-9]+%)(?=[\\s\\S]*Backpressured \\(max\\): [0-9]+%)" \
  "(Busy|Backpressured) \\(max\\): N/A"
check "the graph's nodes show measured Busy and Backpressured percentages, not N/A" \
  bash -c "! grep -qE '(Busy|Backpressured) \(max\): N/A' '$ART/graph.html' && grep -qE 'Backpressured \(max\): [0-9]+%' '$ART/graph.html'"
nv="$(jq '.vertices | length' "$W/job.json")"
check "the graph has $nv nodes (one per job vertex)" \
  test "$(grep -o 'class="node node-rect"' "$ART/graph.html" | wc -l)" -eq "$nv"
while read -r name; do
  short="${name:0:30}"
  check "the graph shows the vertex '$short...'" grep -qF "$(printf '%s' "$short" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')" "$ART/graph.html"
done < <(jq -r '.vertices[].name' "$W/job.json")
chrome checkpoints "/job/running/$jid/checkpoints" "Latest Completed Checkpoint"
check "the checkpoints page shows the latest completed checkpoint" grep -q "Latest Completed Checkpoint" "$ART/checkpoints.html"
chrome configuration "/job/running/$jid/configuration" "Cluster level default restart strategy"
check "the configuration page shows the execution configuration" grep -q "Cluster level default restart strategy" "$ART/configuration.html"

grep -v '^static ' "$TMPD/calls.log" | sort | uniq -c > "$ART/calls"
check "the pages called weir's REST API" test -s "$ART/calls"
if awk '$NF >= 400' "$ART/calls" | grep -q .; then
  fail "calls of the dashboard that failed:"; awk '$NF >= 400' "$ART/calls"
fi
api PATCH "/jobs/$jid?mode=cancel" > /dev/null
exit 0
