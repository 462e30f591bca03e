#!/usr/bin/env bash
# flink_sql_client.sh — Flink's own sql-client in gateway mode (`sql-client.sh gateway --endpoint`,
# from the distribution scripts/install-flink.sh installs) against a weir daemon's SQL gateway
# endpoint runs each tests/gateway/scripts/*.sql (DDL, SET, SHOW TABLES, batch SELECTs in tableau
# mode, a streaming SELECT with its op column, errors) and prints the transcript it printed against
# Flink's own gateway (tests/gateway/flink-recorded/transcripts/<script>.out), modulo
# transcript.py's normalization; the endpoints it called (with their statuses, through
# tests/gateway/proxy.py) are the ones it called against Flink's gateway
# (tests/gateway/flink-recorded/sql_client.endpoints). Skipped (77) when Flink cannot be installed.
TEST_NAME=gateway/flink_sql_client
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools python3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FLINK_HOME="$("$ROOT/scripts/install-flink.sh" 2>/dev/null | tail -n 1)" || true
[[ -n "$FLINK_HOME" && -x "$FLINK_HOME/bin/sql-client.sh" ]] || skip "Flink's distribution cannot be installed here (scripts/install-flink.sh)"
cluster_setup
cluster_start
[[ -n "$GWPORT" ]] || { fail "the daemon did not log its SQL gateway endpoint"; exit 1; }
mkdir -p "$TMPD/flink-log"
start_gateway_proxy "$TMPD/endpoints.log"
for s in "$here"/scripts/*.sql; do
  name="$(basename "$s" .sql)"
  FLINK_LOG_DIR="$TMPD/flink-log" HOME="$TMPD" timeout 240 "$FLINK_HOME/bin/sql-client.sh" gateway \
    --endpoint "127.0.0.1:$PPORT" -f "$s" > "$TMPD/$name.out" 2>&1 < /dev/null
  if ! python3 "$here/transcript.py" "$here/flink-recorded/transcripts/$name.out" "$TMPD/$name.out" > "$TMPD/$name.diff"; then
    fail "$name: Flink's sql-client shows another transcript against weir:"; head -n 60 "$TMPD/$name.diff"
  fi
done
sort -u "$TMPD/endpoints.log" > "$TMPD/endpoints"
if ! diff -u "$here/flink-recorded/sql_client.endpoints" "$TMPD/endpoints"; then
  fail "Flink's sql-client called other endpoints (or got other statuses) than against Flink's gateway"
fi
