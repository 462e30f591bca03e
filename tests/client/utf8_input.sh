#!/usr/bin/env bash
# utf8_input.sh — UTF-8 typed into the interactive client reaches the parser intact: accents, CJK
# and emoji, with the cursor moved and a character erased by Left/Backspace (one character, even
# when it takes 2 columns or 3 bytes); the line is redrawn at each character's width and the
# tableau result lines up (Flink's widths: CJK 2 columns).
TEST_NAME=utf8_input
source "$(dirname "$0")/lib.sh"
client_start 100 30

type_text "SET 'sql-client.execution.result-mode' = 'tableau';"
keys Enter
wait_for 'Execute statement succeeded' || fail "SET did not run"

# typed with an extra 本, then 6 x Left (to after 本本) and Backspace: one 本 goes
type_text "SELECT 'héllo 日本本' AS s, '😀' AS e"
keys Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left BSpace End
type_text ";"
wait_for "SELECT 'héllo 日本' AS s, '😀' AS e;" 5 || fail "the edited line is not shown as typed"
# the cursor sits at the end of the line: its column counts CJK and emoji as 2 (11 + 36)
col="$(tm display-message -p -t t '#{cursor_x}')"
[[ "$col" == 47 ]] || fail "cursor at column $col after the typed line, expected 47"
keys Enter
wait_for 'Received a total of 1 row' || fail "the query did not run"
expect_line "Flink SQL> SELECT 'héllo 日本' AS s, '😀' AS e;"
expect_line "| +I |                     héllo 日本 |                            😀 |"

type_text "QUIT;"
keys Enter
wait_for 'CLIENT-EXITED 0' || fail "QUIT did not end the client with status 0"
exit 0
