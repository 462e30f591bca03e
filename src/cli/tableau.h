/*
 * tableau.h — the SQL client's tableau printers (private to src/cli), exactly as Flink's
 * TableauStyle / CliTableauResultView print them.
 *
 * Contract:
 *  - Streaming (WTabStream): column widths come from the types before any row arrives
 *    (`op` column first, width 2); each row is printed as it arrives and the stream is flushed per
 *    chunk; at the end a closing border only if rows were received, then
 *    `Received a total of N rows` (`row` when N <= 1). Ctrl-C: `Query terminated, received a total
 *    of N rows` without a closing border.
 *  - Batch (WTabBatch): rows are rendered to strings and kept until the end; widths come from the
 *    content (capped at the max column width); footer `N rows in set` / `1 row in set`, or
 *    `Empty set` with no table at all.
 *  - String tables (wtab_print_strings): SHOW / DESCRIBE results, widths from the content.
 *  - Cells: NULL is `<NULL>` (or empty where Flink prints nulls as empty); values are rendered
 *    with wfmt_sql (CAST-to-STRING semantics); right-aligned; too wide values are cut to
 *    width-3 display columns, left-padded, plus `...`. Display width counts East-Asian wide and
 *    fullwidth code points twice (wdisplay_width).
 * Depends on types/ (format, chunk) and common/. Never on the session.
 */
#ifndef WEIR_CLI_TABLEAU_H
#define WEIR_CLI_TABLEAU_H

#include <stdbool.h>
#include <stdio.h>
#include "../types/type.h"
#include "../types/chunk.h"
#include "../types/datetime.h"
#include "../common/strbuf.h"

#define WTAB_DEFAULT_MAX_WIDTH 30
#define WTAB_NULL "<NULL>"
#define WTAB_OP_COLUMN "op"

/* Display width of a NUL-terminated UTF-8 string as Flink's tableau counts it. */
int wtab_display_width(const char *s);
/* Number of UTF-16 code units of a UTF-8 string (Java's String.length()). */
int wtab_utf16_len(const char *s);

/* Width a column of type t needs before looking at its name or NULLs (Flink columnWidthsByType). */
int wtab_type_width(const WType *t, int max_width);
/* Widths from the types. With row_kind, out[0] is the `op` column (2) and out[1..ncols] the
   columns; out must hold ncols (+1) entries. */
void wtab_widths_by_type(int ncols, const char *const *names, const WType *const *types,
                         int max_width, bool null_as_empty, bool row_kind, int *out);
/* Widths from content: max of the name length and each cell's display width, capped at
   max_width. cells is nrows x ncols, row-major; NULL cells count as empty. */
void wtab_widths_by_content(int ncols, const char *const *names, int nrows,
                            const char *const *cells, int max_width, int *out);

/* `+----+-----+` line for the widths. */
void wtab_border(FILE *out, int ncols, const int *widths);
/* `| a | b |` line: right-aligned, truncated with `...`. NULL cells print as empty. */
void wtab_row(FILE *out, int ncols, const int *widths, const char *const *cells);
/* Append the cell text (right-aligned or truncated to `width`) to sb. */
void wtab_fit(WStrBuf *sb, const char *cell, int width);

/* Render row `row`, column `col` of c as the tableau shows it ("<NULL>" for NULL). */
void wtab_render_cell(const WChunk *c, int col, int row, const WTimeZone *tz, WStrBuf *out);

/* `Received a total of N rows` style helpers. */
const char *wtab_row_term(long long n);

/* ---- streaming tableau ---- */
typedef struct WTabStream {
    FILE *out;
    int ncols;                  /* data columns (without op) */
    int *widths;                /* ncols + 1 (op first) */
    long long rows;
    const WTimeZone *tz;
    bool header_printed;
} WTabStream;

void wtab_stream_begin(WTabStream *st, FILE *out, int ncols, const char *const *names,
                       const WType *const *types, int max_width, const WTimeZone *tz);
void wtab_stream_chunk(WTabStream *st, const WChunk *c);
/* End of stream: closing border when rows were received, then the footer (+ suffix, e.g. a
   time cost " (0.12 seconds)", or "" / NULL). */
void wtab_stream_end(WTabStream *st, const char *suffix);
/* Cancelled by Ctrl-C. */
void wtab_stream_terminated(WTabStream *st, const char *suffix);
void wtab_stream_free(WTabStream *st);

/* ---- batch tableau ---- */
typedef struct WTabBatch {
    int ncols;
    char **names;               /* heap copies */
    char **cells;               /* nrows * ncols heap strings */
    long long nrows, cap;
    const WTimeZone *tz;
} WTabBatch;

void wtab_batch_begin(WTabBatch *b, int ncols, const char *const *names, const WTimeZone *tz);
void wtab_batch_chunk(WTabBatch *b, const WChunk *c);
/* Print everything collected: a content-width table and `N rows in set`, or `Empty set`. */
void wtab_batch_print(WTabBatch *b, FILE *out, int max_width, const char *suffix);
void wtab_batch_free(WTabBatch *b);

/* A table of strings (SHOW/DESCRIBE): content widths capped at max_width (Flink uses no cap:
   pass INT_MAX), NULL cells print as empty when null_as_empty, else `<NULL>`. With 0 rows prints
   `Empty set` when empty_as_empty_set, else the header box and `0 row in set`. */
void wtab_print_strings(FILE *out, int ncols, const char *const *names, int nrows,
                        const char *const *cells, int max_width, bool null_as_empty,
                        bool empty_as_empty_set, const char *suffix);

#endif
