#!/usr/bin/env bash
# rest_concurrency.sh — concurrent REST load on loopback (issue 19): 48 concurrent transfers hit
# /jobs/overview, /jobs/:jid, /jobs/:jid/vertices/:vid(/watermarks), /jobs/:jid/checkpoints and
# /weir/jobs/:jid/state of a running job at the same time (the server answers each connection in
# its own thread). Every answer must be 200: a wrong 400/404 means two requests' paths were
# split with shared state (as strtok did). Bounded: 4 x 5000 requests (10-20 s), 60 s at most; before the fix about 1 request in 6000 got a wrong answer, so a run of the old code passes only by luck (about 4%).
TEST_NAME=rest_concurrency
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup "taskmanager.numberOfTaskSlots: 2"
W="$TMPD/work"
cluster_start

cat > "$W/job.sql" <<SQL
CREATE TABLE gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '200',
  'fields.k.min' = '1', 'fields.k.max' = '20');
CREATE TABLE sink (k INT, total BIGINT) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'loaded';
INSERT INTO sink SELECT k, CAST(COUNT(*) AS BIGINT) FROM gen GROUP BY k;
SQL
sql "$W/job.sql" > "$W/job.out" 2>&1
jid="$(jid_by_name loaded)"
check "the job was submitted" test -n "$jid"
check "the job is RUNNING" wait_state "$jid" RUNNING
vids="$(api GET "/jobs/$jid" | jq -r '[.vertices[].id] | join(",")')"
check "the job has vertices" test -n "$vids"

# the load: 4 curl processes, each with 12 transfers in flight (curl --parallel), over every path
IFS=, read -r -a varr <<< "$vids"
paths=("/jobs/overview" "/jobs/$jid" "/jobs/$jid/status" "/jobs/$jid/checkpoints" "/weir/jobs/$jid/state"
       "/overview" "/v1/jobs/$jid/config" "/jobs/$jid/plan")
for v in "${varr[@]}"; do paths+=("/jobs/$jid/vertices/$v" "/jobs/$jid/vertices/$v/watermarks"); done
N="${LOAD_REQUESTS:-5000}"
for p in 0 1 2 3; do
  for ((i = 0; i < N; i++)); do
    echo "url = \"$BASE${paths[$(( (i * 5 + p) % ${#paths[@]} ))]}\""
    echo "output = /dev/null"
  done > "$W/urls.$p"
done
start=$(date +%s)
for p in 0 1 2 3; do
  timeout 60 curl -s -Z --parallel-immediate --parallel-max 12 -K "$W/urls.$p" -w '%{http_code} %{url_effective}\n' \
    > "$W/codes.$p" 2>/dev/null &
done
wait
total="$(cat "$W"/codes.* | wc -l)"
wrong="$(cat "$W"/codes.* | grep -vc '^200 ')"
{ echo "requests $total in $(( $(date +%s) - start )) s, wrong answers $wrong"; cat "$W"/codes.* | grep -v '^200 ' | head -n 10; } > "$W/load.out"
[[ "$wrong" -eq 0 && "$total" -ge $((4 * N * 9 / 10)) ]]
st=$?
cat "$W/load.out"
check "every concurrent request was answered 200 (no wrong 400/404)" test $st = 0
api GET /overview > /dev/null
check "the server answers after the load" test "$STATUS" = 200
exit 0
