#!/usr/bin/env bash
# weir_client.sh — weir's own sql-client speaks Flink's SQL Gateway protocol: against REAL Flink's
# SQL gateway (tests/flink/flinkctl.py starts Flink 2.3.0 with its gateway) `weir sql-client gateway
# --endpoint host:port -f client/script.sql` (DDL, SET, SHOW TABLES, a batch SELECT, a streaming
# GROUP BY, an INSERT, SHOW JOBS, an error) prints the transcript Flink's own sql-client prints
# against the same gateway, and so does `STOP JOB '<its job>' WITH SAVEPOINT`; against a weir
# daemon (remote mode: the client finds the running cluster and uses its gateway endpoint) weir's
# client prints the same transcript again. Compared modulo client/compare.py's normalization
# (times, job ids, the gateway's other jobs in SHOW JOBS, savepoint paths).
# Skipped (77) when Flink cannot be installed here. FLINK_RUN_DIR names a Flink already started with
# flinkctl.py to use (and keep) instead of starting one (about a minute, 2 GB).
TEST_NAME=gateway/weir_client
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools python3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FLINK_HOME="$("$ROOT/scripts/install-flink.sh" 2>/dev/null | tail -n 1)" || true
[[ -n "$FLINK_HOME" && -x "$FLINK_HOME/bin/sql-client.sh" ]] || skip "Flink's distribution cannot be installed here (scripts/install-flink.sh)"
cluster_setup
# a Flink cluster already running in $FLINK_RUN_DIR (flinkctl.py) is used and kept; else the test
# starts its own and stops it
RUN="${FLINK_RUN_DIR:-}"
own=""
if [[ -z "$RUN" ]] || ! python3 "$ROOT/tests/flink/flinkctl.py" status --run-dir "$RUN" > /dev/null 2>&1; then
  RUN="$TMPD/flink"
  own=1
fi
stop_all() {
  local rc=$?
  [[ -n "$own" && -f "$RUN/flink.json" ]] && timeout 120 python3 "$ROOT/tests/flink/flinkctl.py" stop --run-dir "$RUN" > /dev/null 2>&1
  (exit $rc); cluster_cleanup
}
trap stop_all EXIT
if [[ -n "$own" ]]; then
  python3 "$ROOT/tests/flink/flinkctl.py" start --run-dir "$RUN" > "$TMPD/flink-start.log" 2>&1; st=$?
  [[ $st -eq 77 ]] && skip "Flink cannot run here: $(tail -n 2 "$TMPD/flink-start.log" | tr '\n' ' ')"
  [[ $st -ne 0 ]] && { fail "Flink did not start: $(tail -n 5 "$TMPD/flink-start.log")"; exit 1; }
fi
FGW="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gateway_port"])' "$RUN/flink.json")"
W="$TMPD/work"
mkdir -p "$W/flink-log"
flink_client() { # script out
  FLINK_LOG_DIR="$W/flink-log" HOME="$TMPD" timeout 300 "$FLINK_HOME/bin/sql-client.sh" gateway \
    --endpoint "127.0.0.1:$FGW" -f "$1" > "$2" 2>&1 < /dev/null
}
weir_client() { # script out [endpoint]
  if [[ -n "${3:-}" ]]; then
    timeout 300 "$WEIR" sql-client gateway --endpoint "$3" -f "$1" > "$2" 2>&1 < /dev/null
  else
    timeout 300 "$WEIR" sql-client -f "$1" > "$2" 2>&1 < /dev/null
  fi
}
compare() { # what expected actual
  if ! python3 "$here/client/compare.py" "$2" "$3" > "$W/diff"; then
    fail "$1:"; head -n 60 "$W/diff"
  fi
}
stop_script() { # transcript out-script: STOP JOB WITH SAVEPOINT for the job the transcript submitted
  local jid
  jid="$(sed -n 's/^Job ID: \([0-9a-f]\{32\}\).*/\1/p' "$1" | tail -n 1)"
  [[ -n "$jid" ]] || fail "$1 shows no submitted job"
  mkdir -p "$W/savepoints"
  printf "SET 'execution.checkpointing.savepoint-dir' = 'file://%s';\nSTOP JOB '%s' WITH SAVEPOINT;\n" \
    "$W/savepoints" "$jid" > "$2"
}

# Flink's client and weir's against Flink's gateway, at the same time (each in its own session;
# SHOW JOBS is compared on the jobs each submitted), then each stops its job with a savepoint
flink_client "$here/client/script.sql" "$W/flink.out" &
fpid=$!
weir_client "$here/client/script.sql" "$W/weir-flink.out" "127.0.0.1:$FGW"
wait "$fpid"
grep -q "^Job ID: " "$W/flink.out" || { fail "Flink's client did not run the script:"; tail -n 30 "$W/flink.out"; exit 1; }
compare "weir's client against Flink's gateway prints another transcript than Flink's client" "$W/flink.out" "$W/weir-flink.out"
stop_script "$W/flink.out" "$W/stop-flink.sql"
stop_script "$W/weir-flink.out" "$W/stop-weir.sql"
flink_client "$W/stop-flink.sql" "$W/flink-stop.out" &
fpid=$!
weir_client "$W/stop-weir.sql" "$W/weir-flink-stop.out" "127.0.0.1:$FGW"
wait "$fpid"
grep -q "savepoint path" "$W/flink-stop.out" || { fail "Flink's client did not stop its job with a savepoint:"; tail -n 20 "$W/flink-stop.out"; }
compare "STOP JOB ... WITH SAVEPOINT through Flink's gateway" "$W/flink-stop.out" "$W/weir-flink-stop.out"

# weir's client against a weir daemon (remote mode: its SQL gateway endpoint, the same protocol)
cluster_start
weir_client "$here/client/script.sql" "$W/weir-weir.out"
compare "weir's client against weir's gateway prints another transcript than Flink's client against Flink" \
  "$W/flink.out" "$W/weir-weir.out"
stop_script "$W/weir-weir.out" "$W/stop-weir2.sql"
weir_client "$W/stop-weir2.sql" "$W/weir-weir-stop.out"
compare "STOP JOB ... WITH SAVEPOINT through weir's gateway" "$W/flink-stop.out" "$W/weir-weir-stop.out"
exit 0
