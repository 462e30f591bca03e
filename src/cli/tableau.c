/*
 * tableau.c — the SQL client's tableau printers (see tableau.h for the format rules).
 *
 * Contract: owns column-width computation, cell fitting (right alignment, `...` truncation by
 * display width), the streaming and batch tableau views and string tables. Renders values with
 * wfmt_sql and measures them with wdisplay_width (types/format.h). Never calls the session.
 */
#include "tableau.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../types/format.h"
#include "../common/arena.h"

/* ------------------------------------------------------------------ widths of text */

/* Byte length of the UTF-8 sequence starting at p (1 for invalid bytes). */
static int u8_seq_len(const unsigned char *p)
{
    unsigned char c = p[0];
    int n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 1;
    return n;
}

int wtab_display_width(const char *s)
{
    return s ? wdisplay_width(s, (int)strlen(s)) : 0;
}

int wtab_utf16_len(const char *s)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)s; p && *p;) {
        int l = u8_seq_len(p);
        n += l == 4 ? 2 : 1;
        p += l;
    }
    return n;
}

/* ------------------------------------------------------------------ column widths */

static int timestamp_width(int precision)
{
    if (precision == 0) return 19;          /* yyyy-MM-dd HH:mm:ss */
    if (precision <= 3) return 23;
    if (precision <= 6) return 26;
    return 29;
}

int wtab_type_width(const WType *t, int max_width)
{
    switch (t->id) {
    case WT_TINYINT: return 4;              /* precision + 1 for the sign */
    case WT_SMALLINT: return 6;
    case WT_INT: return 11;
    case WT_BIGINT: return 20;
    case WT_DECIMAL: return t->precision + 2;   /* sign and decimal point */
    case WT_BOOLEAN: return 5;
    case WT_DATE: return 10;
    case WT_TIME: return t->precision == 0 ? 8 : t->precision + 9;
    case WT_TIMESTAMP:
    case WT_TIMESTAMP_LTZ: return timestamp_width(t->precision);
    default: return max_width;
    }
}

void wtab_widths_by_type(int ncols, const char *const *names, const WType *const *types,
                         int max_width, bool null_as_empty, bool row_kind, int *out)
{
    int off = row_kind ? 1 : 0;
    if (row_kind) out[0] = (int)strlen(WTAB_OP_COLUMN);
    for (int i = 0; i < ncols; i++) {
        int w = wtab_utf16_len(names[i]);
        int len = wtab_type_width(types[i], max_width);
        if (!null_as_empty && len < (int)strlen(WTAB_NULL)) len = (int)strlen(WTAB_NULL);
        out[off + i] = w > len ? w : len;
    }
}

void wtab_widths_by_content(int ncols, const char *const *names, int nrows,
                            const char *const *cells, int max_width, int *out)
{
    for (int i = 0; i < ncols; i++) out[i] = wtab_utf16_len(names[i]);
    for (int r = 0; r < nrows; r++)
        for (int i = 0; i < ncols; i++) {
            int w = wtab_display_width(cells[(size_t)r * (size_t)ncols + (size_t)i]);
            if (w > out[i]) out[i] = w;
        }
    for (int i = 0; i < ncols; i++)
        if (out[i] > max_width) out[i] = max_width;
}

/* ------------------------------------------------------------------ lines */

void wtab_border(FILE *out, int ncols, const int *widths)
{
    WStrBuf sb;
    wsb_init(&sb);
    wsb_putc(&sb, '+');
    for (int i = 0; i < ncols; i++) {
        wsb_repeat(&sb, '-', (size_t)widths[i] + 2);
        wsb_putc(&sb, '+');
    }
    wsb_putc(&sb, '\n');
    fwrite(sb.buf, 1, sb.len, out);
    wsb_free(&sb);
}

void wtab_fit(WStrBuf *sb, const char *cell, int width)
{
    if (!cell) cell = "";
    int dw = wtab_display_width(cell);
    if (dw <= width) {
        wsb_repeat(sb, ' ', (size_t)(width - dw));
        wsb_append(sb, cell);
        return;
    }
    /* Keep whole code points while they fit into width - 3 columns (Flink truncateString). */
    int target = width - 3, passed = 0;
    const unsigned char *p = (const unsigned char *)cell;
    while (*p) {
        int l = u8_seq_len(p);
        int w = wdisplay_width((const char *)p, l);
        if (passed + w > target) break;
        passed += w;
        p += l;
    }
    if (target > passed) wsb_repeat(sb, ' ', (size_t)(target - passed));
    wsb_appendn(sb, cell, (size_t)((const char *)p - cell));
    wsb_append(sb, "...");
}

void wtab_row(FILE *out, int ncols, const int *widths, const char *const *cells)
{
    WStrBuf sb;
    wsb_init(&sb);
    wsb_putc(&sb, '|');
    for (int i = 0; i < ncols; i++) {
        wsb_putc(&sb, ' ');
        wtab_fit(&sb, cells[i], widths[i]);
        wsb_append(&sb, " |");
    }
    wsb_putc(&sb, '\n');
    fwrite(sb.buf, 1, sb.len, out);
    wsb_free(&sb);
}

const char *wtab_row_term(long long n) { return n > 1 ? "rows" : "row"; }

void wtab_render_cell(const WChunk *c, int col, int row, const WTimeZone *tz, WStrBuf *out)
{
    const WVector *v = &c->cols[col];
    if (v->nulls && v->nulls[row]) {
        wsb_append(out, WTAB_NULL);
        return;
    }
    wfmt_sql(c->types[col], v->data[row], false, tz, out);
}

/* ------------------------------------------------------------------ streaming */

void wtab_stream_begin(WTabStream *st, FILE *out, int ncols, const char *const *names,
                       const WType *const *types, int max_width, const WTimeZone *tz)
{
    memset(st, 0, sizeof *st);
    st->out = out;
    st->ncols = ncols;
    st->tz = tz;
    st->widths = wcalloc((size_t)ncols + 1, sizeof(int));
    wtab_widths_by_type(ncols, names, types, max_width > 0 ? max_width : WTAB_DEFAULT_MAX_WIDTH,
                        false, true, st->widths);

    const char **hdr = wcalloc((size_t)ncols + 1, sizeof(char *));
    hdr[0] = WTAB_OP_COLUMN;
    for (int i = 0; i < ncols; i++) hdr[i + 1] = names[i];
    wtab_border(out, ncols + 1, st->widths);
    wtab_row(out, ncols + 1, st->widths, hdr);
    wtab_border(out, ncols + 1, st->widths);
    fflush(out);
    free(hdr);
    st->header_printed = true;
}

void wtab_stream_chunk(WTabStream *st, const WChunk *c)
{
    int n = st->ncols + 1;
    WStrBuf *bufs = wcalloc((size_t)n, sizeof(WStrBuf));
    const char **cells = wcalloc((size_t)n, sizeof(char *));
    for (int i = 0; i < n; i++) wsb_init(&bufs[i]);
    for (int r = 0; r < c->nrows; r++) {
        for (int i = 0; i < n; i++) wsb_clear(&bufs[i]);
        wsb_append(&bufs[0], wrowkind_short((WRowKind)c->kinds[r]));
        for (int col = 0; col < st->ncols && col < c->ncols; col++)
            wtab_render_cell(c, col, r, st->tz, &bufs[col + 1]);
        for (int i = 0; i < n; i++) cells[i] = bufs[i].buf ? bufs[i].buf : "";
        wtab_row(st->out, n, st->widths, cells);
        st->rows++;
    }
    for (int i = 0; i < n; i++) wsb_free(&bufs[i]);
    free(bufs);
    free(cells);
    fflush(st->out);
}

void wtab_stream_end(WTabStream *st, const char *suffix)
{
    if (st->rows > 0) wtab_border(st->out, st->ncols + 1, st->widths);
    fprintf(st->out, "Received a total of %lld %s%s\n", st->rows, wtab_row_term(st->rows),
            suffix ? suffix : "");
    fflush(st->out);
}

void wtab_stream_terminated(WTabStream *st, const char *suffix)
{
    fprintf(st->out, "Query terminated, received a total of %lld %s%s\n", st->rows,
            wtab_row_term(st->rows), suffix ? suffix : "");
    fflush(st->out);
}

void wtab_stream_free(WTabStream *st)
{
    free(st->widths);
    st->widths = NULL;
}

/* ------------------------------------------------------------------ batch */

void wtab_batch_begin(WTabBatch *b, int ncols, const char *const *names, const WTimeZone *tz)
{
    memset(b, 0, sizeof *b);
    b->ncols = ncols;
    b->tz = tz;
    b->names = wcalloc((size_t)(ncols > 0 ? ncols : 1), sizeof(char *));
    for (int i = 0; i < ncols; i++) b->names[i] = wstrdup(names[i]);
}

void wtab_batch_chunk(WTabBatch *b, const WChunk *c)
{
    WStrBuf sb;
    wsb_init(&sb);
    for (int r = 0; r < c->nrows; r++) {
        if (b->nrows == b->cap) {
            b->cap = b->cap ? b->cap * 2 : 64;
            b->cells = wrealloc(b->cells, sizeof(char *) * ((size_t)b->cap * (size_t)b->ncols + 1));
        }
        char **row = b->cells + (size_t)b->nrows * (size_t)b->ncols;
        for (int col = 0; col < b->ncols; col++) {
            wsb_clear(&sb);
            if (col < c->ncols) wtab_render_cell(c, col, r, b->tz, &sb);
            row[col] = wstrdup(sb.buf ? sb.buf : "");
        }
        b->nrows++;
    }
    wsb_free(&sb);
}

void wtab_batch_print(WTabBatch *b, FILE *out, int max_width, const char *suffix)
{
    if (b->nrows > INT_MAX) b->nrows = INT_MAX;     /* cannot happen in practice */
    wtab_print_strings(out, b->ncols, (const char *const *)b->names, (int)b->nrows,
                       (const char *const *)b->cells,
                       max_width > 0 ? max_width : WTAB_DEFAULT_MAX_WIDTH, false, true, suffix);
}

void wtab_batch_free(WTabBatch *b)
{
    for (long long i = 0; i < b->nrows * b->ncols; i++) free(b->cells[i]);
    free(b->cells);
    for (int i = 0; i < b->ncols; i++) free(b->names[i]);
    free(b->names);
    memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------------ string tables */

void wtab_print_strings(FILE *out, int ncols, const char *const *names, int nrows,
                        const char *const *cells, int max_width, bool null_as_empty,
                        bool empty_as_empty_set, const char *suffix)
{
    if (!suffix) suffix = "";
    if (nrows == 0 && empty_as_empty_set) {
        fprintf(out, "Empty set%s\n", suffix);
        fflush(out);
        return;
    }
    size_t total = (size_t)nrows * (size_t)ncols;
    const char **shown = wcalloc(total + 1, sizeof(char *));
    for (size_t i = 0; i < total; i++)
        shown[i] = cells[i] ? cells[i] : null_as_empty ? "" : WTAB_NULL;
    int *widths = wcalloc((size_t)ncols + 1, sizeof(int));
    wtab_widths_by_content(ncols, names, nrows, shown, max_width, widths);

    wtab_border(out, ncols, widths);
    wtab_row(out, ncols, widths, names);
    wtab_border(out, ncols, widths);
    for (int r = 0; r < nrows; r++) wtab_row(out, ncols, widths, shown + (size_t)r * (size_t)ncols);
    wtab_border(out, ncols, widths);
    fprintf(out, "%d %s in set%s\n", nrows, wtab_row_term(nrows), suffix);
    fflush(out);
    free(widths);
    free(shown);
}
