#!/usr/bin/env bash
# complete_statement.sh — the SQL gateway's complete-statement on weir's gateway endpoint, compared
# with Flink 2.3.0's answers: tests/gateway/complete_statement.py sets up a session (tables, a view,
# a second database and catalog) on a weir daemon, asks for the completion of each recorded
# (statement, position) and compares the candidates with tests/gateway/flink-recorded/
# complete_statement.json (recorded from Flink's gateway with `complete_statement.py record`),
# exactly; the script's EXPECTED_DIFF lists the pairs weir answers differently, with the reason.
TEST_NAME=gateway/complete_statement
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"
need_tools python3
cluster_setup
cluster_start
[[ -n "$GWPORT" ]] || { fail "the daemon did not log its SQL gateway endpoint"; exit 1; }
here="$(dirname "${BASH_SOURCE[0]}")"
if ! timeout 240 python3 "$here/complete_statement.py" check --port "$GWPORT" \
     "$here/flink-recorded/complete_statement.json" > "$TMPD/check.out" 2>&1; then
  fail "weir's candidates differ from Flink's:"; head -c 8000 "$TMPD/check.out"
fi
[[ -n "${VERBOSE:-}" ]] && tail -n 1 "$TMPD/check.out"
exit 0
