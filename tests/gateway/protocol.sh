#!/usr/bin/env bash
# protocol.sh — Flink's SQL Gateway REST API on weir's gateway endpoint, compared with Flink 2.3.0's
# own gateway: tests/gateway/scenario.py sends the same conversation (api_versions, info, sessions
# with properties, heartbeat, configure-session, complete-statement, statements with
# executionConfig, result pages in rowFormat JSON with column types and row kinds, status, close,
# errors) to a weir daemon and compares it with tests/gateway/flink-recorded/scenario.json
# (recorded from Flink's gateway with `scenario.py record`), modulo ids, tokens and page splits.
TEST_NAME=gateway/protocol
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools python3
cluster_setup
cluster_start
[[ -n "$GWPORT" ]] || { fail "the daemon did not log its SQL gateway endpoint"; exit 1; }
here="$(dirname "${BASH_SOURCE[0]}")"
if ! timeout 240 python3 "$here/scenario.py" record --port "$GWPORT" --out "$TMPD/weir.json" > "$TMPD/rec.out" 2>&1; then
  fail "the scenario did not run against weir:"; cat "$TMPD/rec.out"
elif ! python3 "$here/scenario.py" compare "$here/flink-recorded/scenario.json" "$TMPD/weir.json" > "$TMPD/diff" 2>&1; then
  fail "weir's answers differ from Flink's:"; head -c 6000 "$TMPD/diff"
fi
