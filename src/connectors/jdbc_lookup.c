/*
 * jdbc_lookup.c — the jdbc connector as a lookup source (Flink's JdbcRowDataLookupFunction): one
 * prepared statement "SELECT cols FROM table WHERE k1 = $1 AND ..." run per key with the key's
 * values as text parameters. A failed query is retried lookup.max-retries times, reconnecting
 * and waiting 1 s more each time as Flink does; then the job fails with "Execution of JDBC
 * statement failed." and libpq's message. The cache (lookup.cache ...) is the caller's: the
 * options are parsed into WLookupSource.cache by wjdbc_conf. Depends on jdbc_internal.h.
 */
#include "jdbc_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct JdbcLookup {
    WLookupSource base;
    WJdbcConf conf;
    WTableSpec spec;                /* names and types point into the caller's spec */
    int nkeys;
    int *key_cols;
    PGconn *conn;
    bool prepared;
    WStrBuf query;
    WStrBuf *params;                /* per key: its value as text */
    WChunk *rows;                   /* the last result */
} JdbcLookup;

static bool prepare(JdbcLookup *l, WError *err)
{
    if (!l->conn && !(l->conn = wjdbc_connect(&l->conf, err))) return false;
    if (l->prepared) return true;
    PGresult *r = PQprepare(l->conn, "weir_lookup", l->query.buf, l->nkeys, NULL);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        werr_set(err, "java.sql.SQLException", "Preparing the lookup query of table '%s' failed: %s", l->conf.table,
                 wjdbc_pg_error(l->conn, r));
    PQclear(r);
    l->prepared = ok;
    return ok;
}

static void disconnect(JdbcLookup *l)
{
    PQfinish(l->conn);
    l->conn = NULL;
    l->prepared = false;
}

/* The rows of result r as a chunk (l->rows, replaced). */
static const WChunk *to_chunk(JdbcLookup *l, PGresult *r, WError *err)
{
    int n = PQntuples(r);
    if (!l->rows || l->rows->cap < n) {
        wchunk_free(l->rows);
        l->rows = wchunk_new(l->spec.ncols, l->spec.col_types, n > 16 ? n : 16);
    }
    wchunk_reset(l->rows);
    for (int i = 0; i < n; i++) {
        int row = wchunk_add_row(l->rows, WRK_INSERT);
        for (int c = 0; c < l->spec.ncols; c++) {
            WVector *v = &l->rows->cols[c];
            v->nulls[row] = (uint8_t)PQgetisnull(r, i, c);
            if (v->nulls[row]) continue;
            if (!wjdbc_from_text(l->spec.cast, l->spec.col_types[c], l->spec.col_names[c], PQgetvalue(r, i, c),
                                 PQgetlength(r, i, c), &v->data[row], l->rows->arena, err))
                return NULL;
        }
    }
    return l->rows;
}

static const WChunk *jl_lookup(WLookupSource *base, const WDatum *key, WError *err)
{
    JdbcLookup *l = (JdbcLookup *)base;
    const char *vals[64];
    for (int k = 0; k < l->nkeys; k++) {
        wsb_clear(&l->params[k]);
        wjdbc_to_text(l->spec.col_types[l->key_cols[k]], key[k], &l->params[k]);
        vals[k] = l->params[k].buf;
    }
    char why[512] = "";
    for (int64_t attempt = 0; attempt <= l->conf.lookup_retries; attempt++) {
        if (attempt > 0) {
            wjdbc_sleep_ms(1000 * attempt);
            disconnect(l);
        }
        WError e;
        werr_clear(&e);
        if (!prepare(l, &e)) {
            snprintf(why, sizeof why, "%s", e.msg);
            continue;
        }
        PGresult *r = PQexecPrepared(l->conn, "weir_lookup", l->nkeys, vals, NULL, NULL, 0);
        if (PQresultStatus(r) == PGRES_TUPLES_OK) {
            const WChunk *c = to_chunk(l, r, err);
            PQclear(r);
            return c;
        }
        snprintf(why, sizeof why, "%s", wjdbc_pg_error(l->conn, r));
        PQclear(r);
    }
    werr_set(err, "java.sql.SQLException", "Execution of JDBC statement failed. Looking up table '%s' after %lld "
             "retries: %s", l->conf.table, (long long)l->conf.lookup_retries, why);
    return NULL;
}

static void jl_close(WLookupSource *base)
{
    JdbcLookup *l = (JdbcLookup *)base;
    PQfinish(l->conn);
    for (int k = 0; k < l->nkeys; k++) wsb_free(&l->params[k]);
    free(l->params);
    free(l->key_cols);
    wsb_free(&l->query);
    wchunk_free(l->rows);
    free(l);
}

WLookupSource *wjdbc_open_lookup(const WTableSpec *spec, int nkeys, const int *key_cols, WError *err)
{
    if (nkeys <= 0 || nkeys > 64) {
        werr_set(err, WEXC_TABLE, "A lookup on table %s needs 1 to 64 key columns.", spec->name);
        return NULL;
    }
    JdbcLookup *l = wcalloc(1, sizeof *l);
    if (!wjdbc_conf(spec, &l->conf, err) || !wjdbc_check_types(spec, err)) {
        free(l);
        return NULL;
    }
    l->spec = *spec;
    l->nkeys = nkeys;
    l->key_cols = wmalloc(sizeof *l->key_cols * (size_t)nkeys);
    memcpy(l->key_cols, key_cols, sizeof *l->key_cols * (size_t)nkeys);
    l->params = wcalloc((size_t)nkeys, sizeof *l->params);
    for (int k = 0; k < nkeys; k++) wsb_init(&l->params[k]);
    wsb_init(&l->query);
    wsb_append(&l->query, "SELECT ");
    for (int i = 0; i < spec->ncols; i++) wsb_printf(&l->query, "%s%s", i ? ", " : "", spec->col_names[i]);
    wsb_printf(&l->query, " FROM %s WHERE ", l->conf.table);
    for (int k = 0; k < nkeys; k++)
        wsb_printf(&l->query, "%s%s = $%d", k ? " AND " : "", spec->col_names[key_cols[k]], k + 1);
    l->base.lookup = jl_lookup;
    l->base.close = jl_close;
    l->base.cache = l->conf.cache;
    /* connect now: a bad url or an unreachable server fails the job before it runs */
    if (!prepare(l, err)) {
        jl_close(&l->base);
        return NULL;
    }
    return &l->base;
}
