#!/usr/bin/env bash
# rest_load.sh — the REST server and the SQL gateway under a bounded loopback load (issue 19,
# item 4): rounds of keep-alive REST requests against a running job and rounds of gateway sessions
# (open, run a statement, fetch its result, close). Figures: requests per second and the daemon's
# resident memory after each round; after a warm-up round, the RSS must not keep growing (a leak of
# a few hundred bytes per request would show as megabytes). Limits: a request header beyond the
# server's connection memory gets 431 and a body beyond 1 MiB gets 413, and the server keeps
# serving. LOAD_ROUNDS (default 3) x LOAD_REQUESTS (default 3000) requests and 3 x GATEWAY_SESSIONS
# (default 10) sessions, about 30 s under the sanitizers.
TEST_NAME=rest_load
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# under AddressSanitizer freed memory waits in a quarantine (256 MB by default) before it is reused,
# which looks like growth: keep it small so that the RSS figures mean what they say
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4:thread_local_quarantine_size_kb=64"
need_tools curl jq
cluster_setup "taskmanager.numberOfTaskSlots: 2"
W="$TMPD/work"
cluster_start
pid="$(cat "$TMPD/log/weir-cluster.pid")"
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }

cat > "$W/job.sql" <<SQL
CREATE TABLE gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '500',
  'fields.k.min' = '1', 'fields.k.max' = '50');
CREATE TABLE sink (k INT, total BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'loaded';
INSERT INTO sink SELECT k, CAST(COUNT(*) AS BIGINT) FROM gen GROUP BY k;
SQL
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name loaded)"
check "the job was submitted" test -n "$jid"
check "the job is RUNNING" wait_state "$jid" RUNNING

# ---- limits ----
big="$(head -c 70000 /dev/zero | tr '\0' 'x')"
code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H "X-Big: $big" "$BASE/overview")"
check "a 70 KB request header gets 431 (got $code)" test "$code" = 431
head -c 1100000 /dev/zero | tr '\0' 'x' > "$W/huge.json"
code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H 'Content-Type: application/json' \
        --data-binary "@$W/huge.json" "http://127.0.0.1:$GWPORT/v4/sessions")"
check "a 1.1 MB body gets 413 (got $code)" test "$code" = 413
api GET /overview > /dev/null
check "the server answers after the oversized requests" test "$STATUS" = 200

# ---- REST rounds: 4 curl processes, 8 transfers in flight each, keep-alive ----
paths=("/overview" "/jobs/overview" "/jobs/$jid" "/jobs/$jid/checkpoints" "/weir/jobs/$jid/state"
       "/jobs/$jid/plan" "/taskmanagers" "/config")
N="${LOAD_REQUESTS:-3000}"
ROUNDS="${LOAD_ROUNDS:-3}"
for p in 0 1 2 3; do
  for ((i = 0; i < N / 4; i++)); do
    echo "url = \"$BASE${paths[$(( (i * 3 + p) % ${#paths[@]} ))]}\""
    echo "output = /dev/null"
  done > "$W/urls.$p"
done
rss=()
for ((r = 1; r <= ROUNDS; r++)); do
  t0=$(date +%s%N)
  for p in 0 1 2 3; do
    timeout 120 curl -s -Z --parallel-immediate --parallel-max 8 -K "$W/urls.$p" -w '%{http_code}\n' > "$W/codes.$r.$p" 2>/dev/null &
  done
  wait
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  ok="$(cat "$W"/codes.$r.* | grep -c '^200$')"
  rss+=("$(rss_kb)")
  echo "# rest round $r: $ok/$N answered 200 in $ms ms ($(( ok * 1000 / (ms > 0 ? ms : 1) )) requests/s), daemon RSS ${rss[-1]} KiB"
  check "round $r: every request answered 200" test "$ok" = "$N"
done
growth=$(( rss[ROUNDS - 1] - rss[1] ))
echo "# rest: RSS after round 2 ${rss[1]} KiB, after round $ROUNDS ${rss[ROUNDS - 1]} KiB (growth $growth KiB)"
check "the daemon's RSS does not grow under steady REST load ($growth KiB after the warm-up)" test "$growth" -lt 16384

# ---- gateway rounds: sessions with a statement each ----
JSON=(-H "Content-Type: application/json")
GW="http://127.0.0.1:$GWPORT"
gw_round() { # n sessions
  local i sh oh t ok=0
  for ((i = 0; i < $1; i++)); do
    sh="$(curl -s --max-time 10 "${JSON[@]}" --data '{}' "$GW/v4/sessions" | jq -r .sessionHandle)"
    oh="$(curl -s --max-time 10 "${JSON[@]}" --data '{"statement":"SELECT 1 + 1"}' "$GW/v4/sessions/$sh/statements" | jq -r .operationHandle)"
    local k
    for ((k = 0; k < 100; k++)); do   # Flink's protocol: NOT_READY until the statement has a result
      t="$(curl -s --max-time 20 "$GW/v4/sessions/$sh/operations/$oh/result/0?rowFormat=JSON" | jq -r .resultType 2>/dev/null)"
      [[ "$t" == NOT_READY ]] || break
      sleep 0.05
    done
    if [[ "$t" == PAYLOAD || "$t" == EOS ]]; then ok=$((ok + 1)); fi
    curl -s --max-time 10 -X DELETE "$GW/v4/sessions/$sh" > /dev/null
  done
  echo "$ok"
}
G="${GATEWAY_SESSIONS:-10}"
grss=()
for ((r = 1; r <= 3; r++)); do
  t0=$(date +%s%N)
  ok="$(gw_round "$G")"
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  grss+=("$(rss_kb)")
  echo "# gateway round $r: $ok/$G sessions (open, SELECT, result, close) in $ms ms, daemon RSS ${grss[-1]} KiB"
  check "gateway round $r: every session answered" test "$ok" = "$G"
done
ggrowth=$(( grss[2] - grss[0] ))
check "the daemon's RSS does not grow over gateway sessions ($ggrowth KiB after the warm-up)" test "$ggrowth" -lt 16384
api GET "/jobs/$jid/status" > /dev/null
check "the job still runs" wait_state "$jid" RUNNING
exit 0
