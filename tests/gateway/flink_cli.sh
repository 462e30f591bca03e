#!/usr/bin/env bash
# flink_cli.sh — Flink's own `flink` command line (from the distribution scripts/install-flink.sh
# installs) against a weir daemon's REST port (-m 127.0.0.1:PORT): `flink list` (-r, -a, -s),
# `flink savepoint <jid> <dir>`, `flink stop --savepointPath <dir> [--drain]`, `flink cancel`, also
# of an unknown and of a finished job, for jobs submitted with weir's SQL client (cli/steps.sh).
# Each step prints what it printed against a Flink cluster (stdout and exit code, normalized by
# cli/normalize.py; recorded by cli/record.sh in tests/gateway/flink-recorded/cli/); the endpoints
# it called (through proxy.py) and their statuses are the ones Flink answered
# (flink-recorded/cli.endpoints). The savepoint `flink stop` took is restored by a new job
# (SET 'execution.savepoint.path'): its checkpoint statistics name it as restored. Skipped (77) when
# Flink cannot be installed.
TEST_NAME=gateway/flink_cli
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools python3 curl jq
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FLINK_HOME="$("$ROOT/scripts/install-flink.sh" 2>/dev/null | tail -n 1)" || true
[[ -n "$FLINK_HOME" && -x "$FLINK_HOME/bin/flink" ]] || skip "Flink's distribution cannot be installed here (scripts/install-flink.sh)"
cluster_setup "taskmanager.numberOfTaskSlots: 4"
W="$TMPD/work"
cluster_start
# proxy.py in front of the REST port, logging query strings too (as cli/record.sh does)
python3 "$here/proxy.py" --target "$PORT" --port-file "$TMPD/rest-proxy.port" --log "$TMPD/endpoints.raw" --query &
echo $! >> "$TMPD/proxy.pids"
for i in $(seq 1 100); do [[ -s "$TMPD/rest-proxy.port" ]] && break; sleep 0.1; done
read -r PPORT < "$TMPD/rest-proxy.port"

submit() {
  cat > "$W/$1.sql" <<SQL
CREATE TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE TABLE sink (id BIGINT, name STRING) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = '$1';
INSERT INTO sink SELECT id, name FROM gen;
SQL
  sql "$W/$1.sql" > "$W/$1.out" 2>&1
  jid_by_name "$1"
}
job_state() { api GET "/jobs/$1/status" | jq -r '.status // empty' 2>/dev/null; }

source "$here/cli/steps.sh"
if ! cli_steps "$TMPD/out" "$PPORT" "$W/sp"; then
  fail "the jobs did not start:"; cat "$W"/cli-*.out; exit 1
fi
for exp in "$here"/flink-recorded/cli/*.out; do
  step="$(basename "$exp")"
  python3 "$here/cli/normalize.py" "$TMPD/out" "$W/sp" "$TMPD/out/$step" > "$TMPD/out/$step.norm"
  if ! diff -u --label flink "$exp" --label weir "$TMPD/out/$step.norm"; then
    fail "${step%.out}: Flink's CLI printed something else against weir (its stderr:)"
    head -n 20 "$TMPD/out/${step%.out}.err"
  fi
done
sort -u "$TMPD/endpoints.raw" > "$TMPD/endpoints"
if ! diff -u --label flink "$here/flink-recorded/cli.endpoints" --label weir "$TMPD/endpoints"; then
  fail "Flink's CLI called other endpoints (or got other statuses) than against Flink"
fi

# the savepoint of `flink stop` is a real weir savepoint: a new job restores from it
read -r _ b _ < "$TMPD/out/jobs"
sp="$(sed -n 's/^Savepoint completed\. Path: file:\(.*\)$/\1/p' "$TMPD/out/04-stop.out" | head -n 1)"
check "flink stop named the savepoint's path" test -n "$sp"
check "the savepoint has _metadata" test -f "$sp/_metadata"
cat > "$W/restore.sql" <<SQL
CREATE TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
CREATE TABLE sink (id BIGINT, name STRING) WITH ('connector' = 'blackhole');
SET 'pipeline.name' = 'cli-restored';
SET 'execution.savepoint.path' = '$sp';
INSERT INTO sink SELECT id, name FROM gen;
SQL
sql "$W/restore.sql" > "$W/restore.out" 2>&1
r="$(jid_by_name cli-restored)"
check "the job restored from the savepoint was submitted" test -n "$r"
check "it runs" wait_state "$r" RUNNING
api GET "/jobs/$r/checkpoints" > "$W/restored.json"
check "its checkpoint statistics name the savepoint as restored" \
  jqe --arg p "$sp" '.latest.restored.external_path | endswith($p)' "$W/restored.json"
api PATCH "/jobs/$r?mode=cancel" > /dev/null
exit 0
