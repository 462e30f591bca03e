#!/usr/bin/env bash
# result_views_remote.sh — the table and changelog views in remote mode (the client talking to a
# cluster daemon's gateway): the same screens as embedded, keys handled while the client polls the
# gateway, Q cancels a running query in the cluster.
TEST_NAME=result_views_remote
CLUSTER=1
source "$(dirname "$0")/lib.sh"
client_start 110 24

run() { type_text "$1;"; keys Enter; }

run "SELECT x, COUNT(*) AS c FROM (VALUES (1),(2),(1),(3),(1)) AS t(x) GROUP BY x"
wait_for 'Table program finished' 30 || fail "no finished table view"
expect_line "                                           SQL Query Result (Table)"
expect_line "           x                    c"
[[ "$(line_at 5)|$(line_at 6)|$(line_at 7)" == "           2                    1|           3                    1|           1                    3" ]] \
  || fail "table rows: $(visible | sed -n 5,7p | tr '\n' '|')"
keys q
wait_count 'Result retrieval cancelled' 1 10 || fail "Q did not leave the table view"

# SET of an option weir does not apply: accepted (Flink's protocol has no place for weir's
# warning: the daemon logs it)
run "SET 'table.exec.no-such-option' = '1'"
wait_count 'Execute statement succeeded' 1 20 || fail "the SET of an unknown option did not succeed over the gateway"
for i in $(seq 1 50); do grep -q "WARNING\] weir does not know the option 'table.exec.no-such-option'" "$TMPD/log/weir-cluster.log" && break; sleep 0.1; done
grep -q "WARNING\] weir does not know the option 'table.exec.no-such-option'" "$TMPD/log/weir-cluster.log" \
  || fail "the daemon did not log the warning for an unknown option"

run "SET 'sql-client.execution.result-mode' = 'changelog'"
run "CREATE TABLE u (id INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000')"
run "SELECT id FROM u"
wait_for 'SQL Query Result \(Changelog\)' 30 || fail "no changelog view"
wait_for '^ Refresh: Fastest ' 10 || fail "a running changelog query does not show 'Refresh: Fastest'"
wait_for '^ \+I +[0-9]+$' 20 || { fail "no changelog rows arrive"; visible; }
keys q
wait_count 'Result retrieval cancelled' 2 20 || fail "Q did not leave the running changelog view"

run "QUIT"
wait_for 'CLIENT-EXITED 0' 30 || fail "QUIT did not end the client with status 0"
exit 0
