/*
 * result_view.h — the interactive client's full-screen result views (private to src/cli), as
 * Flink's CliTableResultView and CliChangelogResultView show a query result in the result modes
 * `table` and `changelog`.
 *
 * Contract: wrv_open takes the terminal (alternate screen, no echo, no line buffering; Ctrl-C
 * still raises SIGINT) and draws, at the terminal's size:
 *   line 1   the title `SQL Query Result (Table)` / `(Changelog)`, centred, inverse;
 *   line 2   the status, inverse: ` Refresh: <interval>` while the query runs, ` Table program
 *            finished.` after it; `Page: Last of N` in the middle (table view only); `Updated:
 *            HH:mm:ss.SSS ` (`Unknown` before the first refresh) on the right; line 3 empty;
 *   line 4   the column names (changelog: `op` first), each after a space, right-aligned to the
 *            column's width (the tableau widths by type, table.display.max-column-width), underlined;
 *   then     one page of rows (table: the materialized result, +I/+U append, -U/-D remove the last
 *            equal row; changelog: every change with its kind, the newest 1000), a selected row
 *            inverse; cells as Flink's normalizeColumn: right-aligned by UTF-16 length, a longer
 *            value cut to width - 1 units and `~`;
 *   bottom   two lines of key help (Flink's formatTwoLineHelpOptions): Q Quit, R Refresh,
 *            + Inc Refresh, - Dec Refresh, table: G Goto Page, L Last Page, N Next Page,
 *            P Prev Page; O Open Row.
 * Keys: q Q Esc quit; r R refresh; + / - refresh interval (Fastest, 100 ms, 500 ms, 1 s, 5 s,
 * 10 s, 1 min, -; table starts at 1 s and goes down to 100 ms, changelog starts at Fastest);
 * table: n N p P l L g G (`Enter page number: [1 to N]` typed on the bottom line, Enter/Esc); w s / up down select
 * a row, o O Enter open it (Flink's CliRowView: `Row Summary`, a bold `name (TYPE):` line, the value
 * and an empty line per column, `Press Q to go back.`; q Q Esc return); a d /
 * left right scroll by one column (lines are cut at the screen's edge).
 * The screen is redrawn when rows arrive and the interval has passed, on keys, and when the query
 * ends; after the end the view waits for keys until quit. wrv_close restores the terminal and
 * prints `[INFO] Result retrieval cancelled.` as Flink does when the view is left.
 * Depends on cli/tableau (widths, cell rendering), cli/messages, types/.
 */
#ifndef WEIR_CLI_RESULT_VIEW_H
#define WEIR_CLI_RESULT_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include "../types/type.h"
#include "../types/chunk.h"
#include "../types/datetime.h"

typedef struct WResultView WResultView;

/* in_fd: the terminal's input; out: its output. changelog selects the changelog view. */
WResultView *wrv_open(int in_fd, FILE *out, bool changelog, int ncols, const char *const *names,
                      const WType *const *types, int max_width, const WTimeZone *tz);
/* Add a chunk of changes; handles pending keys and redraws when due. Returns false once the user
   left the view (the query should be cancelled). */
bool wrv_rows(WResultView *v, const WChunk *c);
/* Handle pending keys without new rows (e.g. while waiting); false once the user left. */
bool wrv_poll(WResultView *v);
/* The query ended (ok = false: it failed). When ok and the user has not left yet, shows the final
   result and waits for keys until the user quits or interrupted() (Ctrl-C) returns true. */
void wrv_finish(WResultView *v, bool ok, bool (*interrupted)(void));
/* Restore the terminal; with announce, print Flink's `Result retrieval cancelled.` line. */
void wrv_close(WResultView *v, bool announce);

#endif
