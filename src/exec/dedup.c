/*
 * dedup.c — the Deduplicate operator (ROW_NUMBER() ... = 1), with Flink's semantics:
 *   proctime keep-first   ProcTimeDeduplicateKeepFirstRowFunction: +I for the first row of a key,
 *                         later rows dropped (state: a 1-byte flag);
 *   proctime keep-last    ProcTimeDeduplicateKeepLastRowFunction (processLastRowOnProcTime): +I for
 *                         the first row, then -U(prev)/+U(cur); an identical row emits nothing unless
 *                         state TTL is enabled; with neither UPDATE_BEFORE nor INSERT required every
 *                         row is a +U. A changelog input (input_retracts) is processed as
 *                         processLastRowOnChangelog (retractions emit -D of the stored row);
 *   rowtime first/last    RowTimeDeduplicateFunction: keeps the row with the smallest (keep-first,
 *                         strictly smaller) or largest (keep-last, >=) time, emitting +I / -U,+U;
 *   rowtime keep-first with generate_insert_only: RowTimeDeduplicateKeepFirstRowFunction (Flink 2.x):
 *                         the earliest row waits for the watermark and is emitted once as +I; late
 *                         rows are dropped.
 * Flink's table.exec.insert-and-updateafter-sensitive (default true) decides generateInsert.
 * Every byte of state lives in WState `deduplicateState` (binary rows, types/row.h).
 * May call exec/operator, state/, types/, common/.
 */
#include "insight.h"
#include "op_rows.h"
#include "stateful.h"
#include "../state/timers.h"
#include "../types/row.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct DedupOp {
    WOperator base;
    int ncols;                  /* input = output columns */
    const WType **types;
    int nkeys;
    int *keys;
    const WType **ktypes;
    bool keep_last, rowtime, insert_only_rowtime, changelog_in;
    int time_col;
    bool gen_ub, gen_insert, ttl_on;
    WStateBackend *be;
    WState *st;                 /* deduplicateState */
    WState *waiting;            /* insert-only rowtime: rows waiting for the watermark */
    WTimerService *timers;
    WChunk *out;
    WStrBuf kbuf, rbuf;
    WDatum *vals;               /* encode scratch */
    uint8_t *nulls;
    int64_t ttl_expired, dropped;
    bool broken;                /* invalid spec: error reported, rows ignored */
} DedupOp;

/* ---- helpers ---- */

static int out_add(DedupOp *d, WRowKind k) { return wop_out_row(&d->base, d->out, k); }

static void emit_bin_row(DedupOp *d, WRowKind k, WBytes row)
{
    int o = out_add(d, k);
    wrow_decode_chunk(row.p, row.len, d->ncols, d->types, d->out, o, 0, d->out->arena, true);
}

static void flush(DedupOp *d) { wop_out_flush(&d->base, d->out); }

/* Flink reads the rowtime with getLong: epoch millis of a compact TIMESTAMP, 0 for NULL. */
static int64_t time_of_datum(const WType *t, WDatum v, bool isnull)
{
    if (isnull) return 0;
    return wtype_is_timestamp(t) ? v.ts.ms : v.i;
}

static int64_t time_of_bin(DedupOp *d, WBytes row)
{
    WDatum v;
    const WType *t = d->types[d->time_col];
    bool nn = wrow_get(row.p, row.len, d->ncols, t, d->time_col, &v);
    return time_of_datum(t, v, !nn);
}

static bool same_row(WBytes stored, const WStrBuf *cur)
{
    return stored.len == cur->len && memcmp(stored.p, cur->buf, cur->len) == 0;
}

static WStateLookup get_value(DedupOp *d, WState *s, WBytes *v)
{
    WStateLookup how = wvalue_get(s, v);
    if (how == WSL_EXPIRED) d->ttl_expired++;
    return how;
}

/* ---- per-strategy processing of one row (current key already set) ---- */

static void proc_first(DedupOp *d, const WChunk *in, int r)
{
    WBytes v;
    if (get_value(d, d->st, &v) == WSL_FOUND) return;
    uint8_t flag = 1;
    wvalue_put(d->st, &flag, 1);
    wop_out_copy_row(&d->base, d->out, WRK_INSERT, in, r, d->ncols);
}

static void proc_last_proctime(DedupOp *d, const WChunk *in, int r)
{
    if (!d->gen_ub && !d->gen_insert) {
        wop_out_copy_row(&d->base, d->out, WRK_UPDATE_AFTER, in, r, d->ncols);
        return;
    }
    wop_encode_cols(&d->rbuf, in, r, d->ncols, NULL, d->types, d->vals, d->nulls);
    WBytes pre;
    if (get_value(d, d->st, &pre) != WSL_FOUND) {
        wvalue_put(d->st, d->rbuf.buf, d->rbuf.len);
        wop_out_copy_row(&d->base, d->out, WRK_INSERT, in, r, d->ncols);
        return;
    }
    if (!d->ttl_on && same_row(pre, &d->rbuf)) {
        wvalue_put(d->st, d->rbuf.buf, d->rbuf.len);   /* Flink updates state first */
        return;
    }
    if (d->gen_ub) emit_bin_row(d, WRK_UPDATE_BEFORE, pre);
    wop_out_copy_row(&d->base, d->out, WRK_UPDATE_AFTER, in, r, d->ncols);
    wvalue_put(d->st, d->rbuf.buf, d->rbuf.len);
}

/* processLastRowOnChangelog: the input carries retractions. */
static void proc_last_changelog(DedupOp *d, const WChunk *in, int r)
{
    WRowKind k = (WRowKind)in->kinds[r];
    WBytes pre;
    bool have = get_value(d, d->st, &pre) == WSL_FOUND;
    if (k == WRK_INSERT || k == WRK_UPDATE_AFTER) {
        wop_encode_cols(&d->rbuf, in, r, d->ncols, NULL, d->types, d->vals, d->nulls);
        if (!have) {
            wop_out_copy_row(&d->base, d->out, WRK_INSERT, in, r, d->ncols);
        } else {
            if (!d->ttl_on && same_row(pre, &d->rbuf)) return;
            if (d->gen_ub) emit_bin_row(d, WRK_UPDATE_BEFORE, pre);
            wop_out_copy_row(&d->base, d->out, WRK_UPDATE_AFTER, in, r, d->ncols);
        }
        wvalue_put(d->st, d->rbuf.buf, d->rbuf.len);
    } else if (have) {
        emit_bin_row(d, WRK_DELETE, pre);
        wvalue_clear(d->st);
    } else {
        d->dropped++;
    }
}

static void proc_rowtime(DedupOp *d, const WChunk *in, int r)
{
    WBytes pre;
    bool have = get_value(d, d->st, &pre) == WSL_FOUND;
    int64_t cur_t = time_of_datum(d->types[d->time_col], in->cols[d->time_col].data[r],
                                  in->cols[d->time_col].nulls[r]);
    if (have) {
        int64_t pre_t = time_of_bin(d, pre);
        bool keep = d->keep_last ? pre_t <= cur_t : cur_t < pre_t;
        if (!keep) return;
    }
    if (d->gen_ub || d->gen_insert) {
        if (!have) {
            wop_out_copy_row(&d->base, d->out, WRK_INSERT, in, r, d->ncols);
        } else {
            if (d->gen_ub) emit_bin_row(d, WRK_UPDATE_BEFORE, pre);
            wop_out_copy_row(&d->base, d->out, WRK_UPDATE_AFTER, in, r, d->ncols);
        }
    } else {
        wop_out_copy_row(&d->base, d->out, WRK_UPDATE_AFTER, in, r, d->ncols);
    }
    wop_encode_cols(&d->rbuf, in, r, d->ncols, NULL, d->types, d->vals, d->nulls);
    wvalue_put(d->st, d->rbuf.buf, d->rbuf.len);
}

/* RowTimeDeduplicateKeepFirstRowFunction: insert-only output on watermark. */
static void proc_rowtime_insert_only(DedupOp *d, const WChunk *in, int r)
{
    int64_t cur_t = time_of_datum(d->types[d->time_col], in->cols[d->time_col].data[r],
                                  in->cols[d->time_col].nulls[r]);
    if (cur_t < d->base.wm) {
        wop_late_row(&d->base, 0, in, r, winsight_lateness(d->base.wm, cur_t));
        return;
    }
    WBytes v;
    if (get_value(d, d->st, &v) == WSL_FOUND) return;      /* already emitted */
    WBytes pre;
    bool have = wvalue_get(d->waiting, &pre) == WSL_FOUND;
    if (have) {
        int64_t pre_t = time_of_bin(d, pre);
        if (!(cur_t < pre_t)) return;
        wtimers_delete(d->timers, pre_t, d->kbuf.buf, d->kbuf.len, 0);
    }
    wtimers_register(d->timers, cur_t, d->kbuf.buf, d->kbuf.len, 0);
    wop_encode_cols(&d->rbuf, in, r, d->ncols, NULL, d->types, d->vals, d->nulls);
    wvalue_put(d->waiting, d->rbuf.buf, d->rbuf.len);
}

static void dedup_process(WOperator *op, int input, const WChunk *in)
{
    DedupOp *d = (DedupOp *)op;
    (void)input;
    if (d->broken) return;
    for (int r = 0; r < in->nrows; r++) {
        WRowKind k = (WRowKind)in->kinds[r];
        if (k != WRK_INSERT && !d->changelog_in) {
            /* Flink: Preconditions.checkArgument(row kind == INSERT) fails the job. */
            flush(d);
            werr_set(op->ctx->err, WEXC_ILLEGAL_ARG,
                     "Deduplicate expects an insert-only input, but received a %s row",
                     wrowkind_short(k));
            return;
        }
        wop_encode_cols(&d->kbuf, in, r, d->nkeys, d->keys, d->ktypes, d->vals, d->nulls);
        wstate_set_key(d->be, d->kbuf.buf, d->kbuf.len);
        if (d->insert_only_rowtime) proc_rowtime_insert_only(d, in, r);
        else if (d->rowtime) proc_rowtime(d, in, r);
        else if (!d->keep_last) proc_first(d, in, r);
        else if (d->changelog_in) proc_last_changelog(d, in, r);
        else proc_last_proctime(d, in, r);
    }
    flush(d);
}

static void fire_timer(void *ctx, int64_t ts, const void *key, size_t klen, int64_t ns)
{
    DedupOp *d = ctx;
    (void)ts; (void)ns;
    wstate_set_key(d->be, key, klen);
    WBytes row;
    if (wvalue_get(d->waiting, &row) != WSL_FOUND) return;
    emit_bin_row(d, WRK_INSERT, row);
    wvalue_clear(d->waiting);
    uint8_t flag = 1;
    wvalue_put(d->st, &flag, 1);
}

static void dedup_watermark(WOperator *op, int64_t wm)
{
    DedupOp *d = (DedupOp *)op;
    if (d->timers) {
        wtimers_advance(d->timers, wm, fire_timer, d);
        flush(d);
    }
    wop_emit_watermark(op, wm);
}

static void dedup_metrics(WOperator *op, WOpMetrics *m)
{
    DedupOp *d = (DedupOp *)op;
    wop_metrics_states(m, d->be);
    wop_metrics_value(m, "ttlExpiredRecords", d->ttl_expired);
}

static void dedup_destroy(WOperator *op)
{
    DedupOp *d = (DedupOp *)op;
    wstate_backend_free(d->be);
    if (d->timers) wtimers_free(d->timers);
    wchunk_free(d->out);
    wsb_free(&d->kbuf);
    wsb_free(&d->rbuf);
    free(d->vals);
    free(d->nulls);
    free(d->keys);
    free(d->ktypes);
    free(d->types);
    free(d);
}

static const WOpOps DEDUP_OPS = {.process = dedup_process, .watermark = dedup_watermark,
                                 .destroy = dedup_destroy, .metrics = dedup_metrics};

WOperator *wop_dedup_new(WExecCtx *ctx, const WDedupSpec *spec)
{
    DedupOp *d = wcalloc(1, sizeof *d);
    d->ncols = spec->in_ncols;
    d->types = wmalloc(sizeof *d->types * (size_t)(d->ncols ? d->ncols : 1));
    memcpy(d->types, spec->in_types, sizeof *d->types * (size_t)d->ncols);
    wop_init(&d->base, &DEDUP_OPS, ctx, 1, spec->out.ncols ? spec->out.ncols : d->ncols,
             spec->out.types ? spec->out.types : d->types, spec->out.names);
    d->nkeys = spec->nkeys;
    d->keys = wmalloc(sizeof *d->keys * (size_t)(d->nkeys ? d->nkeys : 1));
    d->ktypes = wmalloc(sizeof *d->ktypes * (size_t)(d->nkeys ? d->nkeys : 1));
    if (!wop_cols_in_range(spec->keys, spec->nkeys, d->ncols) ||
        (spec->rowtime && (spec->time_col < 0 || spec->time_col >= d->ncols))) {
        werr_set(ctx->err, WEXC_TABLE, "Deduplicate: key or rowtime column index out of range");
        d->broken = true;
        d->nkeys = 0;
    }
    for (int k = 0; k < d->nkeys; k++) {
        d->keys[k] = spec->keys[k];
        d->ktypes[k] = d->types[spec->keys[k]];
    }
    d->keep_last = spec->keep_last;
    d->rowtime = spec->rowtime;
    d->time_col = spec->time_col;
    d->changelog_in = spec->input_retracts && spec->keep_last && !spec->rowtime;
    d->insert_only_rowtime = spec->rowtime && !spec->keep_last && spec->generate_insert_only;
    d->gen_ub = spec->generate_update_before;
    bool gen_insert = true;
    if (ctx->config)
        wopts_get_bool(ctx->config, "table.exec.insert-and-updateafter-sensitive", true, &gen_insert, NULL);
    d->gen_insert = gen_insert;
    d->ttl_on = spec->ttl_ms > 0;
    d->be = wexec_new_backend(ctx, d->base.name ? d->base.name : "Deduplicate");
    if (d->insert_only_rowtime) {
        d->st = wstate_register(d->be, "deduplicateState", WSTATE_VALUE, spec->ttl_ms);
        d->waiting = wstate_register(d->be, "deduplicateWaitingState", WSTATE_VALUE, 0);
        d->timers = wexec_new_timers(ctx, "Deduplicate");
    } else {
        d->st = wstate_register(d->be, "deduplicateState", WSTATE_VALUE, spec->ttl_ms);
    }
    int cap = ctx->chunk_rows > 0 ? ctx->chunk_rows : WCHUNK_CAP;
    d->out = wchunk_new(d->ncols, d->types, cap);
    wsb_init(&d->kbuf);
    wsb_init(&d->rbuf);
    d->vals = wcalloc((size_t)(d->ncols ? d->ncols : 1), sizeof *d->vals);
    d->nulls = wcalloc((size_t)(d->ncols ? d->ncols : 1), 1);
    return &d->base;
}
