/*
 * csv_reader.c — the fast CSV row parser (see csv_reader.h for the contract).
 *
 * One file is read through a large buffer (refilled with read(2), never per row); rows are parsed
 * in place: an SSE2 scan finds the end of each unquoted field, typed fast paths (INT/BIGINT,
 * DOUBLE, DECIMAL, TIMESTAMP, strings) write straight into the chunk's vectors, and anything
 * unusual falls back to wcsv_convert (format_csv.c), which carries Flink's exact semantics and
 * messages. Unquoted and simply-quoted strings point into the buffer; values that need unescaping
 * are copied into the chunk arena. The buffer only moves at the start of a fill call, so strings
 * handed out stay valid until the next call. Depends on types/, common/.
 */
#include "csv_reader.h"
#include "conn_internal.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BUF_INIT   (8u << 20)      /* 8 MiB read buffer */
#define BUF_PAD    64              /* zeroed bytes after the data: SIMD over-read + sentinel */
#define REFILL_LOW (1u << 20)      /* refill at call start when less than this is buffered */

enum { FK_GEN = 0, FK_STR, FK_INT, FK_DOUBLE, FK_DEC, FK_TS, FK_SKIP };

/* parse_row results */
enum { PR_ROW = 1, PR_SKIP = 0, PR_ERR = -1, PR_INCOMPLETE = -2 };

struct WCsvReader {
    WCsvConfig cfg;
    int ncols;
    const WType **types;
    uint8_t *fk;
    int64_t *imin, *imax;
    bool int_one_pass;      /* an integer field of digits ending at a separator is read in one pass
                               (no null literal; no delimiter, quote or escape that is a digit or '-') */
    bool int_rows;          /* every column an integer read in one pass, plain 'csv': whole lines
                               of such fields are read by int_rows (no parse_row per line) */
    WCastCtx cast;
    int fd;
    char *path;
    char *buf;
    size_t cap, len, pos;
    int64_t buf_off;        /* file offset of buf[0] */
    int64_t line;           /* line number of the row at pos */
    bool eof;               /* the file has no more bytes to read */
};

WCsvReader *wcsv_reader_new(const WCsvConfig *cfg, int ncols, const WType **types, const WCastCtx *cast)
{
    WCsvReader *r = wcalloc(1, sizeof *r);
    r->cfg = *cfg;
    r->cfg.null_literal = cfg->null_literal ? wstrdup(cfg->null_literal) : NULL;
    r->ncols = ncols;
    r->types = wmalloc(sizeof(WType *) * (size_t)(ncols ? ncols : 1));
    r->fk = wcalloc((size_t)(ncols ? ncols : 1), 1);
    r->imin = wcalloc((size_t)(ncols ? ncols : 1), sizeof(int64_t));
    r->imax = wcalloc((size_t)(ncols ? ncols : 1), sizeof(int64_t));
    for (int i = 0; i < ncols; i++) {
        const WType *t = types[i];
        r->types[i] = t;
        switch (t->id) {
        case WT_CHAR: case WT_VARCHAR: r->fk[i] = FK_STR; break;
        case WT_TINYINT: r->fk[i] = FK_INT; r->imin[i] = -128; r->imax[i] = 127; break;
        case WT_SMALLINT: r->fk[i] = FK_INT; r->imin[i] = -32768; r->imax[i] = 32767; break;
        case WT_INT: case WT_INTERVAL_YM: r->fk[i] = FK_INT; r->imin[i] = INT32_MIN; r->imax[i] = INT32_MAX; break;
        case WT_BIGINT: case WT_INTERVAL_DT: r->fk[i] = FK_INT; r->imin[i] = INT64_MIN; r->imax[i] = INT64_MAX; break;
        case WT_DOUBLE: r->fk[i] = FK_DOUBLE; break;
        case WT_DECIMAL: r->fk[i] = FK_DEC; break;
        case WT_TIMESTAMP: r->fk[i] = FK_TS; break;
        default: r->fk[i] = FK_GEN; break;
        }
    }
    const char *syntax = "-0123456789";
    r->int_one_pass = !r->cfg.null_literal && !strchr(syntax, r->cfg.delim) &&
                      (r->cfg.quote < 0 || !strchr(syntax, r->cfg.quote)) &&
                      (r->cfg.escape < 0 || !strchr(syntax, r->cfg.escape));
    r->int_rows = r->int_one_pass && ncols > 0 && !r->cfg.changelog && !r->cfg.legacy;
    for (int i = 0; i < ncols; i++) r->int_rows &= r->fk[i] == FK_INT;
    if (cast) r->cast = *cast;
    r->fd = -1;
    return r;
}

void wcsv_reader_skip_column(WCsvReader *r, int col)
{
    assert(col >= 0 && col < r->ncols);
    r->fk[col] = FK_SKIP;
}

void wcsv_reader_close(WCsvReader *r)
{
    if (!r) return;
    if (r->fd >= 0) close(r->fd);
    r->fd = -1;
    free(r->path);
    r->path = NULL;
    r->len = r->pos = 0;
}

void wcsv_reader_free(WCsvReader *r)
{
    if (!r) return;
    wcsv_reader_close(r);
    free(r->buf);
    free(r->types);
    free(r->fk);
    free(r->imin);
    free(r->imax);
    wcsv_config_free(&r->cfg);
    free(r);
}

static bool io_error(WCsvReader *r, const char *what, WError *err)
{
    werr_set(err, WEXC_IO, "%s '%s': %s", what, r->path ? r->path : "?", strerror(errno));
    if (err) snprintf(err->file, sizeof err->file, "%s", r->path ? r->path : "");
    return false;
}

/* Move the unread bytes to the front and read more (growing the buffer when it is full). */
static bool refill(WCsvReader *r, WError *err)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->buf_off += (int64_t)r->pos;
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len == r->cap) {
        r->cap = r->cap ? r->cap * 2 : BUF_INIT;
        r->buf = wrealloc(r->buf, r->cap + BUF_PAD);
    }
    while (r->len < r->cap && !r->eof) {
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return io_error(r, "Failed to read", err);
        }
        if (n == 0) { r->eof = true; break; }
        r->len += (size_t)n;
    }
    memset(r->buf + r->len, 0, BUF_PAD);
    return true;
}

bool wcsv_reader_open(WCsvReader *r, const char *path, int64_t offset, int64_t line, WError *err)
{
    wcsv_reader_close(r);
    r->path = wstrdup(path);
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0) return io_error(r, "Failed to open file", err);
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    if (offset > 0 && lseek(r->fd, (off_t)offset, SEEK_SET) < 0) return io_error(r, "Failed to seek in", err);
    if (!r->buf) {
        r->cap = BUF_INIT;
        r->buf = wmalloc(r->cap + BUF_PAD);
    }
    r->buf_off = offset;
    r->len = r->pos = 0;
    r->eof = false;
    r->line = line > 0 ? line : 1;
    if (!refill(r, err)) return false;
    if (offset == 0 && r->len >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0) r->pos = 3;
    return true;
}

void wcsv_reader_position(const WCsvReader *r, int64_t *offset, int64_t *line)
{
    *offset = r->buf_off + (int64_t)r->pos;
    *line = r->line;
}

/* ------------------------------------------------------------------------------------------ */

/* First byte at or after p that is the delimiter, a line break or the escape character. */
static inline const char *scan_unquoted(const WCsvReader *r, const char *p, const char *end)
{
#if defined(__SSE2__)
    const __m128i vd = _mm_set1_epi8(r->cfg.delim);
    const __m128i vn = _mm_set1_epi8('\n');
    const __m128i vr = _mm_set1_epi8('\r');
    const __m128i ve = _mm_set1_epi8(r->cfg.escape >= 0 ? (char)r->cfg.escape : '\n');
    while (p < end) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, vd), _mm_cmpeq_epi8(x, vn)),
                                 _mm_or_si128(_mm_cmpeq_epi8(x, vr), _mm_cmpeq_epi8(x, ve)));
        unsigned mask = (unsigned)_mm_movemask_epi8(m);
        if (mask) {
            const char *f = p + __builtin_ctz(mask);
            return f < end ? f : end;
        }
        p += 16;
    }
    return end;
#else
    const char d = r->cfg.delim;
    const int e = r->cfg.escape;
    while (p < end && *p != d && *p != '\n' && *p != '\r' && (e < 0 || *p != (char)e)) p++;
    return p;
#endif
}

static const double P10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Exact fast paths; return 2 when the text needs the general converter. */
static inline int fast_int(const char *s, int len, int64_t lo, int64_t hi, WDatum *out)
{
    int i = 0;
    bool neg = false;
    if (len > 0 && *s == '-') { neg = true; i = 1; }
    if (len - i < 1 || len - i > 18) return 2;
    int64_t v = 0;
    for (; i < len; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9) return 2;
        v = v * 10 + d;
    }
    if (neg) v = -v;
    if (v < lo || v > hi) return 2;
    out->i = v;
    return 1;
}

static inline int fast_double(const char *s, int len, WDatum *out)
{
    int i = 0;
    bool neg = false;
    if (len > 0 && *s == '-') { neg = true; i = 1; }
    uint64_t m = 0;
    int nd = 0, exp = 0, digits = 0;
    for (; i < len && (unsigned)(s[i] - '0') < 10; i++, digits++) {
        if (nd >= 19) return 2;
        m = m * 10 + (uint64_t)(s[i] - '0');
        if (m) nd++;
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && (unsigned)(s[i] - '0') < 10; i++, digits++) {
            if (nd >= 19) return 2;
            m = m * 10 + (uint64_t)(s[i] - '0');
            if (m) nd++;
            exp--;
        }
    }
    if (i != len || digits == 0 || m > (1ULL << 53) || exp < -22) return 2;
    double v = (double)m;
    v = exp < 0 ? v / P10[-exp] : v;
    out->d = neg ? -v : v;
    return 1;
}

static inline int fast_decimal(const WType *t, const char *s, int len, WDatum *out)
{
    int i = 0;
    bool neg = false;
    if (len > 0 && *s == '-') { neg = true; i = 1; }
    int64_t v = 0;
    int nd = 0, frac = 0, digits = 0;
    for (; i < len && (unsigned)(s[i] - '0') < 10; i++, digits++) {
        if (nd >= 18) return 2;
        v = v * 10 + (s[i] - '0');
        if (v) nd++;
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && (unsigned)(s[i] - '0') < 10; i++, digits++) {
            if (nd >= 18) return 2;
            v = v * 10 + (s[i] - '0');
            if (v) nd++;
            frac++;
        }
    }
    if (i != len || digits == 0 || frac > t->scale) return 2;
    __int128 u = (__int128)v * wpow10_i128(t->scale - frac);
    if (u >= wpow10_i128(t->precision)) return 0;      /* precision overflow -> NULL (Flink) */
    out->dec = neg ? -u : u;
    return 1;
}


static inline int d2(const char *p)
{
    unsigned a = (unsigned)(p[0] - '0'), b = (unsigned)(p[1] - '0');
    return a > 9 || b > 9 ? -1 : (int)(a * 10 + b);
}

/* "yyyy-MM-dd HH:mm:ss" or with ".SSS": the common TIMESTAMP text, checked field by field. */
static inline int fast_timestamp(const char *s, int len, WTimestamp *out)
{
    if ((len != 19 && len != 23) || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':')
        return 2;
    int y1 = d2(s), y2 = d2(s + 2), m = d2(s + 5), d = d2(s + 8), hh = d2(s + 11), mi = d2(s + 14), ss = d2(s + 17);
    if ((y1 | y2 | m | d | hh | mi | ss) < 0 || m < 1 || m > 12 || d < 1 || hh > 23 || mi > 59 || ss > 59) return 2;
    int y = y1 * 100 + y2;
    if (d > 28 && d > wconn_month_len(y, m)) return 2;
    int ms = 0;
    if (len == 23) {
        int a = d2(s + 20);
        unsigned b = (unsigned)(s[22] - '0');
        if (s[19] != '.' || a < 0 || b > 9) return 2;
        ms = a * 10 + (int)b;
    }
    out->ms = (wconn_days_from_civil(y, m, d) * 86400 + hh * 3600 + mi * 60 + ss) * 1000LL + ms;
    out->ns = 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */

static bool row_error(WCsvReader *r, const char *row_start, const char *end, int64_t line, int column,
                      const char *cause, WError *err)
{
    const char *e = row_start;
    while (e < end && *e != '\n' && *e != '\r' && e - row_start < 200) e++;
    bool cut = e < end && *e != '\n' && *e != '\r';
    werr_set(err, WEXC_IO, "Failed to deserialize CSV row '%.*s%s' at %s:%lld, column %d: %s",
             (int)(e - row_start), row_start, cut ? "..." : "", r->path, (long long)line, column, cause);
    if (err) {
        snprintf(err->file, sizeof err->file, "%s", r->path);
        err->file_line = (long)line;
    }
    return false;
}

/* Extract one field at *pp. Sets text/len (unescaped; copied into the arena when needed) and
   *quoted. Returns PR_ROW on success, PR_INCOMPLETE, or PR_ERR with cause in eb. */
__attribute__((noinline))
static int get_field(WCsvReader *r, const char **pp, const char *end, WArena *a, const char **text,
                     int *len, bool *quoted, int64_t *lines, char *eb, size_t esz)
{
    const char *p = *pp;
    const int quote = r->cfg.quote, esc = r->cfg.escape;
    if (quote >= 0 && p < end && *p == (char)quote) {
        const char *s = p + 1, *q = s;
        bool copy = false;
        for (;;) {
            const char *qq;
            if (esc < 0) {
                qq = memchr(q, quote, (size_t)(end - q));
            } else {
                qq = q;
                while (qq < end && *qq != (char)quote && *qq != (char)esc) qq++;
                if (qq < end && *qq == (char)esc) {
                    if (qq + 1 >= end) { if (!r->eof) return PR_INCOMPLETE; qq = NULL; break; }
                    copy = true;
                    q = qq + 2;
                    continue;
                }
                if (qq == end) qq = NULL;
            }
            if (!qq) break;
            if (qq + 1 < end && qq[1] == (char)quote) { copy = true; q = qq + 2; continue; }
            if (qq + 1 == end && !r->eof) return PR_INCOMPLETE;
            q = qq;
            break;
        }
        if (q >= end || *q != (char)quote) {
            if (!r->eof) return PR_INCOMPLETE;
            snprintf(eb, esz, "Missing closing quote for value");
            return PR_ERR;
        }
        /* count line breaks inside the quoted value */
        for (const char *n = s; (n = memchr(n, '\n', (size_t)(q - n))) != NULL; n++) (*lines)++;
        if (!copy) {
            *text = s;
            *len = (int)(q - s);
        } else {
            char *o = wa_alloc(a, (size_t)(q - s) + 1);
            int k = 0;
            for (const char *c = s; c < q; c++) {
                if (*c == (char)quote && c + 1 < q && c[1] == (char)quote) { o[k++] = *c; c++; }
                else if (esc >= 0 && *c == (char)esc && c + 1 < q) {
                    c++;
                    switch (*c) {
                    case '0': o[k++] = '\0'; break;
                    case 'n': o[k++] = '\n'; break;
                    case 'r': o[k++] = '\r'; break;
                    case 't': o[k++] = '\t'; break;
                    default: o[k++] = *c; break;
                    }
                } else o[k++] = *c;
            }
            *text = o;
            *len = k;
        }
        p = q + 1;
        if (p < end && *p != r->cfg.delim && *p != '\n' && *p != '\r') {
            unsigned char c = (unsigned char)*p;
            snprintf(eb, esz, "Unexpected character ('%c' (code %d)): Expected column separator character ('%c' (code %d)) or end-of-line",
                     c >= 32 && c < 127 ? c : '?', c, r->cfg.delim, (unsigned char)r->cfg.delim);
            return PR_ERR;
        }
        *pp = p;
        *quoted = true;
        return PR_ROW;
    }
    const char *e = scan_unquoted(r, p, end);
    if (esc >= 0 && e < end && *e == (char)esc) {
        /* escapes in an unquoted value: copy while unescaping */
        char *o = NULL;
        int k = 0;
        const char *c = p;
        size_t cap = 64;
        o = wa_alloc(a, cap);
        while (c < end && *c != r->cfg.delim && *c != '\n' && *c != '\r') {
            char ch = *c++;
            if (ch == (char)esc) {
                if (c >= end) { if (!r->eof) return PR_INCOMPLETE; break; }
                ch = *c++;
                switch (ch) { case '0': ch = '\0'; break; case 'n': ch = '\n'; break;
                              case 'r': ch = '\r'; break; case 't': ch = '\t'; break; default: break; }
            }
            if ((size_t)k + 1 >= cap) {
                char *n = wa_alloc(a, cap * 2);
                memcpy(n, o, (size_t)k);
                o = n;
                cap *= 2;
            }
            o[k++] = ch;
        }
        *text = o;
        *len = k;
        *pp = c;
    } else {
        *text = p;
        *len = (int)(e - p);
        *pp = e;
    }
    *quoted = false;
    return PR_ROW;
}

/* Skip the remaining fields of a row (after too many columns); *pp ends at the line break. */
static int skip_rest(WCsvReader *r, const char **pp, const char *end, WArena *a, int64_t *lines)
{
    char eb[64];
    for (;;) {
        const char *t;
        int len;
        bool q;
        int rc = get_field(r, pp, end, a, &t, &len, &q, lines, eb, sizeof eb);
        if (rc == PR_INCOMPLETE) return rc;
        if (rc == PR_ERR) {           /* junk: skip to the end of the line */
            const char *p = *pp;
            while (p < end && *p != '\n' && *p != '\r') p++;
            if (p == end && !r->eof) return PR_INCOMPLETE;
            *pp = p;
            return PR_ROW;
        }
        if (*pp < end && **pp == r->cfg.delim) { (*pp)++; continue; }
        if (*pp == end && !r->eof) return PR_INCOMPLETE;
        return PR_ROW;
    }
}

/* Consume the line break at *pp (if any). PR_INCOMPLETE when a '\r' ends the buffer. */
static inline int eat_eol(WCsvReader *r, const char **pp, const char *end)
{
    const char *p = *pp;
    if (p < end) {
        if (*p == '\n') p++;
        else if (*p == '\r') {
            p++;
            if (p < end) { if (*p == '\n') p++; }
            else if (!r->eof) return PR_INCOMPLETE;
        }
    }
    *pp = p;
    return PR_ROW;
}

/* Skip to and past the end of the current line (bad rows under ignore-parse-errors). */
static int skip_line(WCsvReader *r, const char **pp, const char *end)
{
    const char *p = *pp;
    while (p < end && *p != '\n' && *p != '\r') p++;
    if (p == end && !r->eof) return PR_INCOMPLETE;
    *pp = p;
    return eat_eol(r, pp, end);
}

static int parse_row(WCsvReader *r, WChunk *out, int64_t *skipped, WError *err)
{
    const char *const base = r->buf;
    const char *p = base + r->pos;
    const char *const end = base + r->len;
    const char *const row_start = p;
    const int ncols = r->ncols;
    const char delim = r->cfg.delim;
    const int quote = r->cfg.quote, esc = r->cfg.escape;
    WArena *a = out->arena;
    int64_t lines = 0;
    char eb[512];

    char c0 = *p;
    if (c0 == '\n' || c0 == '\r') {              /* empty line */
        if (eat_eol(r, &p, end) == PR_INCOMPLETE) return PR_INCOMPLETE;
        r->pos = (size_t)(p - base);
        r->line++;
        return PR_SKIP;
    }
    if (c0 == '#' && r->cfg.allow_comments) {
        if (skip_line(r, &p, end) == PR_INCOMPLETE) return PR_INCOMPLETE;
        r->pos = (size_t)(p - base);
        r->line++;
        return PR_SKIP;
    }

    const int row = out->nrows;
    WRowKind kind = WRK_INSERT;
    int field = 0;          /* 1-based CSV field number of the field being parsed */
    const char *text;
    int len;
    bool quoted;
    int rc;

    if (r->cfg.changelog) {
        field = 1;
        rc = get_field(r, &p, end, a, &text, &len, &quoted, &lines, eb, sizeof eb);
        if (rc == PR_INCOMPLETE) return rc;
        if (rc == PR_ERR) goto row_failed;
        if (!wrowkind_parse(text, len, &kind)) {
            snprintf(eb, sizeof eb, "Unknown row kind '%.*s' (expected +I, -U, +U, -D)", len > 50 ? 50 : len, text);
            goto row_failed;
        }
        if (p < end && *p == delim) p++;
        else if (p == end && !r->eof) return PR_INCOMPLETE;
        else if (ncols > 0) goto too_few;
    }

    for (int c = 0; c < ncols; c++) {
        field++;
        WVector *vec = &out->cols[c];
        if (r->fk[c] == FK_INT && r->int_one_pass && p < end) {
            /* [-]d{1,18} followed by a separator or line break: the value as fast_int reads it,
               without finding the field's end first; anything else takes the general path */
            const char *q = p + (*p == '-');
            int64_t v;
            int nd = wconn_read_digits(q, &v);    /* the zeroed padding after the data ends the digits */
            q += nd;
            if (nd >= 1 && nd <= 18 && q < end && (*q == delim || *q == '\n' || *q == '\r')) {
                if (*p == '-') v = -v;
                if (v >= r->imin[c] && v <= r->imax[c]) {
                    vec->data[row].i = v;
                    vec->nulls[row] = 0;
                    p = q;
                    goto field_done;
                }
            }
        }
        if (__builtin_expect(*p != (char)quote || quote < 0, 1)) {
            const char *e = scan_unquoted(r, p, end);
            if (__builtin_expect(esc >= 0 && e < end && *e == (char)esc, 0)) goto slow_field;
            text = p;
            len = (int)(e - p);
            quoted = false;
            p = e;
        } else {
        slow_field:
            rc = get_field(r, &p, end, a, &text, &len, &quoted, &lines, eb, sizeof eb);
            if (rc == PR_INCOMPLETE) return rc;
            if (rc == PR_ERR) goto row_failed;
        }
        if (p == end && !r->eof) return PR_INCOMPLETE;
        /* NULL conventions */
        int res;
        if (!quoted && r->cfg.changelog && len == 4 && memcmp(text, "NULL", 4) == 0) {
            res = 0;
        } else if (r->cfg.null_literal && len == r->cfg.null_literal_len &&
                   (!quoted || r->cfg.null_literal_quoted) &&
                   memcmp(text, r->cfg.null_literal, (size_t)len) == 0) {
            res = 0;
        } else if (r->cfg.legacy && len == 0 && r->fk[c] != FK_STR) {
            res = 0;
        } else {
            WDatum *d = &vec->data[row];
            switch (r->fk[c]) {
            case FK_STR: d->s.p = text; d->s.len = len; res = 1; break;
            case FK_INT: res = len == 0 ? 2 : fast_int(text, len, r->imin[c], r->imax[c], d); break;
            case FK_DOUBLE: res = len == 0 ? 2 : fast_double(text, len, d); break;
            case FK_DEC: res = len == 0 ? 2 : fast_decimal(r->types[c], text, len, d); break;
            case FK_TS: res = len == 0 ? 2 : fast_timestamp(text, len, &d->ts); break;
            case FK_SKIP: res = 0; break;   /* not read by the query: not converted (Flink) */
            default: res = 2; break;
            }
            if (res == 2) {
                if (r->cfg.changelog && quoted && len >= 5 && memcmp(text, "@sql:", 5) == 0 &&
                    !wtype_is_string(r->types[c])) {
                    snprintf(eb, sizeof eb, "composite literal not supported in changelog-csv: %.*s",
                             len > 200 ? 200 : len, text);
                    res = -1;
                } else {
                    res = wcsv_convert(&r->cfg, r->types[c], text, len, d, a, eb, sizeof eb);
                }
                if (res < 0) {
                    if (!r->cfg.ignore_errors) {
                        row_error(r, row_start, end, r->line, field, eb, err);
                        return PR_ERR;
                    }
                    res = 0;   /* csv.ignore-parse-errors: the field is NULL, the row stays (Flink 2.3) */
                }
            }
        }
        vec->nulls[row] = res == 0;
    field_done:     /* what follows the field */
        if (p < end && *p == delim) {
            if (c == ncols - 1 && r->cfg.legacy) {      /* the line's other fields are not read */
                if (skip_line(r, &p, end) == PR_INCOMPLETE) return PR_INCOMPLETE;
                goto commit_eaten;
            }
            if (c == ncols - 1) goto too_many;
            p++;
            continue;
        }
        if (c < ncols - 1) goto too_few;
    }
    if (ncols == 0 && !r->cfg.changelog) {
        /* a table without physical columns: every line is one row */
        if (skip_line(r, &p, end) == PR_INCOMPLETE) return PR_INCOMPLETE;
        goto commit_eaten;
    }
    goto commit;

too_few:
    if (!r->cfg.ignore_errors) {
        snprintf(eb, sizeof eb, "Row length mismatch. %d fields expected but was %d.",
                 ncols + (r->cfg.changelog ? 1 : 0), field);
        row_error(r, row_start, end, r->line, field, eb, err);
        return PR_ERR;
    }
    /* Flink with ignore-parse-errors: missing trailing fields are NULL */
    for (int c = field - (r->cfg.changelog ? 1 : 0); c < ncols; c++) out->cols[c].nulls[row] = 1;
    goto commit;

too_many: {
        const char *x = p + 1;
        const char *t2;
        int l2;
        bool q2;
        int64_t dummy = 0;
        int rc2 = get_field(r, &x, end, a, &t2, &l2, &q2, &dummy, eb, sizeof eb);
        if (rc2 == PR_INCOMPLETE) return rc2;
        if (!r->cfg.ignore_errors) {
            char cause[400];
            snprintf(cause, sizeof cause, "Too many entries: expected at most %d (value #%d (%d chars) \"%.*s\")",
                     ncols + (r->cfg.changelog ? 1 : 0), ncols + (r->cfg.changelog ? 1 : 0),
                     rc2 == PR_ROW ? l2 : 0, rc2 == PR_ROW ? (l2 > 100 ? 100 : l2) : 0, rc2 == PR_ROW ? t2 : "");
            row_error(r, row_start, end, r->line, field + 1, cause, err);
            return PR_ERR;
        }
        p++;
        if (skip_rest(r, &p, end, a, &lines) == PR_INCOMPLETE) return PR_INCOMPLETE;
        if (eat_eol(r, &p, end) == PR_INCOMPLETE) return PR_INCOMPLETE;
        r->pos = (size_t)(p - base);
        r->line += 1 + lines;
        (*skipped)++;
        return PR_SKIP;
    }

row_failed:
    if (!r->cfg.ignore_errors) {
        row_error(r, row_start, end, r->line, field, eb, err);
        return PR_ERR;
    }
    /* skip the malformed row: from its start, to the end of its (first) line */
    p = row_start;
    lines = 0;
    if (skip_line(r, &p, end) == PR_INCOMPLETE) return PR_INCOMPLETE;
    r->pos = (size_t)(p - base);
    r->line += 1;
    (*skipped)++;
    return PR_SKIP;

commit:
    if (eat_eol(r, &p, end) == PR_INCOMPLETE) return PR_INCOMPLETE;
commit_eaten:
    out->kinds[row] = (uint8_t)kind;
    out->nrows = row + 1;
    r->pos = (size_t)(p - base);
    r->line += 1 + lines;
    return PR_ROW;
}

/* Lines of integer fields only ([-]d{1,18} each, the delimiter between them, '\n' after the last,
   each in its column's range) read in one loop into out's next rows, as parse_row's one-pass
   integers read them; stops at out's capacity or before the first line of any other form (an
   empty or quoted field, '\r', a line the buffer does not end, a value out of range), which
   parse_row then reads or rejects. Returns the lines read. */
static int int_rows(WCsvReader *r, WChunk *out)
{
    const char *const base = r->buf, *const end = base + r->len;
    const char *p = base + r->pos;
    const char delim = r->cfg.delim;
    const int ncols = r->ncols;
    int n0 = out->nrows, row = n0;
    while (row < out->cap) {
        const char *q = p;
        int c = 0;
        for (; c < ncols; c++) {
            const char *d0 = q + (*q == '-');
            int64_t v;
            int nd = wconn_read_digits(d0, &v);     /* the zeroed padding after the data ends them */
            const char *t = d0 + nd;
            if (nd < 1 || nd > 18 || t >= end || *t != (c == ncols - 1 ? '\n' : delim)) break;
            if (*q == '-') v = -v;
            if (v < r->imin[c] || v > r->imax[c]) break;
            out->cols[c].data[row].i = v;
            out->cols[c].nulls[row] = 0;
            q = t + 1;
        }
        if (c < ncols) break;
        out->kinds[row] = WRK_INSERT;
        row++;
        p = q;
    }
    r->line += row - n0;
    r->pos = (size_t)(p - base);
    out->nrows = row;
    return row - n0;
}

WCsvStatus wcsv_reader_fill(WCsvReader *r, WChunk *out, int64_t *skipped, WError *err)
{
    if (r->fd < 0) return WCSV_EOF;
    int64_t dummy = 0;
    if (!skipped) skipped = &dummy;
    if (!r->eof && r->len - r->pos < REFILL_LOW && !refill(r, err)) return WCSV_ERROR;
    const int start_rows = out->nrows;
    for (;;) {
        if (out->nrows >= out->cap) return WCSV_MORE;
        if (r->pos >= r->len) {
            if (r->eof) return WCSV_EOF;
            if (out->nrows > start_rows) return WCSV_MORE;
            if (!refill(r, err)) return WCSV_ERROR;
            continue;
        }
        if (r->int_rows && int_rows(r, out) > 0) continue;
        int rc = parse_row(r, out, skipped, err);
        if (rc == PR_INCOMPLETE) {
            if (out->nrows > start_rows) return WCSV_MORE;   /* the buffer must not move now */
            if (!refill(r, err)) return WCSV_ERROR;
            continue;
        }
        if (rc == PR_ERR) return WCSV_ERROR;
    }
}
