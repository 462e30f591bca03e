#!/usr/bin/env bash
# result_views.sh — the interactive client's full-screen result views (result-mode table and
# changelog), laid out as Flink 2.3's client shows them (checked against Flink's sql-client.sh
# in tmux at 110x24): title, status line, column header, rows, two lines of key help; Q and Esc
# leave with "[INFO] Result retrieval cancelled."; N/P/G/L page the table; +/- change the refresh
# interval of a running query; W/S select a row and O opens it.
TEST_NAME=result_views
source "$(dirname "$0")/lib.sh"
client_start 110 24

run() { type_text "$1;"; keys Enter; }
status_line() { line_at 2; }
TIME='[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}'

# --- table view (the default result mode) of an updating aggregate
run "SELECT x, COUNT(*) AS c FROM (VALUES (1),(2),(1),(3),(1)) AS t(x) GROUP BY x"
wait_for 'Table program finished' || fail "no finished table view"
expect_line "                                           SQL Query Result (Table)"
status_line | grep -qE "^ Table program finished\.                       Page: Last of 1                          Updated: $TIME$" \
  || fail "table status line: '$(status_line)'"
expect_line "           x                    c"
[[ "$(line_at 5)|$(line_at 6)|$(line_at 7)" == "           2                    1|           3                    1|           1                    3" ]] \
  || fail "table rows: $(visible | sed -n 5,7p | tr '\n' '|')"
expect_line "Q Quit               + Inc Refresh        G Goto Page          N Next Page          O Open Row"
expect_line "R Refresh            - Dec Refresh        L Last Page          P Prev Page"
keys q
wait_for 'Result retrieval cancelled' || fail "Q did not leave the table view"
expect_line "[INFO] Result retrieval cancelled."

# --- cells as Flink's table view prints them (measured on Flink 2.3): a value longer than the
#     column keeps width - 1 characters and '~'; NULL is <NULL>; widths count UTF-16 units, so
#     CJK text is not padded by its display width
run "SELECT 'abcdefghijklmnopqrstuvwxyz0123456789' AS s, CAST(NULL AS INT) AS n, '日本語のテキストです日本語のテキストです' AS j"
wait_count 'Table program finished' 1 20 || fail "no table view of the long values"
wait_for 'abcdefghijklmnopqrstuvwxyz012~' 5 || fail "no truncated value"
expect_line "                              s           n                              j"
expect_line " abcdefghijklmnopqrstuvwxyz012~      <NULL>           日本語のテキストです日本語のテキストです"
keys q
wait_count 'Result retrieval cancelled' 2 5 || fail "Q did not leave the second table view"

# --- changelog view
run "SET 'sql-client.execution.result-mode' = 'changelog'"
run "SELECT x, COUNT(*) AS c FROM (VALUES (1),(2),(1),(3),(1)) AS t(x) GROUP BY x"
wait_for 'SQL Query Result \(Changelog\)' || fail "no changelog view"
wait_for 'Table program finished' || fail "changelog view not finished"
status_line | grep -qE "^ Table program finished\. {64}Updated: $TIME$" || fail "changelog status line: '$(status_line)'"
expect_line " op           x                    c"
[[ "$(visible | sed -n 5,11p | awk '{print $1 $2 $3}' | tr '\n' ' ')" == "+I11 +I21 -U11 +U12 +I31 -U12 +U13 " ]] \
  || fail "changelog rows: $(visible | sed -n 5,11p | tr '\n' '|')"
expect_line "Q Quit                              + Inc Refresh                       O Open Row"
expect_line "R Refresh                           - Dec Refresh"
keys Escape
wait_count 'Result retrieval cancelled' 3 5 || fail "Esc did not leave the changelog view"

# --- pages: 50 rows, 18 per page at 24 lines
run "SET 'sql-client.execution.result-mode' = 'table'"
run "CREATE TABLE g (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '50', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '50')"
run "SELECT id FROM g"
wait_for 'Page: Last of 3' || fail "no 3-page table"
wait_for 'Table program finished' || fail "paged table not finished"
[[ "$(line_at 5 | tr -d ' ')" == 37 ]] || fail "the last page does not start at row 37"
keys p
wait_for 'Page: 2 of 3' 5 || fail "P did not go to page 2"
[[ "$(line_at 5 | tr -d ' ')" == 19 ]] || fail "page 2 does not start at row 19"
keys g
wait_for 'Enter page number: \[1 to 3\]' 5 || fail "G asks for no page number"
keys 1 Enter
wait_for 'Page: 1 of 3' 5 || fail "G 1 did not go to page 1"
keys n
wait_for 'Page: 2 of 3' 5 || fail "N did not go to page 2"
keys l
wait_for 'Page: Last of 3' 5 || fail "L did not go to the last page"
# select the first row of the page and open it
keys s o
wait_for 'Row Summary' 5 || fail "O opened no row"
expect_line "id (INT):"
expect_line "37"
expect_line "Press Q to go back."
keys x
sleep 0.3
[[ "$(visible | grep -c 'Row Summary')" == 1 ]] || fail "a key other than Q left the row view"
keys q
wait_for 'Page: Last of 3' 5 || fail "no way back from the row"
keys q
wait_count 'Result retrieval cancelled' 4 5 || fail "Q did not leave the paged table"

# --- refresh interval of a running query: 1 s, + 5 s, - - - 100 ms (the table's minimum)
run "CREATE TABLE u (id INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000000')"
run "SELECT id FROM u"
wait_for '^ Refresh: 1 s ' || fail "a running query does not show 'Refresh: 1 s'"
keys +
wait_for '^ Refresh: 5 s ' 5 || fail "+ did not go to 5 s"
keys - - - -
wait_for '^ Refresh: 100 ms ' 5 || fail "- did not stop at 100 ms"
keys q
wait_count 'Result retrieval cancelled' 5 10 || fail "Q did not end the running query"

run "QUIT"
wait_for 'CLIENT-EXITED 0' || fail "QUIT did not end the client with status 0"
exit 0
