#!/usr/bin/env bash
# submission_race.sh — many short INSERTs submitted back to back from two clients at once: each job
# may end (and free what it was planned from) before the session's operation that submitted it
# returns. The session must not read the statement after handing it to the job (a use-after-free
# seen once in CI under load); the sanitizer check of lib.sh's cleanup sees any report. Every job
# must end FINISHED.
TEST_NAME=submission_race
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_tools curl jq
cluster_setup "taskmanager.numberOfTaskSlots: 64"
W="$TMPD/work"
cluster_start

N=${SUBMISSION_RACE_JOBS:-40}
for c in 1 2; do
  {
    echo "CREATE TABLE s$c (a INT) WITH ('connector' = 'blackhole');"
    for i in $(seq 1 "$N"); do
      echo "INSERT INTO s$c VALUES ($i);"
      echo "CREATE VIEW v${c}_$i AS SELECT $i AS x;"
    done
  } > "$W/c$c.sql"
done
sql "$W/c1.sql" > "$W/c1.out" 2>&1 &
p1=$!
sql "$W/c2.sql" > "$W/c2.out" 2>&1 &
p2=$!
wait "$p1"; r1=$?
wait "$p2"; r2=$?
check "client 1 ran its script" test "$r1" -eq 0
check "client 2 ran its script" test "$r2" -eq 0
check "every INSERT was submitted" test "$(cat "$W/c1.out" "$W/c2.out" | grep -c '^Job ID: [0-9a-f]\{32\}$')" -eq $((2 * N))
ok=0
for _ in $(seq 1 60); do
  api GET /jobs/overview > "$W/ov.json"
  if jqe --argjson n $((2 * N)) '[.jobs[] | select(.state == "FINISHED")] | length == $n' "$W/ov.json"; then ok=1; break; fi
  sleep 1
done
check "all $((2 * N)) jobs FINISHED" test "$ok" -eq 1
exit 0
