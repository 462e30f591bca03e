/*
 * jdbc_sink.c — the jdbc connector's sink (Flink's JdbcOutputFormat with its buffered
 * executors). Without a PRIMARY KEY (append mode) every row is an "INSERT INTO t(cols) VALUES
 * ($1, ...)". With one (upsert mode) rows are reduced by key in the buffer (the last change of a
 * key wins, as TableBufferReducedStatementExecutor does), then written as
 * "INSERT ... ON CONFLICT (pk) DO UPDATE SET c=EXCLUDED.c, ..." (DO NOTHING when every column is
 * a key column) for +I/+U and "DELETE FROM t WHERE k = $1 AND ..." for -D/-U. A flush runs when
 * sink.buffer-flush.max-rows rows are buffered (0: never by count), when a row arrives
 * sink.buffer-flush.interval after the last flush (0: never by time), at every checkpoint and at
 * the end of input; it is one transaction (statements sent in libpq's pipeline mode), retried
 * sink.max-retries times (reconnecting when the connection broke, waiting 1 s x attempt as Flink
 * does) before the job fails with "Writing records to JDBC failed.". Depends on jdbc_internal.h,
 * common/.
 */
#include "jdbc_internal.h"
#include "../common/proc_clock.h"
#include "../common/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct BufRow {
    bool upsert;                    /* +I/+U: write; -D/-U: delete */
    char **vals;                    /* ncols texts, NULL = SQL NULL (one allocation with the texts) */
    char *key;                      /* upsert mode: the key's texts joined (for the reduce) */
    size_t keylen;
} BufRow;

typedef struct JdbcSink {
    WSink base;
    WJdbcConf conf;
    WTableSpec spec;
    PGconn *conn;
    char *insert_sql, *delete_sql;
    BufRow *rows;
    int nrows, cap;
    int *slots;                     /* open addressing over rows by key (upsert mode), -1 empty */
    int nslots;
    int64_t last_flush_ms;
    bool broken;                    /* the connection is in an unknown state: reconnect */
    WStrBuf tmp;
} JdbcSink;

static int64_t now_ms(const JdbcSink *s)
{
    if (s->spec.clock) return s->spec.clock(s->spec.clock_ctx);
    return wproc_wall_ms();
}

static bool is_key_col(const JdbcSink *s, int c)
{
    for (int k = 0; k < s->spec.npk; k++) if (s->spec.pk[k] == c) return true;
    return false;
}

/* The statements Flink's PostgresDialect generates (identifiers as written, not quoted). */
static void build_sql(JdbcSink *s)
{
    const WTableSpec *sp = &s->spec;
    WStrBuf q;
    wsb_init(&q);
    wsb_printf(&q, "INSERT INTO %s(", s->conf.table);
    for (int i = 0; i < sp->ncols; i++) wsb_printf(&q, "%s%s", i ? ", " : "", sp->col_names[i]);
    wsb_append(&q, ") VALUES (");
    for (int i = 0; i < sp->ncols; i++) wsb_printf(&q, "%s$%d", i ? ", " : "", i + 1);
    wsb_append(&q, ")");
    if (sp->npk) {
        wsb_append(&q, " ON CONFLICT (");
        for (int k = 0; k < sp->npk; k++) wsb_printf(&q, "%s%s", k ? ", " : "", sp->col_names[sp->pk[k]]);
        wsb_append(&q, ")");
        bool any = false;
        for (int i = 0; i < sp->ncols; i++) {
            if (is_key_col(s, i)) continue;
            wsb_printf(&q, "%s%s=EXCLUDED.%s", any ? ", " : " DO UPDATE SET ", sp->col_names[i], sp->col_names[i]);
            any = true;
        }
        if (!any) wsb_append(&q, " DO NOTHING");
        WStrBuf d;
        wsb_init(&d);
        wsb_printf(&d, "DELETE FROM %s WHERE ", s->conf.table);
        for (int k = 0; k < sp->npk; k++) wsb_printf(&d, "%s%s = $%d", k ? " AND " : "", sp->col_names[sp->pk[k]], k + 1);
        s->delete_sql = wsb_detach(&d);
    }
    s->insert_sql = wsb_detach(&q);
}

static bool prepare(JdbcSink *s, WError *err)
{
    PGresult *r = PQprepare(s->conn, "weir_ins", s->insert_sql, 0, NULL);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (ok && s->delete_sql) {
        PQclear(r);
        r = PQprepare(s->conn, "weir_del", s->delete_sql, 0, NULL);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    }
    if (!ok) werr_set(err, "java.sql.SQLException", "Preparing the statements of the jdbc sink on table '%s' failed: %s",
                      s->conf.table, wjdbc_pg_error(s->conn, r));
    PQclear(r);
    return ok;
}

static void free_row(BufRow *r) { free(r->vals); }

static uint64_t key_hash(const char *k, size_t n) { return whash_bytes(k, n, 0x6a646263); }

static void rehash(JdbcSink *s)
{
    free(s->slots);
    s->nslots = 64;
    while (s->nslots < s->cap * 2) s->nslots *= 2;
    s->slots = wmalloc(sizeof(int) * (size_t)s->nslots);
    for (int i = 0; i < s->nslots; i++) s->slots[i] = -1;
    for (int i = 0; i < s->nrows; i++) {
        size_t h = key_hash(s->rows[i].key, s->rows[i].keylen) & (size_t)(s->nslots - 1);
        while (s->slots[h] >= 0) h = (h + 1) & (size_t)(s->nslots - 1);
        s->slots[h] = i;
    }
}

/* Row r of in as texts: one allocation holding the pointer array and the strings. */
static void add_row(JdbcSink *s, const WChunk *in, int r)
{
    const WTableSpec *sp = &s->spec;
    WStrBuf *t = &s->tmp;
    wsb_clear(t);
    size_t *off = wmalloc(sizeof(size_t) * (size_t)sp->ncols);
    for (int c = 0; c < sp->ncols; c++) {
        if (in->cols[c].nulls[r]) { off[c] = (size_t)-1; continue; }
        off[c] = t->len;
        wjdbc_to_text(sp->col_types[c], in->cols[c].data[r], t);
        wsb_putc(t, 0);
    }
    size_t keystart = t->len;
    for (int k = 0; k < sp->npk; k++) {
        int c = sp->pk[k];
        if (off[c] == (size_t)-1) wsb_putc(t, 1);
        else { wsb_putc(t, 2); wsb_append(t, t->buf + off[c]); }
        wsb_putc(t, 0);
    }
    size_t ptrs = sizeof(char *) * (size_t)sp->ncols;
    char *block = wmalloc(ptrs + t->len + 1);
    memcpy(block + ptrs, t->buf ? t->buf : "", t->len);
    BufRow row = {.upsert = !wrowkind_is_retract((WRowKind)in->kinds[r]), .vals = (char **)(void *)block};
    for (int c = 0; c < sp->ncols; c++) row.vals[c] = off[c] == (size_t)-1 ? NULL : block + ptrs + off[c];
    row.key = block + ptrs + keystart;
    row.keylen = t->len - keystart;
    free(off);
    if (sp->npk) {
        if (!s->slots) rehash(s);
        size_t h = key_hash(row.key, row.keylen) & (size_t)(s->nslots - 1);
        for (; s->slots[h] >= 0; h = (h + 1) & (size_t)(s->nslots - 1)) {
            BufRow *o = &s->rows[s->slots[h]];
            if (o->keylen == row.keylen && memcmp(o->key, row.key, row.keylen) == 0) {
                free_row(o);
                *o = row;               /* the last change of the key wins, in its first place */
                return;
            }
        }
        if (s->nrows == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 128;
            s->rows = wrealloc(s->rows, sizeof *s->rows * (size_t)s->cap);
            rehash(s);
            h = key_hash(row.key, row.keylen) & (size_t)(s->nslots - 1);
            while (s->slots[h] >= 0) h = (h + 1) & (size_t)(s->nslots - 1);
        }
        s->slots[h] = s->nrows;
    } else if (s->nrows == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 128;
        s->rows = wrealloc(s->rows, sizeof *s->rows * (size_t)s->cap);
    }
    s->rows[s->nrows++] = row;
}

static bool run(JdbcSink *s, const char *sql, ExecStatusType want, WStrBuf *why)
{
    PGresult *r = PQexec(s->conn, sql);
    bool ok = PQresultStatus(r) == want;
    if (!ok) wsb_append(why, wjdbc_pg_error(s->conn, r));
    PQclear(r);
    return ok;
}

/* Read the results of the statements sent since the last sync, up to the sync itself; the first
   failure's message goes to why. */
static bool drain(JdbcSink *s, WStrBuf *why)
{
    bool ok = true;
    for (;;) {
        PGresult *r = PQgetResult(s->conn);
        if (!r) {
            if (s->broken || PQstatus(s->conn) != CONNECTION_OK) {
            s->broken = false;
                if (ok) wsb_append(why, wjdbc_pg_error(s->conn, NULL));
                return false;
            }
            continue;                   /* the end of one statement's results */
        }
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) { PQclear(r); return ok; }
        if (st != PGRES_COMMAND_OK && st != PGRES_PIPELINE_ABORTED && ok) {
            ok = false;
            wsb_append(why, wjdbc_pg_error(s->conn, r));
        }
        if (st == PGRES_PIPELINE_ABORTED) ok = false;
        PQclear(r);
    }
}

#define PIPELINE_BATCH 1000

/* One attempt: the buffer as one transaction (upserts, then deletes, as Flink's executor), sent
   in libpq's pipeline mode (no round trip per row), synchronised every PIPELINE_BATCH rows so
   neither side's buffers fill up. */
static bool attempt(JdbcSink *s, WStrBuf *why)
{
    if (!run(s, "BEGIN", PGRES_COMMAND_OK, why)) return false;
    if (!PQenterPipelineMode(s->conn)) {
        wsb_append(why, wjdbc_pg_error(s->conn, NULL));
        return false;
    }
    int nk = s->spec.npk;
    const char **kv = wmalloc(sizeof(char *) * (size_t)(nk + 1));
    bool ok = true;
    int pending = 0;
    for (int pass = 0; ok && pass < 2; pass++) {
        for (int i = 0; ok && i < s->nrows; i++) {
            BufRow *b = &s->rows[i];
            if (b->upsert != (pass == 0)) continue;
            int sent;
            if (b->upsert) {
                sent = PQsendQueryPrepared(s->conn, "weir_ins", s->spec.ncols, (const char *const *)b->vals, NULL, NULL, 0);
            } else {
                for (int k = 0; k < nk; k++) kv[k] = b->vals[s->spec.pk[k]];
                sent = PQsendQueryPrepared(s->conn, "weir_del", nk, kv, NULL, NULL, 0);
            }
            if (!sent) { ok = false; wsb_append(why, wjdbc_pg_error(s->conn, NULL)); break; }
            if (++pending == PIPELINE_BATCH) {
                ok = PQpipelineSync(s->conn) && drain(s, why);
                pending = 0;
            }
        }
    }
    if (pending && ok) ok = PQpipelineSync(s->conn) && drain(s, why);
    free(kv);
    if (!PQexitPipelineMode(s->conn)) {
        /* results left unread after a send failure: the connection is reset by the retry */
        if (ok) wsb_append(why, wjdbc_pg_error(s->conn, NULL));
        s->broken = true;               /* flush reconnects before the retry */
        return false;
    }
    if (ok) return run(s, "COMMIT", PGRES_COMMAND_OK, why);
    WStrBuf ignore;
    wsb_init(&ignore);
    run(s, "ROLLBACK", PGRES_COMMAND_OK, &ignore);
    wsb_free(&ignore);
    return false;
}

static bool flush(JdbcSink *s, WError *err)
{
    s->last_flush_ms = now_ms(s);
    if (s->nrows == 0) return true;
    WStrBuf why;
    wsb_init(&why);
    for (int64_t i = 0;; i++) {
        wsb_clear(&why);
        if (attempt(s, &why)) break;
        if (i >= s->conf.sink_retries) {
            werr_set(err, WEXC_IO, "Writing records to JDBC failed. (table '%s', after %lld retries: %s)",
                     s->conf.table, (long long)i, why.buf ? why.buf : "");
            wsb_free(&why);
            return false;
        }
        if (s->broken || PQstatus(s->conn) != CONNECTION_OK) {
            s->broken = false;
            PQfinish(s->conn);
            s->conn = NULL;
            WError e;
            werr_clear(&e);
            if ((s->conn = wjdbc_connect(&s->conf, &e)) != NULL && !prepare(s, &e)) {
                PQfinish(s->conn);
                s->conn = NULL;
            }
            if (!s->conn) {
                werr_set(err, WEXC_IO, "Reestablish JDBC connection failed: %s", e.msg);
                wsb_free(&why);
                return false;
            }
        }
        wjdbc_sleep_ms(1000 * i);
    }
    wsb_free(&why);
    s->base.rows_written += s->nrows;
    for (int i = 0; i < s->nrows; i++) free_row(&s->rows[i]);
    s->nrows = 0;
    if (s->slots) for (int i = 0; i < s->nslots; i++) s->slots[i] = -1;
    return true;
}

static bool jk_write(WSink *base, const WChunk *in, WError *err)
{
    JdbcSink *s = (JdbcSink *)base;
    for (int r = 0; r < in->nrows; r++) {
        add_row(s, in, r);
        if (s->conf.flush_rows > 0 && s->nrows >= s->conf.flush_rows && !flush(s, err)) return false;
    }
    if (s->conf.flush_interval_ms > 0 && s->nrows && now_ms(s) - s->last_flush_ms >= s->conf.flush_interval_ms)
        return flush(s, err);
    return true;
}

static bool jk_finish(WSink *base, WError *err) { return flush((JdbcSink *)base, err); }

/* At a checkpoint: everything buffered is written (Flink's snapshotState flush); no state. */
static bool jk_prepare_commit(WSink *base, int64_t ckpt_id, char **state, WError *err)
{
    (void)ckpt_id;
    *state = NULL;
    return flush((JdbcSink *)base, err);
}

static void jk_close(WSink *base)
{
    JdbcSink *s = (JdbcSink *)base;
    for (int i = 0; i < s->nrows; i++) free_row(&s->rows[i]);
    free(s->rows);
    free(s->slots);
    free(s->insert_sql);
    free(s->delete_sql);
    wsb_free(&s->tmp);
    PQfinish(s->conn);
    free(s);
}

WSink *wjdbc_open_sink(const WTableSpec *spec, WError *err)
{
    JdbcSink *s = wcalloc(1, sizeof *s);
    wsb_init(&s->tmp);
    s->spec = *spec;
    s->base.write = jk_write;
    s->base.finish = jk_finish;
    s->base.close = jk_close;
    s->base.prepare_commit = jk_prepare_commit;
    if (!wjdbc_conf(spec, &s->conf, err) || !wjdbc_check_types(spec, err)) {
        jk_close(&s->base);
        return NULL;
    }
    build_sql(s);
    if (!(s->conn = wjdbc_connect(&s->conf, err)) || !prepare(s, err)) {
        jk_close(&s->base);
        return NULL;
    }
    s->last_flush_ms = now_ms(s);
    return &s->base;
}
