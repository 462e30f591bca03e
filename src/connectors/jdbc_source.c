/*
 * jdbc_source.c — the jdbc connector's bounded scan (Flink's JdbcDynamicTableSource with its
 * JdbcRowDataInputFormat): "SELECT cols FROM table", or with scan.partition.* one query per split
 * "... WHERE col BETWEEN lo AND hi" with Flink's JdbcNumericBetweenParametersProvider bounds
 * (rows outside [lower-bound, upper-bound] or with a NULL partition value are not read, as in
 * Flink). Split i goes to subtask i mod parallelism. scan.fetch-size > 0 reads through a cursor
 * that many rows per round trip; 0 takes each query's whole result at once (the driver's default).
 * Position for checkpoints: the split in progress and the rows of it already emitted (a restore
 * re-runs that split's query and skips them: the table is assumed unchanged).
 * Depends on jdbc_internal.h.
 */
#include "jdbc_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct JdbcSource {
    WSource base;
    WJdbcConf conf;
    WTableSpec spec;                /* names and types point into the caller's spec */
    PGconn *conn;
    int nsplits;
    int64_t (*splits)[2];           /* NULL: one query without bounds */
    int split;                      /* the split in progress or next (index into all splits) */
    int64_t split_rows;             /* rows of it emitted */
    int64_t skip;                   /* rows still to drop after a seek */
    PGresult *res;
    int res_row;
    bool in_cursor, cursor_more;
} JdbcSource;

int wjdbc_splits(const WJdbcConf *c, int64_t (**out)[2])
{
    *out = NULL;
    if (!c->part_col) return 1;
    int64_t max_elems = c->part_hi - c->part_lo + 1;
    int64_t num = c->part_num > max_elems ? max_elems : c->part_num;
    int64_t size = (int64_t)ceil((double)max_elems / (double)num);
    int64_t big = max_elems - (size - 1) * num;
    int64_t (*sp)[2] = wcalloc((size_t)num, sizeof *sp);
    int64_t start = c->part_lo;
    for (int64_t i = 0; i < num; i++) {
        int64_t end = start + size - 1 - (i >= big ? 1 : 0);
        sp[i][0] = start;
        sp[i][1] = end;
        start = end + 1;
    }
    *out = sp;
    return (int)num;
}

static void query_text(const JdbcSource *s, int split, WStrBuf *q)
{
    wsb_append(q, "SELECT ");
    for (int i = 0; i < s->spec.ncols; i++) wsb_printf(q, "%s%s", i ? ", " : "", s->spec.col_names[i]);
    wsb_printf(q, " FROM %s", s->conf.table);
    if (s->splits)
        wsb_printf(q, " WHERE %s BETWEEN %" PRId64 " AND %" PRId64, s->conf.part_col, s->splits[split][0],
                   s->splits[split][1]);
}

static bool exec_ok(JdbcSource *s, const char *sql, ExecStatusType want, PGresult **out, WError *err)
{
    PGresult *r = PQexec(s->conn, sql);
    if (PQresultStatus(r) != want) {
        werr_set(err, "java.sql.SQLException", "Reading table '%s' from PostgreSQL failed: %s", s->conf.table,
                 wjdbc_pg_error(s->conn, r));
        PQclear(r);
        return false;
    }
    if (out) *out = r;
    else PQclear(r);
    return true;
}

static bool fetch(JdbcSource *s, WError *err)
{
    char sql[64];
    snprintf(sql, sizeof sql, "FETCH %" PRId64 " FROM weir_scan", s->conf.fetch_size);
    if (!exec_ok(s, sql, PGRES_TUPLES_OK, &s->res, err)) return false;
    s->res_row = 0;
    s->cursor_more = PQntuples(s->res) == s->conf.fetch_size;
    return true;
}

/* Start split s->split: its query's result (or first cursor batch) in s->res. */
static bool open_split(JdbcSource *s, WError *err)
{
    WStrBuf q;
    wsb_init(&q);
    query_text(s, s->split, &q);
    bool ok;
    if (s->conf.fetch_size > 0) {
        WStrBuf d;
        wsb_init(&d);
        wsb_printf(&d, "DECLARE weir_scan NO SCROLL CURSOR FOR %s", q.buf);
        ok = exec_ok(s, "BEGIN", PGRES_COMMAND_OK, NULL, err) && (s->in_cursor = true) &&
             exec_ok(s, d.buf, PGRES_COMMAND_OK, NULL, err) && fetch(s, err);
        wsb_free(&d);
    } else {
        ok = exec_ok(s, q.buf, PGRES_TUPLES_OK, &s->res, err);
        s->res_row = 0;
        s->cursor_more = false;
    }
    wsb_free(&q);
    return ok;
}

static bool close_split(JdbcSource *s, WError *err)
{
    PQclear(s->res);
    s->res = NULL;
    if (s->in_cursor) {
        s->in_cursor = false;
        if (!exec_ok(s, "CLOSE weir_scan", PGRES_COMMAND_OK, NULL, err) ||
            !exec_ok(s, "COMMIT", PGRES_COMMAND_OK, NULL, err))
            return false;
    }
    /* the next split of this subtask */
    s->split += s->spec.parallelism > 0 ? s->spec.parallelism : 1;
    s->split_rows = 0;
    return true;
}

static WSourceStatus js_next(WSource *base, WChunk *out, WError *err)
{
    JdbcSource *s = (JdbcSource *)base;
    while (out->nrows < out->cap) {
        if (s->split >= s->nsplits) return WSRC_END;
        if (!s->conn && !(s->conn = wjdbc_connect(&s->conf, err))) return WSRC_ERROR;
        if (!s->res && !open_split(s, err)) return WSRC_ERROR;
        int n = PQntuples(s->res);
        while (s->res_row < n && out->nrows < out->cap) {
            int r = s->res_row++;
            if (s->skip > 0) { s->skip--; s->split_rows++; continue; }
            int row = wchunk_add_row(out, WRK_INSERT);
            for (int c = 0; c < s->spec.ncols; c++) {
                WVector *v = &out->cols[c];
                if (PQgetisnull(s->res, r, c)) { v->nulls[row] = 1; continue; }
                v->nulls[row] = 0;
                if (s->spec.col_read && !s->spec.col_read[c]) { v->nulls[row] = 1; continue; }
                if (!wjdbc_from_text(s->spec.cast, s->spec.col_types[c], s->spec.col_names[c], PQgetvalue(s->res, r, c),
                                     PQgetlength(s->res, r, c), &v->data[row], out->arena, err))
                    return WSRC_ERROR;
            }
            s->split_rows++;
            base->rows_read++;
        }
        if (s->res_row < n) break;
        if (s->cursor_more) {
            PQclear(s->res);
            s->res = NULL;
            if (!fetch(s, err)) return WSRC_ERROR;
            continue;
        }
        if (!close_split(s, err)) return WSRC_ERROR;
    }
    return WSRC_MORE;
}

static bool js_position(WSource *base, char *buf, size_t bufsz)
{
    JdbcSource *s = (JdbcSource *)base;
    snprintf(buf, bufsz, "split=%d,rows=%" PRId64, s->split, s->split_rows);
    return true;
}

static bool js_seek(WSource *base, const char *pos, WError *err)
{
    JdbcSource *s = (JdbcSource *)base;
    int split;
    int64_t rows;
    if (sscanf(pos, "split=%d,rows=%" SCNd64, &split, &rows) != 2 || split < 0 || rows < 0)
        return werr_set(err, WEXC_ILLEGAL_ARG, "Invalid jdbc source position '%s'.", pos);
    if (s->res) {
        WError tmp;
        werr_clear(&tmp);
        PQclear(s->res);
        s->res = NULL;
        if (s->in_cursor) { exec_ok(s, "ROLLBACK", PGRES_COMMAND_OK, NULL, &tmp); s->in_cursor = false; }
    }
    s->split = split;
    s->split_rows = 0;
    s->skip = rows;
    return true;
}

static void js_close(WSource *base)
{
    JdbcSource *s = (JdbcSource *)base;
    PQclear(s->res);
    PQfinish(s->conn);
    free(s->splits);
    free(s);
}

WSource *wjdbc_open_source(const WTableSpec *spec, WError *err)
{
    JdbcSource *s = wcalloc(1, sizeof *s);
    if (!wjdbc_conf(spec, &s->conf, err) || !wjdbc_check_types(spec, err)) {
        free(s);
        return NULL;
    }
    s->spec = *spec;
    s->nsplits = wjdbc_splits(&s->conf, &s->splits);
    s->split = spec->subtask;
    s->base.next = js_next;
    s->base.position = js_position;
    s->base.seek = js_seek;
    s->base.close = js_close;
    s->base.bounded = true;
    /* connect now: a bad url or an unreachable server fails the job before it runs */
    if (!(s->conn = wjdbc_connect(&s->conf, err))) {
        js_close(&s->base);
        return NULL;
    }
    return &s->base;
}
