#!/usr/bin/env bash
# session_name.sh — the client's -s <session identifier> in gateway mode: Flink's client sends it
# as the open request's sessionName (ExecutorImpl.openSession), and Flink's gateway keeps it with
# the session. weir's client does the same, weir's gateway keeps the name and logs it; checked with
# weir's client and with Flink's own client (skipped part when Flink cannot be installed), plus a
# sessionName that is not a string (400) and an invalid identifier on the command line.
TEST_NAME=gateway/session_name
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools curl jq
cluster_setup
cluster_start
[[ -n "$GWPORT" ]] || { fail "the daemon did not log its SQL gateway endpoint"; exit 1; }
W="$TMPD/work"
printf "SET 'sql-client.execution.result-mode' = 'tableau';\nSELECT 1 AS x;\n" > "$W/q.sql"
log="$TMPD/log/weir-cluster.log"

timeout 120 "$WEIR" sql-client gateway --endpoint "127.0.0.1:$GWPORT" -s weir-named -f "$W/q.sql" > "$W/weir.out" 2>&1 < /dev/null
check "weir's client ran the script" grep -q "| +I | *1 |" "$W/weir.out"
check "weir's client sent -s as the session's name (the daemon logged it)" \
  grep -q "SQL gateway session [0-9a-f-]* opened with the name 'weir-named'" "$log"
timeout 60 "$WEIR" sql-client gateway --endpoint "127.0.0.1:$GWPORT" -f "$W/q.sql" > /dev/null 2>&1 < /dev/null
check "without -s no name is sent" test "$(grep -c "opened with the name" "$log")" -eq 1


curl -s -X POST -H 'Content-Type: application/json' -d '{"properties": {}, "sessionName": 42}' \
  "http://127.0.0.1:$GWPORT/v1/sessions" > "$W/num.json"
check "a number as sessionName is its text (Jackson's coercion into Flink's String field)" \
  bash -c "jq -e .sessionHandle '$W/num.json' > /dev/null && grep -q \"opened with the name '42'\" '$log'"
curl -s -X POST -H 'Content-Type: application/json' -d '{"properties": {}, "sessionName": {"a": 1}}' \
  "http://127.0.0.1:$GWPORT/v1/sessions" > "$W/bad.json"
check "an object as sessionName fails to open the session, saying why" grep -q "sessionName" "$W/bad.json"

FLINK_HOME="$("$ROOT/scripts/install-flink.sh" 2>/dev/null | tail -n 1)" || true
if [[ -n "$FLINK_HOME" && -x "$FLINK_HOME/bin/sql-client.sh" ]]; then
  mkdir -p "$TMPD/flink-log"
  FLINK_LOG_DIR="$TMPD/flink-log" HOME="$TMPD" timeout 240 "$FLINK_HOME/bin/sql-client.sh" gateway \
    --endpoint "127.0.0.1:$GWPORT" -s flink-named -f "$W/q.sql" > "$W/flink.out" 2>&1 < /dev/null
  check "Flink's client sends its -s as the session's name too" \
    grep -q "SQL gateway session [0-9a-f-]* opened with the name 'flink-named'" "$log"
else
  echo "note $TEST_NAME: Flink's distribution cannot be installed here; Flink's client part is not checked"
fi
if [[ $FAILS -gt 0 ]]; then cat "$W"/*.out; grep "opened with" "$log"; fi
exit 0
