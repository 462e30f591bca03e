#!/usr/bin/env bash
# dashboard.sh — the dashboard in headless Chromium (Debian's chromium): the page loads from the
# cluster, lists a submitted job, and shows its job graph (one svg g.vertex per job vertex, with
# Flink's chained names, and the edges between them); a screenshot is written to
# $BUILD/cluster-dashboard.png (or build/). Skipped (exit 77) when chromium is not installed and
# tests/cluster/setup.sh --chromium cannot install it (WEIR_NO_INSTALL=1 prevents the install).
TEST_NAME=dashboard
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
CHROME="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [[ -z "$CHROME" && -z "${WEIR_NO_INSTALL:-}" ]]; then
  "$ROOT/tests/cluster/setup.sh" --chromium
  CHROME="$(command -v chromium || true)"
fi
[[ -n "$CHROME" ]] || skip "chromium is not installed (manual check: open http://localhost:8081/ after bin/start-cluster.sh)"
cluster_setup
W="$TMPD/work"
cluster_start

for i in $(seq 1 30); do echo "p$((i % 3)),$i"; done > "$W/clicks.csv"
cat > "$W/job.sql" <<SQL
CREATE TABLE clicks (page STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '$W/clicks.csv', 'format' = 'csv');
CREATE TABLE out_sink (page STRING, total BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'dashboard-job';
SET 'table.dml-sync' = 'true';
INSERT INTO out_sink SELECT page, CAST(SUM(n) AS BIGINT) FROM clicks GROUP BY page;
SQL
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name dashboard-job)"
check "the job exists" test -n "$jid"
api GET "/jobs/$jid" > "$W/job.json"

api GET / > "$W/page.html"
check "the page is served" test "$STATUS" = 200
check "the page is the dashboard" grep -q 'id="job-graph"' "$W/page.html"

chrome() {
  timeout 60 "$CHROME" --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$TMPD/chrome" --window-size=1400,1200 --virtual-time-budget=10000 "$@" 2> "$TMPD/chrome.err"
}
url="$BASE/#/job/$jid"
chrome --dump-dom "$url" > "$W/dom.html"
check "chromium rendered the page" grep -q '<svg id="job-graph"' "$W/dom.html"
check "the job list shows the job" grep -q "data-jid=\"$jid\"" "$W/dom.html"
check "the job list names it" grep -q ">dashboard-job<" "$W/dom.html"
nv="$(jq '.vertices | length' "$W/job.json")"
check "the graph has one vertex per job vertex ($nv)" test "$(grep -o '<g class="vertex' "$W/dom.html" | wc -l)" -eq "$nv"
first="$(jq -r '.vertices[0].name' "$W/job.json")"
check "the graph shows '$first'" grep -qF "data-name=\"$first\"" "$W/dom.html"
check "the graph draws the HASH edge" grep -q 'class="edge"[^>]*data-ship="HASH"' "$W/dom.html"
check "the state panel lists groupAggregateState" grep -q ">groupAggregateState<" "$W/dom.html"

shot="${BUILD:-$ROOT/build}/cluster-dashboard.png"
mkdir -p "$(dirname "$shot")"
rm -f "$shot"
(cd "$TMPD" && chrome --screenshot="$shot" "$url" > /dev/null)
check "a screenshot was written ($shot)" test -s "$shot"
exit 0
