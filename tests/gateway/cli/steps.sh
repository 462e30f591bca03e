#!/usr/bin/env bash
# steps.sh — the `flink` command-line session of tests/gateway/flink_cli.sh, the same against a
# Flink cluster (tests/gateway/cli/record.sh, which stores its outputs in
# tests/gateway/flink-recorded/cli/) and against a weir daemon (sourced, not run).
#
# The caller defines `submit NAME` (starts an unbounded datagen -> blackhole job with pipeline.name
# NAME through that system's own SQL client and prints its job id) and `job_state JID` (prints its
# state), sets FLINK_HOME, and calls `cli_steps OUT PORT SPDIR`: Flink's CLI is run against
# 127.0.0.1:PORT; each step's stdout and exit code go to OUT/<nn>-<step>.out; savepoints are
# written under SPDIR. Step outputs are normalized by cli/normalize.py before comparison.

# flink_cmd STEP ARGS...: bin/flink ARGS (with -m) into OUT/STEP.out, "rc=N" appended
flink_cmd() {
  local step="$1"; shift
  local verb="$1"; shift
  JVM_ARGS="${JVM_ARGS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}" FLINK_LOG_DIR="$CLI_OUT/flink-log" \
    timeout 300 "$FLINK_HOME/bin/flink" "$verb" -m "127.0.0.1:$CLI_PORT" "$@" \
    > "$CLI_OUT/$step.out" 2> "$CLI_OUT/$step.err" < /dev/null
  echo "rc=$?" >> "$CLI_OUT/$step.out"
}

# wait_job JID STATE: up to 60 s
wait_job() {
  local i
  for ((i = 0; i < 600; i++)); do
    [[ "$(job_state "$1")" == "$2" ]] && return 0
    sleep 0.1
  done
  echo "job $1 is $(job_state "$1"), not $2" >&2
  return 1
}

cli_steps() {
  CLI_OUT="$1" CLI_PORT="$2"
  local spdir="$3"
  mkdir -p "$CLI_OUT/flink-log" "$spdir"
  local a b c
  a="$(submit cli-a)" && b="$(submit cli-b)" && c="$(submit cli-c)" || return 1
  wait_job "$a" RUNNING && wait_job "$b" RUNNING && wait_job "$c" RUNNING || return 1
  echo "$a $b $c" > "$CLI_OUT/jobs"
  flink_cmd 01-list list
  flink_cmd 02-list-running list -r
  flink_cmd 03-savepoint savepoint "$a" "$spdir"
  flink_cmd 04-stop stop --savepointPath "$spdir" "$b"
  wait_job "$b" FINISHED
  flink_cmd 05-cancel cancel "$a"
  wait_job "$a" CANCELED
  flink_cmd 06-list-all list -a
  flink_cmd 07-cancel-unknown cancel 0123456789abcdef0123456789abcdef
  flink_cmd 08-cancel-finished cancel "$b"
  flink_cmd 09-savepoint-unknown savepoint 0123456789abcdef0123456789abcdef "$spdir"
  flink_cmd 10-stop-drain stop --drain --savepointPath "$spdir" "$c"
  wait_job "$c" FINISHED
  flink_cmd 11-list list
  flink_cmd 12-list-scheduled list -s
  return 0
}
